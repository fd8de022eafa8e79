"""``layerbench matrix`` end to end: real servers, the real load generator, every process
sampled; wrong settings refused before anything starts; a dying server ends only its column;
Ctrl-C keeps what was measured and leaves nothing running."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from layerbench.errors import MissingBinaryError
from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.matrix.matrix import Matrix
from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.matrix.matrix_result import (
    MATRIX_JSON_VERSION,
    Cell,
    ColumnInfo,
    MatrixResult,
)
from layerbench.results.status import Status
from layerbench.servers import apache as apache_module
from tests.cli_lines import said
from tests.proc_scan import processes_mentioning

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
SHORT = ["-d", "1", "--warmup", "0.2", "--repeats", "1"]
ROOT = Path(__file__).parent.parent.parent


def layerbench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LAYERBENCH, *args], capture_output=True, text=True, cwd=cwd, timeout=300, check=False
    )


def test_matrix_measures_every_cell_and_records_settings(
    tmp_path: Path, nginx_binary: Path, load_binary: Path
) -> None:
    servers = "gunicorn:workers=1,mod_wsgi-daemon:processes=1:threads=4,uwsgi-nginx,nginx-static"
    completed = layerbench(
        "matrix", "--servers", servers, "-c", "1,8", *SHORT, "--json", "m.json", cwd=tmp_path
    )
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    table = completed.stdout.split("\n\n")[0].splitlines()
    header = next(i for i, line in enumerate(table) if line.startswith("c "))
    names = " ".join(table[:header])  # each column's name, wrapped after a colon, and its rung
    assert all(part in names for part in servers.replace(",", ":").split(":"))
    assert names.count("(string)") == 3 and names.count("(static)") == 1
    assert table[header].split()[:4] == ["c", "req/s", "ms/req", "p99"]
    assert [row.split()[0] for row in table[header + 1 :]] == ["1", "8"]

    document = json.loads((tmp_path / "m.json").read_text())
    assert document["version"] == MATRIX_JSON_VERSION and not document["interrupted"]
    columns = {column["label"]: column for column in document["columns"]}
    assert columns["gunicorn:workers=1"]["settings"]["gunicorn"]["workers"] == 1
    daemon = columns["mod_wsgi-daemon:processes=1:threads=4"]
    assert daemon["settings"]["mod_wsgi-daemon"]["threads"] == 4
    assert daemon["settings"]["apache"]["max_request_workers"] == 150
    assert daemon["versions"]["apache"].startswith("Apache/2.4")
    assert set(columns["uwsgi-nginx"]["versions"]) == {"uwsgi", "nginx"}
    assert len(document["cells"]) == 8
    for cell in document["cells"]:
        assert cell["status"] == "ok", cell
        assert cell["requests_per_s"] > 0 and cell["errors"] == 0, cell
        assert cell["latency_p99_ms"] >= cell["latency_p50_ms"] > 0
        roles = cell["roles"]
        assert roles["server"]["cpu_s"] > 0 and roles["server"]["pss_bytes"] > 0, cell
        assert roles["client"]["cpu_s"] > 0
        if cell["column"] == "uwsgi-nginx":
            assert roles["front"]["cpu_s"] > 0 and roles["front"]["processes"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--servers", "gunicorn", "--set", "gunicorn.wrokers=2"], "has no setting wrokers"),
        (["--servers", "gunicorn", "--set", "apahce.mpm=worker"], "no server reads settings"),
        (["--servers", "mod-wsgi"], "unknown server 'mod-wsgi'"),
        (["--servers", "mod_python", "--rung", "orm"], "serves the string rung only"),
        (["--servers", "gunicorn:workers=two"], "gunicorn.workers is a whole number"),
        (["--servers", "gunicorn", "-c", "10,lots"], "--concurrency takes whole numbers"),
        (["--servers", "gunicorn", "-c", "0"], "concurrency must be 1 to"),
        (["--servers", "uwsgi-nginx:http_socket=on"], "over a unix socket"),
    ],
)  # fmt: skip
def test_wrong_options_are_refused_before_anything_starts(
    tmp_path: Path, args: list[str], message: str
) -> None:
    completed = layerbench("matrix", *args, cwd=tmp_path)
    assert completed.returncode == 2
    assert said(completed.stderr).startswith("layerbench: error: ")
    assert message in completed.stderr
    assert "Traceback" not in completed.stderr
    assert not (tmp_path / "matrix.json").exists()


def test_ctrl_c_mid_run_keeps_finished_cells_and_leaves_no_process(
    tmp_path: Path, load_binary: Path
) -> None:
    command = [*LAYERBENCH, "matrix", "--servers", "gunicorn,mod_wsgi-embedded", "-c", "2,4"]
    reaper = subprocess.run(
        [sys.executable, "-m", "tests.reaper", "mod_wsgi-embedded (", "90", "--", *command,
         "-d", "2", "--warmup", "0.2"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=150,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    report = json.loads(reaper.stdout)
    assert report["seen"], report
    assert report["exit"] == 130
    assert "layerbench: interrupted" in report["stderr"]
    assert "Traceback" not in report["stderr"]
    assert report["left"] == []
    document = json.loads((tmp_path / "matrix.json").read_text())
    assert document["interrupted"]
    assert [(cell["column"], cell["status"]) for cell in document["cells"]][:2] == [
        ("gunicorn", "ok"),
        ("gunicorn", "ok"),
    ]


class Recorder:
    def __init__(self) -> None:
        self.cells: list[tuple[str, int]] = []

    def pass_starting(self, number: int, passes: int) -> None:
        pass

    def column_starting(self, column: ColumnInfo) -> None:
        pass

    def cell_starting(self, column: ColumnInfo, concurrency: int) -> None:
        self.cells.append((column.label, concurrency))

    def cell_finished(self, cell: Cell) -> None:
        pass


def run_matrix(
    workdir: Path, load_binary: Path, options: MatrixOptions, observer: Recorder
) -> MatrixResult:
    result = MatrixResult(options={}, conditions={}, started_at="")
    matrix = Matrix(
        options=options,
        layout=plan_cpu_layout(),
        load_binary=load_binary,
        workdir=workdir,
        result=result,
        observer=observer,
    )
    matrix.run(matrix.plan())
    return result


def columns(*texts: str) -> tuple[Column, ...]:
    return tuple(Column.parse(text, {}) for text in texts)


def test_a_server_that_dies_ends_its_column_and_the_next_runs(
    workdir: Path, load_binary: Path, nginx_binary: Path
) -> None:
    def kill_gunicorn_soon() -> None:
        time.sleep(0.5)
        for pid in processes_mentioning(str(workdir)):
            # The load generator's command line names the cell (gunicorn-0-r1-c2-1.json): were
            # it killed too, its failure could end the cell before the server's death is seen.
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if b"gunicorn" in b" ".join(argv) and not argv[0].endswith(b"layerbench-load"):
                os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_gunicorn_soon)

    class KillDuringSecondCell(Recorder):
        def cell_starting(self, column: ColumnInfo, concurrency: int) -> None:
            super().cell_starting(column, concurrency)
            if (column.label, concurrency) == ("gunicorn", 2):
                killer.start()

    options = MatrixOptions(
        columns=columns("gunicorn", "nginx-static"), concurrency=(1, 2, 4), duration_s=1.5,
        warmup_s=0.1,
    )  # fmt: skip
    result = run_matrix(workdir, load_binary, options, KillDuringSecondCell())
    killer.join()
    statuses = [(cell.column, cell.concurrency, cell.status) for cell in result.cells]
    assert statuses == [
        ("gunicorn", 1, Status.OK),
        ("gunicorn", 2, Status.ERROR),
        ("gunicorn", 4, Status.ERROR),
        ("nginx-static", 1, Status.OK),
        ("nginx-static", 2, Status.OK),
        ("nginx-static", 4, Status.OK),
    ]
    assert "gunicorn exited unexpectedly" in (result.cells[1].message or "")
    assert result.failed
    assert processes_mentioning(str(workdir)) == []


def test_a_server_not_installed_is_skipped_naming_the_package(
    workdir: Path, load_binary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_apache(program: str, apt_package: str) -> Path:
        raise MissingBinaryError(program, apt_package)

    monkeypatch.setattr(apache_module, "find_program", no_apache)
    options = MatrixOptions(
        columns=columns("apache-static", "gunicorn"), concurrency=(2,), duration_s=0.5,
        warmup_s=0.1,
    )  # fmt: skip
    result = run_matrix(workdir, load_binary, options, Recorder())
    skipped, measured = result.cells
    assert skipped.status is Status.SKIPPED
    assert "apt-get install apache2" in (skipped.message or "")
    assert measured.status is Status.OK
    assert not result.failed


def test_a_repeated_level_is_a_row_of_its_own(
    tmp_path: Path, load_binary: Path, results_database: Path
) -> None:
    # Seed 004's first measurement after a start against the second: the same level twice.
    completed = layerbench(
        "matrix", "--servers", "waitress", "-c", "3,3", "--warmup", "0", "-d", "0.5",
        "--repeats", "1", "--json", "m.json", cwd=tmp_path,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    document = json.loads((tmp_path / "m.json").read_text())
    assert [(cell["row"], cell["concurrency"]) for cell in document["cells"]] == [(0, 3), (1, 3)]
    first, second = document["cells"]
    rows = completed.stdout.splitlines()[2:4]
    assert [row.split()[0] for row in rows] == ["3", "3"]
    assert rows[0].split()[1] == f"{first['requests_per_s']:,.0f}"
    assert rows[1].split()[1] == f"{second['requests_per_s']:,.0f}"
    # The run is stored, each cell a rung of its own.
    assert "stored as run 1 in" in completed.stderr
    shown = layerbench("results", "show", "1", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("run 1: matrix, waitress, string c=3,3")
    assert [line.split()[:5] for line in shown.stdout.splitlines()[2:]] == [
        ["waitress", "c=3", "#1", "ok", "1"],
        ["waitress", "c=3", "#2", "ok", "1"],
    ]


def test_repeats_interleave_and_each_cell_is_its_median_trial(
    tmp_path: Path, load_binary: Path, results_database: Path
) -> None:
    completed = layerbench(
        "matrix", "--servers", "waitress", "-c", "1,2", "-d", "1", "--warmup", "0",
        "--repeats", "2", "--json", "m.json", cwd=tmp_path,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    # Interleaved: every level once per pass, the server started anew for each.
    lines = completed.stderr.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("pass "))  # after the header
    progress = [line.split()[0] for line in lines[first : first + 6]]
    assert progress == ["pass", "waitress", "c=1", "c=2", "pass", "waitress"], completed.stderr
    document = json.loads((tmp_path / "m.json").read_text())
    assert document["version"] == MATRIX_JSON_VERSION and document["options"]["repeats"] == 2
    for cell in document["cells"]:
        rates = [trial["requests_per_s"] for trial in cell["repeats"]]
        # req/s the median of two (their mean); the other figures the slower's.
        assert len(rates) == 2 and cell["requests_per_s"] == sum(rates) / 2
        assert rates[cell["representative_trial"]] == min(rates)
        assert cell["spread"]["n"] == 2 and cell["spread"]["cv"] >= 0
        assert cell["spread"]["ci95_low_requests_per_s"] <= cell["spread"]["median_requests_per_s"]
        assert cell["noisy"] == (cell["spread"]["cv"] > 0.03)
    # The table shows each cell's CV, and says what its figures are.
    assert len(re.findall(r"CV \d+\.\d %", completed.stdout)) == 2
    assert "req/s is the median of 2 interleaved trials" in completed.stdout
    # Stored with both trials; a version 1 document still imports and reports.
    shown = layerbench("results", "show", "1", cwd=tmp_path)
    assert [line.split()[2:4] for line in shown.stdout.splitlines()[2:]] == [["ok", "2"]] * 2
    old = dict(document, version=1)
    old["cells"] = [
        {key: value for key, value in cell.items() if key not in ("repeats", "spread", "noisy")}
        for cell in document["cells"]
    ]
    (tmp_path / "old.json").write_text(json.dumps(old))
    imported = layerbench("results", "import", "old.json", cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    shown = layerbench("results", "show", "2", cwd=tmp_path)
    assert [line.split()[2:4] for line in shown.stdout.splitlines()[2:]] == [["ok", "1"]] * 2
    for source in ("old.json", "m.json"):
        report = layerbench("report", source, "-o", "r.md", cwd=tmp_path)
        assert report.returncode == 0, report.stderr
        assert "waitress" in (tmp_path / "r.md").read_text()
