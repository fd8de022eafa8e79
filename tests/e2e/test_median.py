"""One rule reduces a thing's repeated trials to the figures shown (stats/median.py): its rate
is the median of its trials' rates, of an even number the mean of the middle two (the centre
its bootstrap interval is built around, statistics.median); its latency, errors, CPU and
memory, which cannot be averaged across trials, are one trial's, the one nearest that median
(of the middle two, the slower), which the JSON names. Every table and exporter shows the same
figure: the ladder's, the matrix's, the seed tables', CSV, Markdown, HTML, JSON, and a document
read back."""

import csv
import io
import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.ladder.ladder_table import format_ladder_table
from layerbench.ladder.seed_ladder_table import format_ladder_seed_table
from layerbench.matrix.matrix_result import Cell, ColumnInfo, MatrixResult
from layerbench.matrix.matrix_table import format_matrix_table
from layerbench.matrix.seed_table import format_seed_table
from layerbench.replicate.seed_compare import rate_text
from layerbench.report.exports import to_csv, to_json, to_markdown
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.stats.median import median, representative_index
from layerbench.writes.writes_result import WritesResult, WritesRow, WritesTrial
from tests.e2e.test_ladder_seed import RATES, ladder, row_of
from tests.matrix.test_seed_table import seed_003
from tests.report_documents import CONDITIONS, load, usage

ROLES = {"server": [("gunicorn", 1.0, 20.0)], "client": [("layerbench-load", 0.4, 3.0)]}
# Two trials each, the faster first: the slower is the one shown (its p50 tells them apart).
STATIC = (12_500.0, 10_000.0)
STRING = (4_000.0, 5_000.0)


def trials(rates: tuple[float, ...]) -> tuple[Trial, ...]:
    return tuple(Trial(load(rate, p50_us=1000.0 + i), usage(ROLES)) for i, rate in enumerate(rates))


def two_repeat_ladder() -> LadderResult:
    result = LadderResult(options={"repeats": 2}, conditions=CONDITIONS, started_at="")
    result.rungs = [
        RungResult("static", "nginx", Status.OK, trials=trials(STATIC)),
        RungResult("string", "gunicorn", Status.OK, trials=trials(STRING), chain=("static",)),
    ]
    return result


def test_the_median_of_an_even_number_is_the_mean_of_the_middle_two() -> None:
    assert median([900.0, 1200.0, 1000.0, 1100.0]) == 1050.0
    assert median([1000.0, 1200.0, 900.0]) == 1000.0
    assert median([5.0]) == 5.0
    with pytest.raises(ValueError, match="no values"):
        median([])


def test_the_representative_trial_is_the_middle_one_or_the_slower_of_the_middle_two() -> None:
    assert representative_index([1000.0, 1200.0, 900.0]) == 0
    assert representative_index([1200.0, 1000.0]) == 1
    assert representative_index([1100.0, 900.0, 1200.0, 1000.0]) == 3
    # Equal rates: the one that ran first.
    assert representative_index([1000.0, 1000.0]) == 0
    with pytest.raises(ValueError, match="no values"):
        representative_index([])


def test_an_even_repeat_ladder_shows_the_median_its_interval_is_centred_on() -> None:
    result = two_repeat_ladder()
    static = result.rungs[0]
    centre = statistics.median(STATIC)  # 11,250: neither trial's own rate
    assert static.spread is not None and static.spread.median == centre
    assert static.requests_per_s == centre
    # The latency and costs are the slower trial's, whole.
    assert static.load is static.trials[1].load and static.usage is static.trials[1].usage
    assert static.latency_ms("p50") == pytest.approx(1.001)
    assert result.change_vs_above() == [None, pytest.approx(4_500 / centre - 1)]
    table = format_ladder_table(result).splitlines()
    assert "11,250" in table[2].split() and "4,500" in table[3].split(), table
    note = next(line for line in table if line.startswith("req/s is the median of 2"))
    assert "(of an even number, the mean of the middle two)" in note, note
    # The exporters: JSON (saying what each figure is), CSV, Markdown, HTML.
    document = json.loads(to_json(result))
    saved = document["rungs"][0]
    assert saved["requests_per_s"] == centre == saved["spread"]["median_requests_per_s"]
    assert saved["representative_trial"] == 1
    assert saved["latency_p50_ms"] == pytest.approx(1.001)
    assert "mean of the middle two" in document["figures"]["requests_per_s"]
    assert "nearest the median" in document["figures"]["representative_trial"]
    rows = list(csv.DictReader(io.StringIO(to_csv(result))))
    assert [float(row["requests_per_s"]) for row in rows] == [centre, 4_500.0]
    assert "| 11,250 |" in to_markdown(result)
    assert ">11,250<" in html_report(result)
    # Read back: the same figures.
    again = read_result(json.loads(json.dumps(document)))
    assert isinstance(again, LadderResult)
    assert again.rungs[0].requests_per_s == centre
    assert again.rungs[0].latency_ms("p50") == pytest.approx(1.001)
    assert again.to_dict() == document


def test_an_even_repeat_matrix_and_its_seed_table_show_the_median() -> None:
    result = MatrixResult(options={"concurrency": [10]}, conditions=CONDITIONS, started_at="")
    result.columns.append(ColumnInfo("gunicorn", "gunicorn", "string"))
    result.cells.append(Cell("gunicorn", 0, 10, Status.OK, trials=trials(STATIC)))
    cell = result.cells[0]
    assert cell.requests_per_s == 11_250.0 and cell.load is cell.trials[1].load
    assert rate_text(cell) == "11,250"
    table = format_matrix_table(result).splitlines()
    # The figures table and the costs table.
    assert sum("11,250" in line.split() for line in table) == 2, table
    assert json.loads(to_json(result))["cells"][0]["representative_trial"] == 1
    # Seed 003's table: ours beside its interval, both of the same median.
    daemon = [1_500.0, 1_400.0]
    text = format_seed_table(seed_003(daemon), "zope-paste")
    row = next(line for line in text.splitlines() if line.startswith("mod_wsgi 4 x 1 c=8"))
    assert row.split()[-7:-4] == ["1,450", "[1,400,", "1,500]"], row


def test_an_even_repeat_ladder_seed_table_shows_the_median_beside_its_interval() -> None:
    two = {name: rates[:2] for name, rates in RATES.items()}  # static: 5,000 and 5,100
    row = row_of(
        format_ladder_seed_table(ladder(two), "mod_wsgi-mysql-ladder"), "hello.txt (static)"
    )
    assert row.split()[3:8] == ["9,700", "—", "5,050", "[5,000,", "5,100]"], row


def test_writes_shows_the_slower_middle_trials_latency_and_cost() -> None:
    def trial(repeat: int, commits: int, p99: float) -> WritesTrial:
        cpu = {"client": 10.0 * repeat, "database": 20.0 * repeat}
        pss = {"client": repeat, "database": 2 * repeat}
        return WritesTrial("sqlite", 4, repeat, 0, commits, 1.0, p99 / 2, p99, 0, cpu, pss)

    measured = [trial(0, 120, 900.0), trial(1, 100, 1_500.0)]
    row = WritesRow.of(measured)
    assert row.commits_per_s.median == 110.0
    assert (row.p99_latency_us, row.pss_bytes) == (1_500.0, {"client": 1, "database": 2})
    assert row.representative_repeat == 1
    result = WritesResult(("sqlite",), (4,), 0, 100, 2, "default", trials=measured)
    document = result.to_dict()
    [saved] = document["rows"]
    assert saved["commits_per_s"] == 110.0 and saved["representative_repeat"] == 1
    assert "mean of the middle two" in document["figures"]["commits_per_s"]


@pytest.mark.usefixtures("nginx_binary")
def test_a_real_two_repeat_ladder_prints_the_median_of_its_trials(
    tmp_path: Path, load_binary: Path
) -> None:
    """nginx serving the static rung, twice, a second each."""
    completed = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "ladder", "--rungs", "static", "-d", "1",
         "--warmup", "0.3", "--repeats", "2", "--json", "out.json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    [rung] = json.loads((tmp_path / "out.json").read_text())["rungs"]
    rates = [trial["requests_per_s"] for trial in rung["repeats"]]
    centre = statistics.median(rates)
    assert rung["requests_per_s"] == centre == rung["spread"]["median_requests_per_s"]
    assert rung["spread"]["ci95_low_requests_per_s"] <= centre
    assert centre <= rung["spread"]["ci95_high_requests_per_s"]
    shown = rung["repeats"][rung["representative_trial"]]
    assert shown["requests_per_s"] == min(rates)
    assert rung["latency_p99_ms"] == shown["latency_us"]["p99"] / 1000
    row = completed.stdout.splitlines()[2].split()
    assert row[0] == "static" and f"{centre:,.0f}" in row, completed.stdout
