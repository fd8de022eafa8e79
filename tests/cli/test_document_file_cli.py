"""Every command that writes a document refuses a path it cannot write before it starts
anything: one line, exit status 2, nothing measured (the writer is layerbench.store.document_file;
``writes --json`` is tested with the writes command's other bad input)."""

import subprocess
import sys
from pathlib import Path

import pytest

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
UNWRITABLE = "/nonexistent/dir/out.json"


@pytest.mark.parametrize(
    ("arguments", "what"),
    [
        (["cost", "--json", UNWRITABLE], "the results"),
        (["report", "--output", UNWRITABLE, "--format", "json", "no-such-run.json"], "the report"),
    ],
    ids=["cost", "report"],
)
def test_an_unwritable_path_is_refused_before_anything_starts(
    arguments: list[str], what: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [*LAYERBENCH, *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"layerbench: error: cannot write {what} to {UNWRITABLE}: /nonexistent/dir is not a"
        " writable directory"
    ]
    assert done.stdout == ""
    assert list(tmp_path.iterdir()) == []
