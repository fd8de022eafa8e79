"""``ladder --instructions``: beside each rung's req/s, its instructions per request from the
cost pass (the application called in-process under callgrind), with their spread, and what its
layer adds over the first of its chain counted (the ladder's rule); a rung the pass did not
count (nginx's static file) has none."""

from layerbench.ladder.ladder_result import LadderResult
from layerbench.render.text_table import format_table
from layerbench.results.chain_references import ChainRow, chain_references


def ladder_instructions_lines(result: LadderResult) -> list[str]:
    cost = result.instructions
    if cost is None:
        return []
    counted = {request.label: request for request in cost.requests}
    chains = [ChainRow(r.rung, r.chain, r.rung in counted, r.app) for r in result.rungs]
    rows = [["rung", "req/s", "instr/req", "layer adds", "CV %"]]
    for rung, reference in zip(result.rungs, chain_references(chains), strict=True):
        request = counted.get(rung.rung)
        rate = f"{rung.requests_per_s:,.0f}" if rung.requests_per_s else ""
        if request is None:
            rows.append([rung.rung, rate, "", "", ""])
            continue
        above = None if reference is None else counted[result.rungs[reference].rung]
        median, cv = request.median, request.cv_percent
        rows.append(
            [
                rung.rung,
                rate,
                f"{median:,.0f}",
                "" if above is None else f"{median - above.median:+,.0f}",
                "" if cv is None else f"{cv:.2f}",
            ]
        )
    asked = cost.asked
    return [
        *format_table(rows, right_from=1),
        f"instructions per request: in-process under callgrind, {asked.requests} "
        f"requests per rung and repeat, median of {asked.repeats} repeats (layerbench cost)",
    ]
