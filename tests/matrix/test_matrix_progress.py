"""The matrix's live progress: a cell that failed gets one line; its whole message (a server's
log) is printed once, in the notes under the table. A pass's line is its own trial's req/s."""

import io

from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.matrix.matrix_progress import MatrixProgress
from layerbench.matrix.matrix_result import Cell
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from tests.report_documents import load, usage

SERVER_LOG = "apache2 did not start: no answer within 20 s\n[error] AH00526: Syntax error\nline 3"


def test_a_failed_cell_is_one_line_of_progress() -> None:
    options = MatrixOptions(columns=(Column.parse("apache-static", {}),), concurrency=(1,))
    stream = io.StringIO()
    progress = MatrixProgress(options, stream)
    progress.cell_finished(Cell("apache-static", 0, 1, Status.ERROR, SERVER_LOG))
    assert stream.getvalue() == "  c=1      error: apache2 did not start: no answer within 20 s\n"


def test_each_pass_shows_its_own_trial_and_the_median_so_far() -> None:
    options = MatrixOptions(columns=(Column.parse("gunicorn", {}),), concurrency=(1,))
    stream = io.StringIO()
    progress = MatrixProgress(options, stream)
    trials: tuple[Trial, ...] = ()
    for rate in (1206.0, 1074.0, 1145.0):
        trials = (*trials, Trial(load(rate), usage({})))
        progress.cell_finished(Cell("gunicorn", 0, 1, Status.OK, trials=trials))
    assert stream.getvalue().splitlines() == [
        "  c=1      1,206 req/s",
        "  c=1      1,074 req/s (median of 2: 1,140)",
        "  c=1      1,145 req/s (median of 3: 1,145)",
    ]
