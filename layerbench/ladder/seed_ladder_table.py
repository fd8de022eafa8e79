"""Published vs here for a ladder (``layerbench replicate mod_wsgi-mysql-ladder``): per figure
of the post's ladder (:mod:`layerbench.replicate.published`), the post's req/s and its change
against the figure above it in its chain, ours (the rung's median over the repeats, with its
bootstrap 95 % interval) and our change against the same rung with its paired interval, the
CPU the post saw beside our server's CPU per request; then each of the post's conclusions and
whether it holds here (:mod:`layerbench.replicate.seed_compare`, the matrix's tables' verdicts).
The absolute figures come from other hardware; the changes are what can be compared."""

from dataclasses import dataclass

from layerbench.errors import ConfigError
from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.render.text_table import format_table, labelled, setup_lines
from layerbench.replicate.published import LADDER, named_of_kind
from layerbench.replicate.seed_compare import (
    Book,
    claimed_ratio,
    compare_items,
    conclusion_lines,
    interval_text,
    judged_claim,
    rate_interval_text,
    rate_text,
    runs_with,
)
from layerbench.replicate.seed_ladder_figures import LadderExperiment, LadderFigure, RungPlace
from layerbench.roles import SERVER_ROLE
from layerbench.stats.claim_verdict import ClaimVerdict
from layerbench.stats.comparison import RungComparison

# The value of a setting left as it is.
DEFAULT_VALUE = "default"


@dataclass(frozen=True)
class LadderShape:
    """A ladder as a post's figures are looked for in it: before the run (its options) or
    after (its result)."""

    server: str
    apps: tuple[str, ...]
    full: bool
    # The settings it was given (SECTION → KEY → VALUE).
    book: Book
    rungs: tuple[str, ...]
    concurrency: int


def shape_of(result: LadderResult) -> LadderShape:
    asked = result.asked
    return LadderShape(
        asked.server or "",
        asked.apps or tuple(dict.fromkeys(rung.app for rung in result.rungs)),
        bool(asked.full),
        asked.settings or {},
        tuple(dict.fromkeys(rung.rung for rung in result.rungs)),
        asked.concurrency or 0,
    )


def check_ladder_seed(names: str, shape: LadderShape) -> list[LadderExperiment]:
    """Of the published experiments ``names`` names (comma-separated), those the ladder holds
    rungs of (those it holds most of); a ConfigError naming what each needs when it holds none
    (or a name is not one of them, or is a matrix's)."""
    experiments = [
        p.experiment
        for p in named_of_kind(names, LADDER)
        if isinstance(p.experiment, LadderExperiment)
    ]
    places = {e.name: {f.place for f in e.figures if _held(f.place, shape)} for e in experiments}
    # An experiment whose rungs here another's hold too, and fewer (the Rails string of the
    # SQLite ladder on the MariaDB one), is that other's.
    held = [
        e
        for e in experiments
        if places[e.name] and not any(places[e.name] < others for others in places.values())
    ]
    if held:
        return held
    needs = "; ".join(
        f"{e.name} needs {_needs(e, shape)} (run: layerbench replicate {e.name})"
        for e in experiments
    )
    raise ConfigError(f"this ladder holds none of {names}'s rungs: {needs}")


def format_ladder_seed_table(
    result: LadderResult, names: str, *, colour: bool | None = None
) -> str:
    shape = shape_of(result)
    return "\n\n".join(
        _experiment_table(experiment, result, shape, colour)
        for experiment in check_ladder_seed(names, shape)
    )


def ladder_claim_verdicts(
    result: LadderResult, names: str, confidence: float
) -> list[ClaimVerdict | None]:
    """Each conclusion of the published experiments ``names`` names that the ladder holds,
    judged at ``confidence`` (None: not measured in this run): what ``--until-decided`` waits
    for."""
    shape = shape_of(result)
    verdicts = []
    for experiment in check_ladder_seed(names, shape):
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


def _held(place: RungPlace, shape: LadderShape) -> bool:
    return (
        place.server == shape.server
        and place.app in shape.apps
        and place.rung in shape.rungs
        and place.full in (None, shape.full)
        and all(_runs_with(shape.book, setting) for setting in place.settings)
    )


def _runs_with(book: Book, setting: str) -> bool:
    """Given, the setting's value decides; not given, only the value "default" is it (a
    ladder's own settings, site.database: their default is known before the run)."""
    name, _, wanted = setting.partition("=")
    section, _, key = name.rpartition(".")
    if book.get(section, {}).get(key) is None:
        return wanted == DEFAULT_VALUE
    return runs_with(book, book, setting)


def _needs(experiment: LadderExperiment, shape: LadderShape) -> str:
    """What the ladder lacks for each of the experiment's figures (the first thing each)."""
    return " and ".join(dict.fromkeys(_lacks(figure.place, shape) for figure in experiment.figures))


def _lacks(place: RungPlace, shape: LadderShape) -> str:
    if place.server != shape.server:
        return f"--server {place.server}"
    if place.app not in shape.apps:
        return f"--app {place.app}"
    if place.full not in (None, shape.full):
        return "--full" if place.full else "a ladder without --full"
    unset = [s for s in place.settings if not _runs_with(shape.book, s)]
    if unset:
        return " ".join(f"--set {setting}" for setting in unset)
    return f"the {place.rung} rung"


def _rung(figure: LadderFigure, result: LadderResult, shape: LadderShape) -> RungResult | None:
    if not _held(figure.place, shape):
        return None
    return next(
        (
            rung
            for rung in result.rungs
            if (rung.rung, rung.app) == (figure.place.rung, figure.place.app)
        ),
        None,
    )


def _comparison(
    experiment: LadderExperiment,
    figure: str,
    reference: str,
    result: LadderResult,
    shape: LadderShape,
    *,
    confidence: float,
) -> RungComparison | None:
    return compare_items(
        figure,
        _rung(experiment.figure(reference), result, shape),
        _rung(experiment.figure(figure), result, shape),
        confidence,
    )


def _experiment_table(
    experiment: LadderExperiment, result: LadderResult, shape: LadderShape, colour: bool | None
) -> str:
    header = ["post's measurement", "here", "above", "post req/s", "post vs above", "req/s"]
    header += ["95 %", "vs above", "95 %", "post CPU", "server CPU ms/req"]
    rows = [header]
    for figure in experiment.figures:
        rung = _rung(figure, result, shape)
        reference = experiment.figure(figure.reference)
        top = figure.reference == figure.name
        compared = None
        if not top:
            compared = _comparison(
                experiment,
                figure.name,
                figure.reference,
                result,
                shape,
                confidence=result.confidence,
            )
        seed_change = figure.requests_per_s / reference.requests_per_s - 1
        if figure.stated_hit is not None:
            seed_change = -figure.stated_hit
        rows.append(
            [
                figure.name,
                _here(figure, rung),
                "" if top else reference.place.rung,
                f"{figure.requests_per_s:,.0f}",
                "—" if top else f"{seed_change:+.0%}",
                rate_text(rung),
                rate_interval_text(rung),
                "—" if top and rung else "" if compared is None else f"{compared.ratio - 1:+.0%}",
                "" if compared is None else _change_interval(compared),
                figure.cpu_seen,
                _server_cpu(rung),
            ]
        )
    here = f"c={shape.concurrency} under {shape.server}" + (" (--full)" if shape.full else "")
    if shape.concurrency != experiment.concurrency:
        here += f"; the post's c={experiment.concurrency}"
    lines = [
        f"published vs here: {experiment.name} (each against the figure above it in the post's "
        "chain)",
        *setup_lines(experiment.conditions),
        f"  here: {here}",
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
    lines += conclusion_lines(claims, lambda name: experiment.figure(name).requests_per_s)
    for unshown in experiment.unshown:
        lines += labelled("  ", unshown.words, "    ")
        lines += labelled("    here: ", f"not shown ({unshown.why})")
    return "\n".join(lines)


def _here(figure: LadderFigure, rung: RungResult | None) -> str:
    if rung is None:
        return "not in this run"
    if rung.requests_per_s is None:
        return f"{rung.rung} ({rung.status.value})"
    return rung.rung


def _change_interval(compared: RungComparison) -> str:
    if compared.ci_low is None or compared.ci_high is None:
        return ""
    return interval_text(compared.ci_low - 1, compared.ci_high - 1, "+.0%")


def _server_cpu(rung: RungResult | None) -> str:
    """The server's CPU per request in its representative trial, in ms."""
    usage, load = (rung.usage, rung.load) if rung else (None, None)
    role = usage.roles.get(SERVER_ROLE) if usage else None
    per_1000 = role.cpu_s_per_1000(load.requests_completed) if role and load else None
    return "" if per_1000 is None else f"{per_1000:.3f}"
