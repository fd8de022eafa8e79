"""The matrix's columns compared, for the terminal: each cell's req/s against the first
column's at the same level, paired pass by pass
(:meth:`~layerbench.matrix.matrix_result.MatrixResult.compared_vs_first`), one row each with
its ratio and verdict (faster/slower by X % [interval], the same within ±5 %, inconclusive)."""

from layerbench.matrix.matrix_result import MatrixResult
from layerbench.render.text_table import format_table
from layerbench.stats.verdict import SAME_WITHIN, percent


def column_verdict_lines(result: MatrixResult, *, colour: bool | None = None) -> list[str]:
    """A title and a row per compared cell; none with a single column, or one pass (no
    interval to judge by)."""
    first = result.first_column
    rows = [["server", "c", "ratio", "verdict"]]
    for cell, compared in zip(result.cells, result.compared_vs_first(), strict=True):
        if compared is None or compared.trials < 2:
            continue
        rows.append([cell.column, str(cell.concurrency), f"{compared.ratio:.3f}", compared.verdict])
    if len(rows) == 1:
        return []
    title = (
        f"against {first}, paired pass by pass ({100 * result.confidence:.2f} % intervals; "
        f"the same: within ±{percent(SAME_WITHIN, sign=False)}):"
    )
    return [title, *format_table(rows, 1, left=(3,), colour=colour)]
