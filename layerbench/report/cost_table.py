"""What ``layerbench cost`` prints: per rung, its instructions per request (the median of the
repeats), what its layer adds over the rung above (instructions, and as a factor), the
product down from the top, and the spread of the repeats (CV %)."""

from layerbench.report.text_table import format_table
from layerbench.results.cost_result import CostResult


def cost_lines(result: CostResult) -> list[str]:
    rows = [["rung", "instr/req", "layer adds", "vs above", "vs top", "CV %", "repeats"]]
    above: float | None = None
    top: float | None = None
    for request in result.requests:
        median = request.median
        cv = request.cv_percent
        rows.append(
            [
                request.label,
                f"{median:,.0f}",
                "" if above is None else f"{median - above:+,.0f}",
                "" if above is None else _factor(median, above),
                "" if top is None else _factor(median, top),
                "" if cv is None else f"{cv:.2f}",
                str(len(request.instructions_per_request)),
            ]
        )
        above = median
        top = median if top is None else top
    lines = format_table(rows, right_from=1)
    harness = result.harness_instructions_per_request
    options = result.options
    lines.append(
        f"{options['requests']:,} requests collected per rung after {options['warmup']:,} "
        f"warm-up, {len(harness)} repeats, in-process under callgrind (hash seed "
        f"{result.conditions['hash_seed']}); the harness's own "
        f"{_median(harness):,.0f} instructions per request are taken off; "
        f"{result.elapsed_s:.0f} s"
    )
    if result.profile:
        lines.append("")
        lines.append(f"top functions of {options['profile']} (own instructions, all N requests):")
        lines.extend(result.profile.splitlines())
    return lines


def _factor(value: float, anchor: float) -> str:
    return f"{value / anchor:.2f}x" if anchor > 0 else ""


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
