"""``ladder --instructions``: beside each rung's req/s, its instructions per request from the
cost pass (the application called in-process under callgrind), with their spread; a rung the
pass did not count (nginx's static file) has none."""

from layerbench.report.text_table import format_table
from layerbench.results.ladder_result import LadderResult


def ladder_instructions_lines(result: LadderResult) -> list[str]:
    cost = result.instructions
    if cost is None:
        return []
    counted = {request.label: request for request in cost.requests}
    rows = [["rung", "req/s", "instr/req", "layer adds", "CV %"]]
    above: float | None = None
    for rung in result.rungs:
        request = counted.get(rung.rung)
        rate = f"{rung.requests_per_s:,.0f}" if rung.requests_per_s else ""
        if request is None:
            rows.append([rung.rung, rate, "", "", ""])
            continue
        median, cv = request.median, request.cv_percent
        rows.append(
            [
                rung.rung,
                rate,
                f"{median:,.0f}",
                "" if above is None else f"{median - above:+,.0f}",
                "" if cv is None else f"{cv:.2f}",
            ]
        )
        above = median
    repeats = cost.options.get("repeats")
    return [
        *format_table(rows, right_from=1),
        f"instructions per request: in-process under callgrind, {cost.options.get('requests')} "
        f"requests per rung and repeat, median of {repeats} repeats (layerbench cost)",
    ]
