"""Under a table of things measured several times (a ladder's rungs, a matrix's cells): what
its figures are, and for each noisy one its 95 % interval and what may have disturbed it (the
judgement is :mod:`layerbench.stats.noise`'s; the sentences are these)."""

from collections.abc import Sequence

from layerbench.results.measured_under import MeasuredUnder
from layerbench.results.trials import Repeated
from layerbench.stats.noise import NOISY_CV, NoiseDiagnosis


def noise_causes(diagnosis: NoiseDiagnosis) -> list[str]:
    """Each cause seen, as a sentence."""
    causes = []
    if diagnosis.client_busiest_thread_fraction is not None:
        busiest = 100 * diagnosis.client_busiest_thread_fraction
        causes.append(
            f"the client was the bottleneck (its busiest thread up to {busiest:.0f} % busy)"
        )
    if diagnosis.other_cpu_percent is not None:
        causes.append(
            f"other processes were busy (up to {diagnosis.other_cpu_percent:.0f} % of a core)"
        )
    if diagnosis.steal_percent is not None:
        causes.append(
            f"the hypervisor took CPU time away (steal up to {diagnosis.steal_percent:.0f} %)"
        )
    change = diagnosis.speed_change
    if change is not None:
        probe = f"{100 * change.probe_cv:.1f} % CV of a probe loop before each trial"
        if change.in_step:
            causes.append(
                f"the CPU's speed varied with it ({probe}; req/s scaled by it vary by only "
                f"{100 * change.scaled_cv:.1f} %)"
            )
        else:
            causes.append(
                f"the CPU's speed varied ({probe}), though not in step with req/s (scaled "
                f"by it they vary by {100 * change.scaled_cv:.1f} %): it changes faster than a "
                "trial"
            )
    return causes


def noise_notes(
    measured: Sequence[tuple[str, Repeated]], conditions: MeasuredUnder, noun: str
) -> list[str]:
    """``measured``: each thing's name and trials; ``noun`` names one ("rung", "cell");
    ``conditions``: what the run recorded (the CPU's frequency governor)."""
    repeated = [(name, item, item.spread) for name, item in measured]
    repeated = [(name, item, spread) for name, item, spread in repeated if spread and spread.n > 1]
    if not repeated:
        return []
    n = max(spread.n for _, _, spread in repeated if spread)
    lines = [
        "",
        f"req/s is the median of {n} interleaved trials (of an even number, the mean of the "
        "middle two); the other figures are those of the trial nearest it; CV % is their "
        f"coefficient of variation; ! marks a {noun} over {100 * NOISY_CV:g} % (noisy)",
    ]
    governor = conditions.machine.cpu_governor if conditions.machine else None
    for name, item, spread in repeated:
        if not item.noisy or spread is None:
            continue
        diagnosis = item.diagnosis()
        causes = noise_causes(diagnosis)
        if not causes and diagnosis.probe_cv is not None:
            causes = [
                "no busy process seen, and the CPU's speed held "
                f"({100 * diagnosis.probe_cv:.1f} % CV of the probe)"
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
