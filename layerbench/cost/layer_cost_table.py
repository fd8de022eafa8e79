"""What ``layerbench cost --by-layer`` prints after its table: per rung, the instructions per
request of each layer (the median of the repeats, the harness's own taken off layer by layer),
its share of the rung's, and the spread of the repeats (CV %). Layers here are shared objects
and the distributions they belong to (:mod:`layerbench.profile.callgrind_objects`): Python
code is the interpreter's (``CPython``), which callgrind cannot tell apart by function on
Python 3.11."""

import statistics

from layerbench.cost.cost_result import CostResult
from layerbench.render.text_table import format_table
from layerbench.stats.median import median


def layer_cost_lines(result: CostResult) -> list[str]:
    lines: list[str] = []
    for request in result.requests:
        repeats = result.by_layer.get(request.label)
        if not repeats:
            continue
        layers = sorted(
            {layer for repeat in repeats for layer in repeat},
            key=lambda layer: -median([repeat.get(layer, 0.0) for repeat in repeats]),
        )
        total = median([sum(repeat.values()) for repeat in repeats])
        rows = [["layer", "instr/req", "share %", "CV %"]]
        for layer in layers:
            values = [repeat.get(layer, 0.0) for repeat in repeats]
            if not any(values):  # an object the harness used as much: nothing of its own
                continue
            middle = median(values)
            rows.append(
                [
                    layer,
                    f"{middle:,.0f}",
                    f"{100 * middle / total:.1f}" if total else "—",
                    _cv(values),
                ]
            )
        lines.append(f"{request.label}: instructions per request by layer (shared object)")
        lines += [f"  {line}" for line in format_table(rows, right_from=1)]
    return lines


def _cv(values: list[float]) -> str:
    if len(values) < 2:
        return "—"
    mean = statistics.fmean(values)
    return f"{100 * statistics.stdev(values) / abs(mean):.2f}" if mean else "—"
