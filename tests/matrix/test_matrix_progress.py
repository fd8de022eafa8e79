"""The matrix's live progress: a cell that failed gets one line; its whole message (a server's
log) is printed once, in the notes under the table."""

import io

from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.matrix.matrix_progress import MatrixProgress
from layerbench.matrix.matrix_result import Cell
from layerbench.results.status import Status

SERVER_LOG = "apache2 did not start: no answer within 20 s\n[error] AH00526: Syntax error\nline 3"


def test_a_failed_cell_is_one_line_of_progress() -> None:
    options = MatrixOptions(columns=(Column.parse("apache-static", {}),), concurrency=(1,))
    stream = io.StringIO()
    progress = MatrixProgress(options, stream)
    progress.cell_finished(Cell("apache-static", 0, 1, Status.ERROR, SERVER_LOG))
    assert stream.getvalue() == "  c=1      error: apache2 did not start: no answer within 20 s\n"
