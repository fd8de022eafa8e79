"""What every "seed vs here" table does alike, a matrix's (:mod:`layerbench.report.seed_table`)
and a ladder's (:mod:`layerbench.report.seed_ladder_table`): whether a run ran with a setting
the seed's configuration needs, our figures of a thing measured in repeats (its req/s, its
ratio to another's with the bootstrap interval), and whether each of the seed's conclusions
holds here."""

from collections.abc import Mapping
from typing import Any

from layerbench.report.seed_figures import SAME_TOLERANCE, Claim, Direction
from layerbench.results.trials import Repeated
from layerbench.stats.comparison import RungComparison, compare_rates

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
    """Each trial's req/s (those that answered)."""
    if item is None:
        return []
    return [trial.load.requests_per_s for trial in item.trials if trial.load.requests_per_s > 0]


def compare_items(
    name: str, reference: Repeated | None, item: Repeated | None
) -> RungComparison | None:
    """``item``'s req/s against ``reference``'s, the bootstrap interval over both's trials."""
    ours, theirs = trial_rates(item), trial_rates(reference)
    if not ours or not theirs:
        return None
    return compare_rates(name, theirs, ours)


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


def conclusion_lines(claims: list[tuple[Claim, RungComparison | None]]) -> list[str]:
    """Each conclusion in the seed's words, then whether it holds here."""
    lines = ["the seed's conclusions:"]
    for claim, compared in claims:
        lines.append(f"  {claim.words}")
        lines.append(f"    here: {verdict(claim, compared)}")
    return lines


def verdict(claim: Claim, compared: RungComparison | None) -> str:
    """Whether the seed's conclusion holds here, with our ratio and its interval."""
    if compared is None:
        return "not measured in this run"
    said = f"{claim.figure} / {claim.reference} = {compared.ratio:.2f} ({compared.ratio - 1:+.0%})"
    interval = interval_text(compared.ci_low, compared.ci_high, ".2f")
    if compared.ci_low is None or compared.ci_high is None:
        said += f", {compared.trials} trial, no interval"
        low = high = compared.ratio
    else:
        said += f", 95 % {interval}"
        low, high = compared.ci_low, compared.ci_high
    return f"{said}: {holds(claim.direction, low, high)}"


def holds(direction: Direction, low: float, high: float) -> str:
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
