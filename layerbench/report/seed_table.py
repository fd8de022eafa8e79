"""Seed vs here: a matrix run beside the seed's figures (:mod:`layerbench.report.seed_figures`).
Per configuration the seed measured, the seed's req/s and its ratio to the experiment's
reference, ours (the median of the cell's trials, with its bootstrap 95 % interval) and our
ratio with its bootstrap interval (each cell's trials resampled on their own,
:func:`layerbench.stats.comparison.compare_rates`); then each of the seed's conclusions, and
whether it holds here: the absolute figures come from other hardware, the ratios are what can
be compared."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from layerbench.errors import ConfigError
from layerbench.report.seed_figures import (
    SAME_TOLERANCE,
    SEED_NAMES,
    Claim,
    Direction,
    Place,
    SeedExperiment,
    SeedFigure,
    experiments_of,
)
from layerbench.report.text_table import format_table
from layerbench.report.worker_memory import MIB, server_memory
from layerbench.results.matrix_result import Cell, MatrixResult
from layerbench.stats.comparison import RungComparison, compare_rates

# A column's label (its settings) at most this long, shortened with … (the matrix's own table
# above names it whole); its level and which measurement of it follow.
LABEL_WIDTH = 44

# How an on/off setting may be written (as servers/server_settings.py reads it).
ON_WORDS = frozenset({"1", "true", "yes", "on"})
OFF_WORDS = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class RunColumn:
    """A matrix column as the seed's figures are looked for in it: ``book`` the settings it
    was given (SECTION → KEY → VALUE), ``used`` those its server ran with, defaults included
    (empty before the run, and for a column whose server never started)."""

    label: str
    server: str
    app: str
    rung: str
    book: Mapping[str, Mapping[str, Any]]
    used: Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class RunShape:
    columns: tuple[RunColumn, ...]
    # The run's levels, in order (a level may come twice: the first measurement and the next).
    concurrency: tuple[int, ...]


def shape_of(result: MatrixResult) -> RunShape:
    books = {
        column["label"]: column.get("book", {})
        for column in result.options.get("columns", [])
        if isinstance(column, dict)
    }
    return RunShape(
        tuple(
            RunColumn(c.label, c.server, c.app, c.rung, books.get(c.label, {}), c.settings)
            for c in result.columns
        ),
        tuple(result.options.get("concurrency", ())),
    )


def check_seed(seed: str, shape: RunShape) -> list[SeedExperiment]:
    """The seed's experiments the run holds; a ConfigError naming what a run of each needs
    when it holds none (or the seed is not one of those with figures)."""
    experiments = experiments_of(seed)
    if not experiments:
        raise ConfigError(
            f"no figures of a seed {seed!r}; the seeds with experiments: {', '.join(SEED_NAMES)}"
        )
    held = [e for e in experiments if not _missing(e, shape)]
    if held:
        return held
    needs = "; ".join(
        f"{e.name} lacks {_missing(e, shape)} (run: layerbench {e.command})" for e in experiments
    )
    raise ConfigError(f"this matrix holds none of seed {seed}'s experiments: {needs}")


def format_seed_table(result: MatrixResult, seed: str, *, colour: bool | None = None) -> str:
    shape = shape_of(result)
    parts = []
    for experiment in check_seed(seed, shape):
        parts.append(_experiment_table(experiment, result, shape, colour))
    return "\n\n".join(parts)


def _missing(experiment: SeedExperiment, shape: RunShape) -> str:
    """The first figure of the seed's that the run has no place for; empty when none."""
    for figure in experiment.figures:
        if figure.requests_per_s is None:
            continue
        if _column(experiment, figure.place, shape) is None or _row(figure.place, shape) is None:
            place = figure.place
            settings = "".join(f":{s}" for s in place.settings)
            return f"{place.server}:app={place.app}{settings} at c={place.concurrency}" + (
                f" (measurement {place.occurrence + 1})" if place.occurrence else ""
            )
    return ""


def _column(experiment: SeedExperiment, place: Place, shape: RunShape) -> RunColumn | None:
    for column in shape.columns:
        if (column.server, column.app, column.rung) != (place.server, place.app, experiment.rung):
            continue
        if all(_runs_with(column, setting) for setting in place.settings):
            return column
    return None


def _runs_with(column: RunColumn, setting: str) -> bool:
    name, _, wanted = setting.partition("=")
    section, _, key = name.rpartition(".")
    value = column.used.get(section, {}).get(key)
    if value is None:
        value = column.book.get(section, {}).get(key)
    if value is None:
        # Not given, and not known yet (before the run): its default may be it.
        return not column.used
    return _normal(value) == _normal(wanted)


def _normal(value: object) -> str:
    text = str(value).lower()
    if value is True or text in ON_WORDS:
        return "on"
    if value is False or text in OFF_WORDS:
        return "off"
    return text


def _row(place: Place, shape: RunShape) -> int | None:
    rows = [row for row, level in enumerate(shape.concurrency) if level == place.concurrency]
    return rows[place.occurrence] if place.occurrence < len(rows) else None


def _cell(
    experiment: SeedExperiment, figure: SeedFigure, result: MatrixResult, shape: RunShape
) -> Cell | None:
    column = _column(experiment, figure.place, shape)
    row = _row(figure.place, shape)
    if column is None or row is None:
        return None
    cell = result.cell(column.label, row)
    return cell if cell is not None and cell.requests_per_s else None


def _rates(cell: Cell | None) -> list[float]:
    if cell is None:
        return []
    return [trial.load.requests_per_s for trial in cell.trials if trial.load.requests_per_s > 0]


def _comparison(
    experiment: SeedExperiment,
    figure: str,
    reference: str,
    result: MatrixResult,
    shape: RunShape,
) -> RungComparison | None:
    ours = _rates(_cell(experiment, experiment.figure(figure), result, shape))
    theirs = _rates(_cell(experiment, experiment.figure(reference), result, shape))
    if not ours or not theirs:
        return None
    return compare_rates(figure, theirs, ours)


def _experiment_table(
    experiment: SeedExperiment, result: MatrixResult, shape: RunShape, colour: bool | None
) -> str:
    header = ["seed's configuration", "here", "seed req/s", "seed ratio", "req/s", "95 %"]
    header += ["ratio", "95 %", "seed RES MiB", "RSS MiB/worker"]
    rows = [header]
    for figure in experiment.figures:
        column = _column(experiment, figure.place, shape)
        cell = _cell(experiment, figure, result, shape)
        label = column.label if column else ""
        if len(label) > LABEL_WIDTH:
            label = label[: LABEL_WIDTH - 1] + "…"
        here = f"{label} c={figure.place.concurrency}" if column else "not in this run"
        if column and figure.place.occurrence:
            here += f" ({_ordinal(figure.place.occurrence)})"
        seed_ratio = _seed_ratio(experiment, figure)
        spread = cell.spread if cell else None
        compared = None
        if figure.reference != figure.name:  # a reference against itself: 1, no interval
            compared = _comparison(experiment, figure.name, figure.reference, result, shape)
        reference = figure.reference == figure.name and cell is not None
        row = [
            figure.name,
            here,
            "—" if figure.requests_per_s is None else f"{figure.requests_per_s:,.0f}",
            _seed_ratio_text(figure, seed_ratio),
            _rate(cell),
            _interval(spread.ci_low, spread.ci_high, ",.0f") if spread and spread.n > 1 else "",
            "1" if reference else "" if compared is None else f"{compared.ratio:.2f}",
            "" if compared is None else _interval(compared.ci_low, compared.ci_high, ".2f"),
        ]
        worker = server_memory(cell) if cell else None
        row += [
            "" if figure.rss_mib is None else f"{figure.rss_mib:.0f}",
            "" if worker is None else f"{worker.rss_bytes / MIB:.1f}",
        ]
        rows.append(row)
    lines = [
        f"seed {experiment.seed} vs here: {experiment.name} ({experiment.rung} rung; ratios "
        "against the configuration each figure is compared with)",
        f"  seed: {experiment.conditions}",
        *format_table(rows, 2, colour=colour),
        "",
        "the seed's conclusions:",
    ]
    for claim in experiment.claims:
        lines.append(f"  {claim.words}")
        compared = _comparison(experiment, claim.figure, claim.reference, result, shape)
        lines.append(f"    here: {_verdict(claim, compared)}")
    return "\n".join(lines)


def _rate(cell: Cell | None) -> str:
    """The median's req/s; a cell with failed or non-2xx requests says how many."""
    if cell is None or cell.load is None:
        return ""
    errors = cell.load.errors
    return f"{cell.load.requests_per_s:,.0f}" + (f" (E {errors:,})" if errors else "")


def _ordinal(occurrence: int) -> str:
    return {1: "second", 2: "third"}.get(occurrence, f"measurement {occurrence + 1}")


def _seed_ratio(experiment: SeedExperiment, figure: SeedFigure) -> float | None:
    reference = experiment.figure(figure.reference).requests_per_s
    if figure.requests_per_s is None or not reference:
        return None
    return figure.requests_per_s / reference


def _seed_ratio_text(figure: SeedFigure, ratio: float | None) -> str:
    if ratio is None:
        return ""
    return "1" if figure.reference == figure.name else f"{ratio:.2f}"


def _interval(low: float | None, high: float | None, spec: str) -> str:
    if low is None or high is None:
        return ""
    return f"[{format(low, spec)}, {format(high, spec)}]"


def _verdict(claim: Claim, compared: RungComparison | None) -> str:
    """Whether the seed's conclusion holds here, with our ratio and its interval."""
    if compared is None:
        return "not measured in this run"
    said = f"{claim.figure} / {claim.reference} = {compared.ratio:.2f} ({compared.ratio - 1:+.0%})"
    interval = _interval(compared.ci_low, compared.ci_high, ".2f")
    if compared.ci_low is None or compared.ci_high is None:
        said += f", {compared.trials} trial, no interval"
        low = high = compared.ratio
    else:
        said += f", 95 % {interval}"
        low, high = compared.ci_low, compared.ci_high
    return f"{said}: {_holds(claim.direction, low, high)}"


def _holds(direction: Direction, low: float, high: float) -> str:
    if direction is Direction.FASTER:
        if low > 1:
            return "holds (faster)"
        if high < 1:
            return "does not hold (slower here)"
        return "not shown (the interval holds 1)"
    if low >= 1 - SAME_TOLERANCE and high <= 1 + SAME_TOLERANCE:
        return f"holds (within ±{SAME_TOLERANCE:.0%})"
    if high < 1 - SAME_TOLERANCE or low > 1 + SAME_TOLERANCE:
        return f"does not hold ({'faster' if low > 1 else 'slower'} beyond ±{SAME_TOLERANCE:.0%})"
    return f"not shown (the interval reaches beyond ±{SAME_TOLERANCE:.0%})"
