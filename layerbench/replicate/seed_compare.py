"""What every "seed vs here" table does alike, a matrix's (:mod:`layerbench.matrix.seed_table`)
and a ladder's (:mod:`layerbench.ladder.seed_ladder_table`): whether a run ran with a setting
the seed's configuration needs, our figures of a thing measured in repeats (its req/s, its
ratio to another's of the same run, paired pass by pass), and whether each of the seed's
conclusions holds here, judged on its direction and its size."""

from collections.abc import Callable, Mapping
from typing import Any

from layerbench.render.text_table import labelled
from layerbench.replicate.seed_figures import SAME_TOLERANCE, Claim, Direction
from layerbench.results.trials import Repeated
from layerbench.stats.claim_verdict import ClaimOutcome, ClaimVerdict, judge_claim
from layerbench.stats.comparison import RungComparison, compare_paired
from layerbench.stats.paired import CONFIDENCE

# How an on/off setting may be written (as servers/server_settings.py reads it).
ON_WORDS = frozenset({"1", "true", "yes", "on"})
OFF_WORDS = frozenset({"0", "false", "no", "off"})

Book = Mapping[str, Mapping[str, Any]]


def runs_with(book: Book, used: Book, setting: str) -> bool:
    """Whether a run given ``book`` (SECTION → KEY → VALUE) that ran with ``used`` (its
    settings with their defaults; empty before the run) has ``setting``, SECTION.KEY=VALUE."""
    name, _, wanted = setting.partition("=")
    section, _, key = name.rpartition(".")
    value = used.get(section, {}).get(key)
    if value is None:
        value = book.get(section, {}).get(key)
    if value is None:
        # Not given, and not known yet (before the run): its default may be it.
        return not used
    return _normal(value) == _normal(wanted)


def _normal(value: object) -> str:
    text = str(value).lower()
    if value is True or text in ON_WORDS:
        return "on"
    if value is False or text in OFF_WORDS:
        return "off"
    return text


def trial_rates(item: Repeated | None) -> list[float]:
    """Each trial's req/s, in the order of the passes (0 for one that did not answer)."""
    if item is None:
        return []
    return [trial.load.requests_per_s for trial in item.trials]


def compare_items(
    name: str,
    reference: Repeated | None,
    item: Repeated | None,
    confidence: float = CONFIDENCE,
) -> RungComparison | None:
    """``item``'s req/s against ``reference``'s, both of one run whose passes interleave them:
    paired pass by pass (:func:`~layerbench.stats.comparison.compare_paired`, the machine's
    drift between passes cancels), the interval at ``confidence`` (the run's: less than 95 %
    after --until-decided's looks). None when no pass measured both."""
    return compare_paired(name, trial_rates(reference), trial_rates(item), confidence=confidence)


def rate_text(item: Repeated | None) -> str:
    """The median of its trials' req/s; one whose representative trial had failed or non-2xx
    requests says how many."""
    if item is None or item.load is None:
        return ""
    errors = item.load.errors
    return f"{item.requests_per_s or 0:,.0f}" + (f" (E {errors:,})" if errors else "")


def rate_interval_text(item: Repeated | None) -> str:
    """The bootstrap 95 % interval of its req/s; empty for one trial."""
    spread = item.spread if item else None
    if spread is None or spread.n < 2:
        return ""
    return interval_text(spread.ci_low, spread.ci_high, ",.0f")


def interval_text(low: float | None, high: float | None, spec: str) -> str:
    if low is None or high is None:
        return ""
    return f"[{format(low, spec)}, {format(high, spec)}]"


def conclusion_lines(
    claims: list[tuple[Claim, RungComparison | None]],
    published_rate: Callable[[str], float | None] | None = None,
) -> list[str]:
    """Each conclusion in the seed's words, then whether it holds here, its size (the ratio of
    the post's figures, ``published_rate`` of a figure's name) beside ours."""
    lines = ["the post's conclusions:"]
    for claim, compared in claims:
        claimed = None
        if published_rate is not None:
            claimed = claimed_ratio(published_rate(claim.figure), published_rate(claim.reference))
        lines += labelled("  ", claim.words, "    ")
        lines += labelled("    here: ", verdict(claim, compared, claimed))
    return lines


def claimed_ratio(figure_rate: float | None, reference_rate: float | None) -> float | None:
    """The size a claim's figures give it (figure over reference), None without both."""
    if not figure_rate or not reference_rate:
        return None
    return figure_rate / reference_rate


def judged_claim(
    claim: Claim, compared: RungComparison | None, claimed: float | None
) -> ClaimVerdict | None:
    """The claim judged on our comparison (None: not measured in this run)."""
    if compared is None:
        return None
    return judge_claim(
        claimed,
        claim.direction is Direction.SAME,
        compared.ratio,
        compared.ci_low,
        compared.ci_high,
        same_within=SAME_TOLERANCE,
    )


def verdict(claim: Claim, compared: RungComparison | None, claimed: float | None = None) -> str:
    """Whether the seed's conclusion holds here, judged on its direction and its size
    (:func:`~layerbench.stats.claim_verdict.judge_claim`), with the claimed size beside our
    ratio and its interval (of the pairs, :mod:`layerbench.stats.paired`)."""
    judged = judged_claim(claim, compared, claimed)
    if compared is None or judged is None:
        return "not measured in this run"
    said = f"{claim.figure} / {claim.reference} = {compared.ratio:.2f}, {judged.text()}"
    more = compared.judged.more_passes
    if judged.outcome is ClaimOutcome.INCONCLUSIVE and more:
        said += f"; about {more} more {'pass' if more == 1 else 'passes'} would likely decide"
    return said
