"""``--json -`` in every run command: stdout carries the JSON document alone (it parses), the
table and the progress go to stderr; counts there are in the right number ("1 rung")."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
ONE = ["-d", "0.5", "--warmup", "0", "--repeats", "1", "--json", "-"]


@pytest.mark.parametrize(
    ("args", "table", "counts"),
    [
        (["ladder", "--rungs", "string", *ONE], "  vs top  ", "1 rung, "),
        (["ladder", "--rungs", "string", *ONE], "  vs top  ", "1 pass of "),
        (["mix", "--hit", "0.5", "--hit-rung", "string", "--miss-rung", "db-raw", *ONE],
         "mix: 50 % string", "1 trial)"),
        (["matrix", "--servers", "waitress", "-c", "2", *ONE], "ms/req: the mean", "1 server x"),
    ],
)  # fmt: skip
def test_json_to_stdout_is_the_document_alone(
    tmp_path: Path, load_binary: Path, args: list[str], table: str, counts: str
) -> None:
    completed = subprocess.run(
        [*LAYERBENCH, *args], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False
    )
    assert completed.returncode == 0, completed.stderr
    document = json.loads(completed.stdout)
    assert document["version"] >= 1 and not document["interrupted"]
    assert table in completed.stderr
    assert counts in completed.stderr
    assert "Traceback" not in completed.stderr
    assert list(tmp_path.iterdir()) == []  # no results file beside stdout
