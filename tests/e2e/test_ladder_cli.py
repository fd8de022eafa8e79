"""``layerbench ladder`` end to end: real gunicorn, real nginx, the real load generator."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from layerbench.lab.trial import TrialRunner
from layerbench.ladder.ladder_result import LADDER_JSON_VERSION, LadderResult
from layerbench.ladder.options import LadderOptions
from layerbench.results.load_result import LoadResult
from layerbench.results.status import Status
from layerbench.rungs.definitions import Rung
from layerbench_sites.app import ladder_data
from tests.cli_lines import said
from tests.ladder_runs import Recorder, run_ladder
from tests.proc_scan import processes_mentioning

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
SHORT = ["-d", "1", "--warmup", "0.3", "--repeats", "2"]
# For the tests of what is done with a run (stored, listed, compared), not of what it measured.
BRIEF = ["-d", "0.5", "--warmup", "0.2", "--repeats", "2"]


def layerbench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LAYERBENCH, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )


def test_ladder_measures_every_rung_and_writes_json(
    tmp_path: Path, nginx_binary: Path, load_binary: Path
) -> None:
    completed = layerbench("ladder", *SHORT, "--json", "out.json", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    table = completed.stdout.split("\n\n")[0].splitlines()
    assert [line.split()[0] for line in table[2:]] == [  # under "CPU % of a core", the header
        "static", "string", "cache", "db-raw", "orm", "template", "page", "cached-page", "write"
    ]  # fmt: skip
    assert "Traceback" not in completed.stderr
    # Progress: every trial numbered out of all of them (9 rungs x 2 passes), with the time left.
    assert "  [1/18 ~" in completed.stderr and "  [18/18 ~0:0" in completed.stderr
    document = json.loads((tmp_path / "out.json").read_text())
    assert document["version"] == LADDER_JSON_VERSION
    assert not document["interrupted"]
    for rung in document["rungs"]:
        assert rung["status"] == "ok", rung
        assert rung["requests_per_s"] > 0
        assert rung["errors"] == 0
        assert rung["load"]["requests_completed"] > 0
        # Every process of the server and the client was sampled over the measured interval.
        server, client = rung["roles"]["server"], rung["roles"]["client"]
        assert server["cpu_s"] > 0 and server["pss_bytes"] > 0, server
        assert server["processes"] and client["processes"], rung["roles"]
        assert client["cpu_s"] > 0 and client["cpu_s_per_1000_requests"] > 0, client
        assert 0 <= rung["sampler_cpu_percent"] < 100
        # Two trials, the rung's req/s their median (the mean of two), its other figures the
        # slower's.
        rates = [trial["requests_per_s"] for trial in rung["repeats"]]
        assert len(rates) == 2 and rung["requests_per_s"] == sum(rates) / 2
        assert rates[rung["representative_trial"]] == min(rates)
        assert rung["spread"]["n"] == 2 and rung["spread"]["cv"] >= 0
    assert document["conditions"]["server_versions"]["nginx"].startswith("nginx/")
    assert set(document["conditions"]["load_commands"]) == {r["rung"] for r in document["rungs"]}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rungs", "nope"], "unknown rung nope"),
        (["-c", "0"], "'0' is not a whole number from 1 to 20,000"),
        (["--json", "/nonexistent/dir/out.json"], "cannot write results"),
    ],
)
def test_wrong_options_are_one_line_errors(tmp_path: Path, args: list[str], message: str) -> None:
    completed = layerbench("ladder", *args, cwd=tmp_path)
    assert completed.returncode == 2
    assert said(completed.stderr).startswith("layerbench: error: ")
    assert message in completed.stderr
    assert len(said(completed.stderr).splitlines()) == 1


@pytest.mark.parametrize("sent", ["SIGINT", "SIGHUP"])
def test_ctrl_c_mid_run_keeps_finished_rungs_and_leaves_no_process(
    tmp_path: Path, load_binary: Path, sent: str
) -> None:
    # SIGHUP (a closed terminal, a dropped SSH session) takes the same way out as Ctrl-C.
    command = [*LAYERBENCH, "ladder", "-d", "3", "--warmup", "0.2", "--rungs", "string,cache,orm"]
    reaper = subprocess.run(
        [sys.executable, "-m", "tests.reaper", "cache ", "60", sent, "--", *command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent.parent)},
    )
    report = json.loads(reaper.stdout)
    assert report["seen"], report
    assert report["exit"] == 130
    assert "layerbench: interrupted" in report["stderr"]
    assert "Traceback" not in report["stderr"]
    assert report["left"] == []
    document = json.loads((tmp_path / "ladder.json").read_text())
    assert document["interrupted"]
    assert [rung["rung"] for rung in document["rungs"]] == ["string"]
    assert document["rungs"][0]["status"] == "ok"


def run_short(
    workdir: Path, load_binary: Path, rungs: tuple[str, ...], recorder: Recorder | None = None
) -> LadderResult:
    """A brief trial (what these tests check is not what it measured); one pass, or two when the
    order of the trials is recorded."""
    repeats = 1 if recorder is None else 2
    options = LadderOptions(duration_s=0.5, warmup_s=0.2, repeats=repeats, rungs=rungs)
    return run_ladder(workdir, load_binary, options, recorder)


def test_a_rung_whose_answers_were_errors_failed_and_shows_its_successful_rate(
    workdir: Path, load_binary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As when MariaDB is killed mid-rung: half the responses are 500s. The rung is failed, and
    # its req/s is that of the 200s (it showed 1,299 req/s of which 664 were 500s).
    measured = TrialRunner.run

    def half_of_them_500(self: TrialRunner, *args: Any, **kwargs: Any) -> Any:
        load, usage = measured(self, *args, **kwargs)
        completed = load.requests_completed
        statuses = {"200": completed - completed // 2, "500": completed // 2}
        document = {**load.document, "non_2xx_responses": completed // 2, "status_counts": statuses}
        return LoadResult.from_document(document), usage

    monkeypatch.setattr(TrialRunner, "run", half_of_them_500)
    result = run_short(workdir, load_binary, ("string",))
    [rung] = result.rungs
    assert rung.status is Status.ERROR and result.failed
    assert rung.message is not None and "HTTP 500" in rung.message
    [trial] = rung.trials
    document = trial.load.document
    successful = document["requests_completed"] - document["non_2xx_responses"]
    assert rung.requests_per_s == pytest.approx(successful / document["elapsed_s"], rel=0.01)


def test_repeats_are_interleaved_across_rungs(workdir: Path, load_binary: Path) -> None:
    recorder = Recorder()
    result = run_short(workdir, load_binary, ("string", "db-raw"), recorder)
    assert recorder.started == ["string", "db-raw", "string", "db-raw"]
    assert [len(rung.trials) for rung in result.rungs] == [2, 2]


def test_a_rung_with_a_wrong_body_is_an_error_and_the_others_are_measured(
    workdir: Path, load_binary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_seed = ladder_data.create_seeded_database

    def seed_wrong_row(directory: Path) -> Path:
        path = real_seed(directory)
        with sqlite3.connect(path) as connection:
            connection.execute("UPDATE hello SET value = 'Goodbye'")
        connection.close()
        return path

    monkeypatch.setattr(ladder_data, "create_seeded_database", seed_wrong_row)
    result = run_short(workdir, load_binary, ("string", "db-raw", "orm"))
    statuses = {rung.rung: rung.status for rung in result.rungs}
    assert statuses == {
        "string": Status.OK,
        "db-raw": Status.ERROR,
        "orm": Status.ERROR,
    }
    message = result.rungs[1].message or ""
    assert "rung db-raw" in message and "b'Goodbye'" in message and "b'Hello world!'" in message
    assert result.failed


def test_a_server_that_dies_mid_run_fails_the_rest_and_leaves_nothing(
    workdir: Path, load_binary: Path
) -> None:
    def kill_gunicorn_soon() -> None:
        time.sleep(0.6)
        for pid in processes_mentioning(str(workdir)):
            if b"gunicorn" in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_gunicorn_soon)

    class KillDuringCache(Recorder):
        def rung_starting(self, rung: Rung, app: str) -> None:
            super().rung_starting(rung, app)
            if rung.name == "cache":
                killer.start()

    options = LadderOptions(
        duration_s=1.5, warmup_s=0.1, repeats=1, rungs=("string", "cache", "orm")
    )
    result = run_ladder(workdir, load_binary, options, KillDuringCache())
    killer.join()
    statuses: dict[str, Any] = {rung.rung: rung.status for rung in result.rungs}
    assert statuses == {"string": Status.OK, "cache": Status.ERROR, "orm": Status.ERROR}
    assert "gunicorn exited unexpectedly" in (result.rungs[1].message or "")
    assert processes_mentioning(str(workdir)) == []


def test_without_nginx_the_static_rung_is_skipped_naming_the_package(
    workdir: Path, load_binary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(workdir))  # a machine where nginx is not installed
    monkeypatch.setattr("layerbench.proc.binaries.SYSTEM_DIRS", ())
    result = run_short(workdir, load_binary, ("static", "string"))
    static, string = result.rungs
    assert static.status is Status.SKIPPED
    assert static.message == (
        "nginx is not installed; install it with: apt-get install nginx "
        "(dnf install nginx; brew install nginx)"
    )
    assert string.status is Status.OK
    assert not result.failed


def test_each_run_is_stored_and_two_runs_compare(
    tmp_path: Path, load_binary: Path, results_database: Path
) -> None:
    for _ in range(2):
        completed = layerbench("ladder", *BRIEF, "--rungs", "string,db-raw", cwd=tmp_path)
        assert completed.returncode == 0, completed.stderr
    assert "stored as run 2 in" in completed.stderr
    listed = layerbench("results", "list", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()[1:]] == ["1", "2"]
    shown = layerbench("results", "show", "2", cwd=tmp_path)
    assert [line.split()[:3] for line in shown.stdout.splitlines()[2:]] == [
        ["string", "ok", "2"],
        ["db-raw", "ok", "2"],
    ]
    compared = layerbench("results", "compare", "1", "2", cwd=tmp_path)
    assert compared.returncode == 0, compared.stderr
    rows = compared.stdout.splitlines()[2:4]
    assert [row.split()[0] for row in rows] == ["string", "db-raw"]
    outcomes = ("inconclusive", "the same", "faster", "slower")
    assert all(any(outcome in row for outcome in outcomes) for row in rows)
    missing_run = layerbench("results", "show", "9", cwd=tmp_path)
    assert missing_run.returncode == 2
    assert said(missing_run.stderr).startswith("layerbench: error: no run 9 in")
    # A file written by an older layerbench still loads.
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"version": 2, "rungs": [{"rung": "static", "requests_per_s": 1.0}]}))
    imported = layerbench("results", "import", str(old), cwd=tmp_path)
    assert imported.stdout.strip() == f"stored {old} as run 3"
