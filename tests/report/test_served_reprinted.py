"""``layerbench report RUN`` reprints a run's served cost (``--measure``) as the run printed it:
the table is read back from the stored document, a matrix's and a ladder's."""

import json

from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_result import MatrixResult
from layerbench.report.stored_result import read_result
from layerbench.report.terminal_tables import run_tables
from layerbench.served.served_table import format_served_table, served_document
from tests.report_documents import CONDITIONS
from tests.served.test_served_table_zero import COST

SERVED = served_document({"gunicorn": COST}, {"gunicorn": 4_985.0})


def reread(result: LadderResult | MatrixResult) -> LadderResult | MatrixResult:
    """The result as the results database gives it back: its JSON document, read."""
    return read_result(json.loads(json.dumps(result.to_dict())))


def test_a_matrix_reprints_its_served_cost() -> None:
    result = MatrixResult(
        options={"concurrency": [1], "rung": "string"},
        conditions=CONDITIONS,
        started_at="2026-01-02T03:04:05+00:00",
    )
    result.served = SERVED
    expected = format_served_table({"gunicorn": COST}, {"gunicorn": 4_985.0})
    assert "480,574" in expected
    assert expected in run_tables(reread(result))
    result.served = {}
    assert not any("480,574" in table for table in run_tables(reread(result)))


def test_a_ladder_reprints_its_served_cost() -> None:
    result = LadderResult(
        options={"rungs": ["string"], "concurrency": 1},
        conditions=CONDITIONS,
        started_at="2026-01-02T03:04:05+00:00",
    )
    result.served = SERVED
    assert any("480,574" in table for table in run_tables(reread(result)))
