"""``matrix --profile``: each profiled cell's layers as a text table
(:mod:`layerbench.profile.layer_text`), printed after the matrix's, in the matrix's order."""

from layerbench.matrix.matrix_result import Cell, MatrixResult
from layerbench.profile.layer_text import layer_table


def cell_label(cell: Cell) -> str:
    return f"{cell.column} c={cell.concurrency}"


def cell_profile_tables(result: MatrixResult) -> list[str]:
    return [
        "\n".join(layer_table(cell_label(cell), cell.profile))
        for cell in result.cells
        if cell.profile is not None
    ]
