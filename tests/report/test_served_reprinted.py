"""``layerbench report RUN`` reprints a run's served cost (``--measure``) as the run printed it:
the table is read back from the stored document, a matrix's and a ladder's."""

import json

from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_result import MatrixResult
from layerbench.report.exports import to_markdown
from layerbench.report.html_report import html_report
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


def test_the_markdown_and_html_reports_carry_the_served_cost() -> None:
    result = MatrixResult(
        options={"concurrency": [1], "rung": "string"},
        conditions=CONDITIONS,
        started_at="2026-01-02T03:04:05+00:00",
    )
    result.served = served_document(
        {"gunicorn": COST, "passenger": "not counted: why"}, {"gunicorn": 4_985.0}
    )
    stored = reread(result)
    markdown = to_markdown(stored)
    assert "Served cost per request: windows of 200 and 600 requests" in markdown
    assert "| gunicorn | server | 1 | 0 | ±130 | 52,000 | 0.0 | 0 ± 0.05 per request;" in markdown
    assert "|  | application | 2 | 480,574 | ±1,900 | 3,000 | 4.0 |" in markdown
    assert "|  | in-process |  | 4,985 |" in markdown
    assert "| passenger | - |  |  |  |  |  | not counted: why |" in markdown
    page = html_report(stored)
    assert "<h2>Served cost per request</h2>" in page
    assert '<td>application</td><td class="n">2</td><td class="n">480,574</td>' in page
    result.served = {}
    assert "Served cost" not in to_markdown(reread(result))
    assert "Served cost" not in html_report(reread(result))
