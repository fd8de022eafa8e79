"""What ``layerbench cost`` prints: per rung, its instructions per request (the median of the
repeats), what its layer adds over the rung above (instructions, and as a factor: the first
of its chain counted, the ladder's rule, named in a column of its own when the rungs are not
one chain), the product down from the top, and the spread of the repeats (CV %)."""

from layerbench.cost.cost_result import CostResult, RequestCost
from layerbench.render.text_table import format_table
from layerbench.results.chain_references import ChainRow, chain_references, follows_the_rows
from layerbench.stats.median import median


def cost_lines(result: CostResult) -> list[str]:
    requests = result.requests
    chains = [ChainRow(r.label, r.chain, True, r.app) for r in requests]
    # A ladder of several chains names the rung each is against (as the ladder's --wide does).
    named = not follows_the_rows(chains)
    rows = [["rung", "instr/req", "layer adds", "vs above", "vs top", "CV %", "repeats"]]
    rows[0] += ["above"] if named else []
    top = requests[0].median if requests else None
    for index, (request, reference) in enumerate(
        zip(requests, chain_references(chains), strict=True)
    ):
        above = None if reference is None else requests[reference]
        rows.append(_row(request, above, None if index == 0 else top))
        rows[-1] += [above.label if above else ""] if named else []
    lines = format_table(rows, right_from=1)
    harness = result.harness_instructions_per_request
    options = result.options
    lines.append(
        f"{options['requests']:,} requests collected per rung after {options['warmup']:,} "
        f"warm-up, {len(harness)} repeats, in-process under callgrind (hash seed "
        f"{result.measured_under.hash_seed}); the harness's own "
        f"{median(harness) if harness else 0:,.0f} instructions per request are taken off; "
        f"{result.elapsed_s:.0f} s"
    )
    if result.profile:
        lines.append("")
        lines.append(f"top functions of {options['profile']} (own instructions, all N requests):")
        lines.extend(result.profile.splitlines())
    return lines


def _row(request: RequestCost, above: RequestCost | None, top: float | None) -> list[str]:
    median, cv = request.median, request.cv_percent
    return [
        request.label,
        f"{median:,.0f}",
        "" if above is None else f"{median - above.median:+,.0f}",
        "" if above is None else _factor(median, above.median),
        "" if top is None else _factor(median, top),
        "" if cv is None else f"{cv:.2f}",
        str(len(request.instructions_per_request)),
    ]


def _factor(value: float, anchor: float) -> str:
    return f"{value / anchor:.2f}x" if anchor > 0 else ""
