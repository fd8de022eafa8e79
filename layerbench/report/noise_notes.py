"""Under a table of things measured several times (a ladder's rungs, a matrix's cells): what
its figures are, and for each noisy one its 95 % interval and what may have disturbed it."""

from collections.abc import Sequence
from typing import Any

from layerbench.results.trials import NOISY_CV, Repeated


def noise_notes(
    measured: Sequence[tuple[str, Repeated]], conditions: dict[str, Any], noun: str
) -> list[str]:
    """``measured``: each thing's name and trials; ``noun`` names one ("rung", "cell")."""
    repeated = [(name, item, item.spread) for name, item in measured]
    repeated = [(name, item, spread) for name, item, spread in repeated if spread and spread.n > 1]
    if not repeated:
        return []
    n = max(spread.n for _, _, spread in repeated if spread)
    lines = [
        "",
        f"req/s is the median of {n} interleaved trials; CV % is their coefficient of variation; "
        f"! marks a {noun} over {100 * NOISY_CV:g} % (noisy)",
    ]
    governor = conditions.get("machine", {}).get("cpu_governor")
    for name, item, spread in repeated:
        if not item.noisy or spread is None:
            continue
        causes = item.noise_causes()
        if not causes and item.cpu_speed_spread is not None:
            causes = [
                "no busy process seen, and the CPU's speed held "
                f"({100 * item.cpu_speed_spread.cv:.1f} % CV of the probe)"
            ]
        elif not causes:
            causes = [
                "no busy process seen: the CPU's frequency"
                + (f" (governor {governor})" if governor else "")
                + "?"
            ]
        low, high = spread.ci_low, spread.ci_high
        lines.append(
            f"  {name}: noisy, 95 % interval {low:,.0f} to {high:,.0f} req/s; " + "; ".join(causes)
        )
    return lines
