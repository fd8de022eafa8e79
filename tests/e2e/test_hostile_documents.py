"""What ``results import``, ``report``, ``--topology`` and ``hosts up`` read, and the results
database itself, when hostile: ``/dev/zero`` (read until memory was gone), a FIFO (blocked for
ever), 100,000 nested ``[`` (a RecursionError), a stored run edited into one (the one-line
warning promised), a database of ``user_version`` -1 (``KeyError: 0``). Each is one line and
exit 2 (1 for the database: it cannot be read), before anything starts."""

import json
import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from layerbench.cli.main import run
from layerbench.errors import LoadGeneratorError
from layerbench.hosts.ssh_host import SshHost
from layerbench.lab.ssh_load import _result
from layerbench.store.results_db import ResultsDatabase, default_path
from tests.stored_runs import ladder_v3

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
DEEP = "[" * 100_000 + "]" * 100_000
COMMANDS = {
    "results import": ["results", "import", "{}"],
    "report": ["report", "{}", "-o", "out.html"],
    "ladder --topology": ["ladder", "--topology", "{}", "-d", "1"],
    "hosts up": ["hosts", "up", "{}"],
}


def _bounded() -> None:
    # What the old code did with /dev/zero, within bounds: a MemoryError, not the machine's.
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.parametrize("source", ["/dev/zero", "fifo"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_device_or_a_fifo_is_refused_without_reading(
    tmp_path: Path, command: str, source: str
) -> None:
    path = Path(source)
    if source == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)
    argv = [part.replace("{}", str(path)) for part in COMMANDS[command]]
    completed = subprocess.run(
        [*LAYERBENCH, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=60,
        preexec_fn=_bounded, check=False,
    )  # fmt: skip
    assert completed.returncode == 2, completed.stderr
    assert completed.stderr.endswith(f"cannot read {path}: it is not a regular file\n") or (
        completed.stderr.endswith(f"cannot read the topology {path}: it is not a regular file\n")
    ), completed.stderr
    assert "Traceback" not in completed.stderr
    assert not (tmp_path / "out.html").exists()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_nesting_too_deep_is_one_line(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP if "topology" not in command and "hosts" not in command else
                    "a = " + DEEP)  # fmt: skip
    argv = [part.replace("{}", str(path)) for part in COMMANDS[command]]
    assert run(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith("layerbench: error: ") and error.count("\n") == 1
    assert error.endswith(f"{path} is nested too deeply to be read\n")


def test_a_stored_run_edited_into_deep_nesting_is_a_one_line_warning(
    tmp_path: Path, results_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ResultsDatabase(default_path()) as database:
        database.add_run(ladder_v3({"string": [8000.0]}))
    with sqlite3.connect(results_database) as connection:
        connection.execute("UPDATE runs SET document = ? WHERE id = 1", (DEEP,))
    connection.close()
    assert run(["results", "list"]) == 0
    assert capsys.readouterr().err == (
        "layerbench: warning: run 1's stored document is nested too deeply to be read "
        "(edited by hand?)\n"
    )
    assert run(["report", "1", "-o", str(tmp_path / "out.html")]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "out.html").exists()


@pytest.mark.parametrize("command", [["results", "list"], ["results", "show", "1"]])
def test_a_database_of_a_negative_schema_version_is_refused(
    results_database: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(results_database) as connection:
        connection.execute("PRAGMA user_version = -1")
    connection.close()
    assert run(command) == 1
    assert capsys.readouterr().err == (
        f"layerbench: error: the results database {results_database} has schema version -1, "
        "which no layerbench writes: it is not a results database (or was edited by hand)\n"
    )


@pytest.mark.parametrize(
    ("rates", "message"),
    [
        ([True, False], "string: repeats[0].requests_per_s is a number, not true"),
        ([-5.0, 100.0], "string: repeats[0].requests_per_s is at least 0, not -5"),
        (["fast"], 'string: repeats[0].requests_per_s is a number, not "fast"'),
        ([1.0] * 101, "string: repeats holds 0 to 100 items, not 101"),
    ],
)
def test_an_imported_run_has_its_trials_checked(
    tmp_path: Path, rates: list[object], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the smoke baseline's: a rate is a finite number of 0 or more, and a rung has at most
    100 trials (2,000,000 had the statistics run for minutes)."""
    document = ladder_v3({"string": [1.0]})
    document["rungs"][0]["repeats"] = [{"requests_per_s": rate} for rate in rates]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    assert run(["results", "import", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"layerbench: error: a layerbench document with a wrong field: {message}\n"
    )
    with ResultsDatabase(default_path()) as database:
        assert database.runs() == []


@pytest.mark.parametrize("report", [DEEP, '{"requests_per_s": NaN}', "1" * 5000])
def test_what_an_ssh_host_sends_is_read_as_every_document(report: str) -> None:
    """A client host reached over SSH is another machine: its report, read as a document, is a
    one-line error when it is not one, never a RecursionError."""
    host = SshHost("far", ("client",), "u@far", None, None)
    with pytest.raises(LoadGeneratorError) as refused:
        _result(host, 0, [report])
    assert "sent no readable JSON: its report" in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("number", ["9" * 5000, str(2**63), "99999999999999999999999"])
def test_a_run_number_too_large_for_the_database_is_no_run(
    tmp_path: Path, number: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """report N with N of 5,000 digits was an OSError (a file name too long) and one beyond
    SQLite's 64-bit rowids an OverflowError, both tracebacks."""
    assert run(["report", number, "-o", str(tmp_path / "out.html")]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"layerbench: error: no run {number[:19]}") and error.count("\n") == 1
    assert not (tmp_path / "out.html").exists()
