"""Memory per worker as the seeds read it (RSS, top's RES) beside PSS and USS: the mean over
the server's processes that served (render/worker_memory.py), printed after the ladder's and
the matrix's tables and in the HTML report; and from a real server, as the sampler read it."""

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from layerbench.ladder.ladder_result import ladder_memory_items
from layerbench.matrix.matrix_result import matrix_memory_items
from layerbench.render.worker_memory import (
    MIB,
    WorkerMemory,
    format_memory_table,
)
from layerbench.report.html_report import html_report
from layerbench.results.usage import ProcessUsage, RoleUsage
from tests.report_documents import full_ladder, seed_002_matrix

COMMAND = (sys.executable, "-m", "layerbench.cli")
SHORT = ("-d", "0.5", "--warmup", "0", "--repeats", "1")


def test_the_workers_are_the_processes_that_served_and_pss_adds_up_over_all() -> None:
    role = RoleUsage(
        "server",
        (
            ProcessUsage(1, "apache2", "server", 0.0, 30 * MIB, 4 * MIB, 1 * MIB),  # the parent
            ProcessUsage(2, "apache2", "server", 1.5, 100 * MIB, 60 * MIB, 40 * MIB),
            ProcessUsage(3, "apache2", "server", 0.5, 80 * MIB, 50 * MIB, 30 * MIB),
        ),
        3.0,
    )
    memory = WorkerMemory.of(role)
    assert memory == WorkerMemory(2, 90 * MIB, 55 * MIB, 35 * MIB, 114 * MIB)


def test_the_ladder_prints_rss_pss_and_uss_per_worker() -> None:
    result = full_ladder()
    lines = format_memory_table(ladder_memory_items(result), colour=False).splitlines()
    assert "RSS MiB  PSS MiB  USS MiB" in lines[1], lines[1]
    # The string rung: three gunicorn processes of PSS 20, 28 and 28 MiB (RSS twice it).
    string = next(line for line in lines if line.startswith("string "))
    assert string.split()[1:] == ["3", "50.7", "25.3", "12.7", "76.0"], string


def test_the_html_report_has_the_memory_per_worker() -> None:
    page = html_report(seed_002_matrix())
    assert "<h2>Memory per worker</h2>" in page
    assert "<th>RSS MiB</th><th>PSS MiB</th><th>USS MiB</th>" in page
    assert "<td>mod_wsgi-embedded c=1</td>" in page


def test_a_real_servers_workers_have_their_memory_read(tmp_path: Path) -> None:
    json_path = tmp_path / "matrix.json"
    done = subprocess.run(
        [*COMMAND, "matrix", "--servers", "gunicorn", "-c", "2", *SHORT, "--json", str(json_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "LAYERBENCH_RESULTS_DB": str(tmp_path / "db.sqlite3"), "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("memory per worker"))
    workers, rss, pss, uss, _ = lines[title + 2].split()[-5:]
    assert int(workers) >= 1
    assert float(rss) >= float(pss) >= float(uss) > 1.0, lines[title + 2]
    # The processes the JSON keeps as the sampler read them: those that served.
    processes = json.loads(json_path.read_text())["cells"][0]["roles"]["server"]["processes"]
    served = [p for p in processes if p["cpu_s"] > 0] or processes
    assert int(workers) == len(served)
    mean_rss = sum(p["rss_bytes"] for p in served) / len(served) / MIB
    assert rss == f"{mean_rss:.1f}", (rss, processes)


def test_a_level_measured_twice_names_which_measurement() -> None:
    result = seed_002_matrix()
    first = next(cell for cell in result.cells if cell.column == "uwsgi")
    result.cells.append(replace(first, row=1))
    names = [name for name, _ in matrix_memory_items(result) if name.startswith("uwsgi ")]
    assert names == ["uwsgi c=1 (1)", "uwsgi c=1 (2)"]
