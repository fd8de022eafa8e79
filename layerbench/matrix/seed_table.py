"""Published vs here: a matrix run beside a published experiment's figures
(:mod:`layerbench.replicate.published`).
Per configuration the post measured, its req/s and its ratio to the experiment's
reference, ours (the median of the cell's trials, with its bootstrap 95 % interval) and our
ratio with its interval from the pairs of trials measured in the same pass
(:func:`layerbench.stats.comparison.compare_paired`); then each of the post's conclusions, and
whether it holds here, in direction and size: the absolute figures come from other hardware,
the ratios are what can be compared."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from layerbench.errors import ConfigError
from layerbench.matrix.matrix_result import Cell, MatrixResult
from layerbench.render.text_table import format_table, setup_lines
from layerbench.render.worker_memory import MIB, server_memory
from layerbench.replicate.count_claims import (
    FIRST,
    SECOND,
    SERVED,
    SETTLED,
    SideCounts,
    side_counts,
)
from layerbench.replicate.counted_table import (
    CountedFigure,
    counted_claim_lines,
    counted_claims,
    counted_figure_table,
)
from layerbench.replicate.published import MATRIX, named_of_kind
from layerbench.replicate.seed_compare import (
    claimed_ratio,
    compare_items,
    conclusion_lines,
    interval_text,
    judged_claim,
    rate_interval_text,
    rate_text,
    runs_with,
    verdict,
)
from layerbench.replicate.seed_figures import Claim, Place, SeedExperiment, SeedFigure
from layerbench.stats.claim_verdict import ClaimVerdict
from layerbench.stats.comparison import RungComparison

# A column's label (its settings) at most this long, shortened with … (the matrix's own table
# above names it whole); its level and which measurement of it follow.
LABEL_WIDTH = 44


@dataclass(frozen=True)
class RunColumn:
    """A matrix column as a post's figures are looked for in it: ``book`` the settings it
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
    asked = result.asked
    books = {column.label: column.book or {} for column in asked.columns or () if column.label}
    return RunShape(
        tuple(
            RunColumn(c.label, c.server, c.app, c.rung, books.get(c.label, {}), c.settings)
            for c in result.columns
        ),
        asked.concurrency or (),
    )


def check_seed(names: str, shape: RunShape) -> list[SeedExperiment]:
    """Of the published experiments ``names`` names (comma-separated), those the run holds; a
    ConfigError naming what a run of each needs when it holds none (or a name is not one of
    them, or is a ladder's)."""
    experiments = [p.experiment for p in named_of_kind(names, MATRIX)]
    held = [e for e in experiments if isinstance(e, SeedExperiment) and not _missing(e, shape)]
    if held:
        return held
    needs = "; ".join(
        f"{e.name} lacks {_missing(e, shape)} (run: layerbench replicate {e.name})"
        for e in experiments
        if isinstance(e, SeedExperiment)
    )
    raise ConfigError(f"this matrix holds none of {names}: {needs}")


def format_seed_table(result: MatrixResult, names: str, *, colour: bool | None = None) -> str:
    """The run beside each published experiment of ``names`` it holds."""
    shape = shape_of(result)
    parts = []
    for experiment in check_seed(names, shape):
        parts.append(_experiment_table(experiment, result, shape, colour))
    return "\n\n".join(parts)


def matrix_claim_verdicts(
    result: MatrixResult, names: str, confidence: float
) -> list[ClaimVerdict | None]:
    """Each conclusion of the published experiments ``names`` names that the run holds,
    judged at ``confidence`` (None: not measured in this run): what ``--until-decided`` waits
    for."""
    shape = shape_of(result)
    verdicts = []
    for experiment in check_seed(names, shape):
        for claim in experiment.claims:
            compared = _comparison(
                experiment, claim.figure, claim.reference, result, shape, confidence=confidence
            )
            claimed = claimed_ratio(
                experiment.figure(claim.figure).requests_per_s,
                experiment.figure(claim.reference).requests_per_s,
            )
            verdicts.append(judged_claim(claim, compared, claimed))
    return verdicts


def _missing(experiment: SeedExperiment, shape: RunShape) -> str:
    """The first figure of the post's that the run has no place for; empty when none."""
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
        rung = place.rung or experiment.rung
        if (column.server, column.app, column.rung) != (place.server, place.app, rung):
            continue
        if all(runs_with(column.book, column.used, setting) for setting in place.settings):
            return column
    return None


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


def _comparison(
    experiment: SeedExperiment,
    figure: str,
    reference: str,
    result: MatrixResult,
    shape: RunShape,
    *,
    confidence: float,
) -> RungComparison | None:
    return compare_items(
        figure,
        _cell(experiment, experiment.figure(reference), result, shape),
        _cell(experiment, experiment.figure(figure), result, shape),
        confidence,
    )


def _experiment_table(
    experiment: SeedExperiment, result: MatrixResult, shape: RunShape, colour: bool | None
) -> str:
    header = ["post's configuration", "here", "post req/s", "post ratio", "req/s", "95 %"]
    header += ["ratio", "95 %", "post RES MiB", "RSS MiB/worker"]
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
        compared = None
        if figure.reference != figure.name:  # a reference against itself: 1, no interval
            compared = _comparison(
                experiment,
                figure.name,
                figure.reference,
                result,
                shape,
                confidence=result.confidence,
            )
        reference = figure.reference == figure.name and cell is not None
        row = [
            figure.name,
            here,
            "—" if figure.requests_per_s is None else f"{figure.requests_per_s:,.0f}",
            _seed_ratio_text(figure, seed_ratio),
            rate_text(cell),
            rate_interval_text(cell),
            "1" if reference else "" if compared is None else f"{compared.ratio:.2f}",
            "" if compared is None else interval_text(compared.ci_low, compared.ci_high, ".2f"),
        ]
        worker = server_memory(cell) if cell else None
        row += [
            "" if figure.rss_mib is None else f"{figure.rss_mib:.0f}",
            "" if worker is None else f"{worker.rss_bytes / MIB:.1f}",
        ]
        rows.append(row)
    lines = [
        f"published vs here: {experiment.name} ({experiment.rung} rung; ratios against the "
        "configuration each figure is compared with)",
        *setup_lines(experiment.conditions),
        *format_table(rows, 2, colour=colour),
        "",
    ]
    claims = [
        (
            claim,
            _comparison(
                experiment,
                claim.figure,
                claim.reference,
                result,
                shape,
                confidence=result.confidence,
            ),
        )
        for claim in experiment.claims
    ]
    if experiment.counted and result.served:
        return "\n".join(lines + _counted_lines(experiment, result, shape, claims, colour))
    return "\n".join(
        lines + conclusion_lines(claims, lambda name: experiment.figure(name).requests_per_s)
    )


def _counted_lines(
    experiment: SeedExperiment,
    result: MatrixResult,
    shape: RunShape,
    claims: list[tuple[Claim, RungComparison | None]],
    colour: bool | None,
) -> list[str]:
    """A claim about what a request costs, in a run that counted it: each figure's counts,
    then each claim judged in req/s and in served instructions (layerbench/replicate/)."""
    first = experiment.first_requests
    second = experiment.second_run
    # The concurrencies the run sent its first requests at (1 in runs stored before it had
    # one) and settled its second runs at.
    counted_first = (result.served or {}).get("first_requests", {})
    first_at = counted_first.get("concurrency", 1)
    seconds = (
        count.get("second_run", {}).get("concurrency")
        for counts in counted_first.get("counts", {}).values()
        for count in counts
    )
    second = next((each for each in seconds if each is not None), second)

    def which(figure: SeedFigure) -> str | None:
        """What a figure is counted by; None for a second run after a first the experiment
        does not count (layerbench/replicate/served_counts.py)."""
        if experiment.settled is not None:
            return SETTLED
        if first is None:
            return SERVED
        if figure.place.occurrence == 0:
            return FIRST
        return SECOND if second is not None else None

    def what(figure: SeedFigure) -> str:
        counted_by = which(figure)
        if counted_by is None:
            return "a second run: not counted"
        if counted_by == SECOND:
            return f"{first:,} once settled at c={second}"
        if counted_by == SETTLED:
            return f"500 once settled at c={experiment.settled}"
        return (
            "served, after a warm-up"
            if counted_by == SERVED
            else f"first {first:,} at c={first_at} after a start"
        )

    def side(name: str) -> SideCounts | None:
        figure = experiment.figure(name)
        column = _column(experiment, figure.place, shape)
        counted_by = which(figure)
        if column is None or counted_by is None:
            return None
        return side_counts(result.served, column.label, counted_by)

    figures = [CountedFigure(f.name, what(f), side(f.name)) for f in experiment.figures]
    claimed = [
        claimed_ratio(
            experiment.figure(claim.figure).requests_per_s,
            experiment.figure(claim.reference).requests_per_s,
        )
        for claim, _ in claims
    ]
    rates = [
        (verdict(claim, compared, size), judged_claim(claim, compared, size))
        for (claim, compared), size in zip(claims, claimed, strict=True)
    ]
    sized = [(claim, size) for (claim, _), size in zip(claims, claimed, strict=True)]
    counted = counted_claims(sized, side)
    return [
        *counted_figure_table(figures, colour),
        "",
        *counted_claim_lines([claim for claim, _ in claims], rates, counted),
    ]


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
