"""``ladder --instructions``: the cost pass's counts kept in the ladder's document and read
back, shown beside req/s in the terminal and as a chart in the HTML report; refused before the
ladder runs where the pass cannot be made. The pass itself is tests/e2e/test_cost.py's."""

import io
import json
import signal
import subprocess
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from layerbench.cli.main import run
from layerbench.cost.cost_result import CostResult, RequestCost
from layerbench.ladder.ladder_instructions import ladder_instructions_lines
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from tests.cli_lines import said
from tests.report_documents import full_ladder


def counted() -> CostResult:
    return CostResult(
        options={"requests": 100, "repeats": 3},
        conditions={"hash_seed": "0"},
        requests=[
            RequestCost("string", [4975.0, 4976.0, 4975.0]),
            RequestCost("orm", [672866.0, 672995.0, 673203.0]),
        ],
        harness_instructions_per_request=[6928.0, 6928.0, 6930.0],
        elapsed_s=30.0,
    )


def test_the_counts_are_kept_and_read_back() -> None:
    result = full_ladder()
    result.instructions = counted()
    again = read_result(json.loads(json.dumps(result.to_dict())))
    assert again.instructions is not None
    assert again.instructions.to_dict() == result.instructions.to_dict()
    assert [request.median for request in again.instructions.requests] == [4975.0, 672995.0]


def test_beside_req_s_and_in_the_html_report() -> None:
    result = full_ladder()
    result.instructions = counted()
    lines = ladder_instructions_lines(result)
    rows = {line.split()[0]: line.split() for line in lines[1:-1]}
    assert rows["string"][2:] == ["4,975", "0.01"]
    assert rows["orm"][2:4] == ["672,995", "+668,020"]
    assert len(rows["static"]) == 2  # its req/s, no count: nginx is not counted
    page = html_report(result)
    assert "instructions per request (in-process, callgrind" in page
    assert "672,995 instr/req" in page
    assert "instructions per request" not in html_report(full_ladder())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--full"], "--instructions counts the default ladder's rungs; not with --full"),
        (
            ["--apps", "bare,flask"],
            "--instructions counts one application's rungs; not with --apps",
        ),
        (["--rungs", "static"], "--instructions counts the application's rungs; none is chosen"),
    ],
)
def test_refused_in_one_line_before_the_ladder_runs(
    tmp_path: Path, args: list[str], message: str
) -> None:
    stderr = io.StringIO()
    sigterm = signal.getsignal(signal.SIGTERM)
    try:
        with redirect_stderr(stderr):
            returncode = run(
                ["ladder", *args, "--instructions", "--json", str(tmp_path / "l.json")]
            )
    finally:
        signal.signal(signal.SIGTERM, sigterm)
    done = subprocess.CompletedProcess(args, returncode, "", stderr.getvalue())
    assert done.returncode == 2, done.stderr
    assert said(done.stderr) == f"layerbench: error: {message}\n"
    assert not (tmp_path / "l.json").exists()
