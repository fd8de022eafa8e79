"""``layerbench cost`` and ``smoke --measure instructions`` for real, under valgrind: the rungs
counted in-process (the bare application on the ladder's SQLite data), a costlier application
caught by the gate and the unchanged one passing, a URL that does not answer 2xx never counted;
and the refusals: valgrind not installed, a baseline counted by another interpreter or on
another architecture, a req/s baseline."""

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from layerbench.cost.instructions_baseline import baseline_document
from layerbench.smoke.smoke_cost import current_conditions
from tests.cli_lines import said
from tests.smoke_runs import LAYERBENCH, shop, smoke, smoke_here

APP = """
def fast(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "5")])
    return [b"hello"]


def costlier(environ, start_response):
    # The same answer after a change that adds work: a few thousand instructions a request,
    # many times the 1 % tolerated of fast's.
    sum(range(100))
    return fast(environ, start_response)
"""
# The fewest requests and repeats that count: these tests check verdicts, not the spread.
QUICK = ["--requests", "20", "--repeats", "1"]


@pytest.fixture
def valgrind(require_program: Callable[[str, str], Path]) -> Path:
    require_program("gcc", "gcc")
    return require_program("valgrind", "valgrind")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "perfapp.py").write_text(APP)
    return tmp_path


def cost(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LAYERBENCH, "cost", *args], capture_output=True, text=True, cwd=cwd, env=env,
        timeout=300, check=False,
    )  # fmt: skip


def test_cost_counts_each_rung_and_what_its_layer_adds(valgrind: Path, tmp_path: Path) -> None:
    out = tmp_path / "cost.json"
    done = cost("--rungs", "string,db-raw", "--requests", "20", "--warmup", "5", "--repeats",
                "2", "--json", str(out), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text())
    rows = {row["label"]: row for row in document["requests"]}
    assert list(rows) == ["string", "db-raw"]
    # Each rung's chain (the ladder's): what its "vs above" is against.
    assert rows["db-raw"]["chain"] == ["cache", "string", "static"]
    string, db_raw = (rows[name]["median_instructions_per_request"] for name in rows)
    # The string's own handler is a few thousand instructions; the sqlite3 query adds more.
    assert 500 < string < 50_000
    assert db_raw > string + 5_000
    assert all(len(row["instructions_per_request"]) == 2 for row in rows.values())
    assert all(row["cv_percent"] < 1 for row in rows.values())
    assert document["conditions"]["hash_seed"] == "0"
    table = done.stdout.splitlines()
    assert table[0].split()[:3] == ["rung", "instr/req", "layer"]
    assert table[2].startswith("db-raw") and f"+{db_raw - string:,.0f}" in table[2]


@pytest.mark.wide  # three processes under valgrind: about 50 s on a loaded 2-core machine
def test_the_gate_catches_a_costlier_application(valgrind: Path, project: Path) -> None:
    saved = smoke("perfapp:fast", "--measure", "instructions", "--baseline", "perf.json",
                  "--save", *QUICK, cwd=project)  # fmt: skip
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.startswith("baseline saved to perf.json: / ")
    same = smoke("perfapp:fast", "--measure", "instructions", "--baseline", "perf.json",
                 *QUICK, cwd=project)  # fmt: skip
    assert same.returncode == 0, same.stdout + same.stderr
    assert same.stdout.splitlines()[1].split()[-1] == "ok"
    costlier = smoke("perfapp:costlier", "--measure", "instructions", "--baseline",
                     "perf.json", *QUICK, cwd=project)  # fmt: skip
    assert costlier.returncode == 1, costlier.stdout + costlier.stderr
    assert "/ regressed: " in costlier.stdout and "more instructions" in costlier.stdout


@pytest.mark.wide  # two passes under valgrind: about 40 s
def test_a_count_is_the_same_whatever_the_callers_environment_and_temporary_directory(
    valgrind: Path, tmp_path: Path
) -> None:
    """The orm rung is the most sensitive to its memory's layout: an environment variable
    more, or a longer temporary directory, moved it by 1 to 2 % before counted children were
    given a fixed environment and paths of one length."""
    counts = []
    for name, padding in (("t", ""), ("a-temporary-directory-of-a-longer-name", "x" * 3000)):
        temporary = tmp_path / name
        temporary.mkdir()
        env = {**os.environ, "TMPDIR": str(temporary), "CI_PADDING": padding}
        out = tmp_path / f"{name}.json"
        done = cost("--rungs", "orm", "--requests", "20", "--warmup", "5", "--repeats", "1",
                    "--json", str(out), cwd=tmp_path, env=env)  # fmt: skip
        assert done.returncode == 0, done.stderr
        row = json.loads(out.read_text())["requests"][0]
        counts.append(row["median_instructions_per_request"])
    assert counts[0] == counts[1]


def test_a_url_that_does_not_answer_2xx_is_not_counted(valgrind: Path, tmp_path: Path) -> None:
    done = smoke_here(*shop("--url", "/missing", "--measure", "instructions", "--baseline",
                            str(tmp_path / "b.json"), "--save", *QUICK))  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert (
        "/missing (GET /missing) answered 40 x 404, last 404 b'shop'; expected 2xx" in done.stderr
    )
    assert not (tmp_path / "b.json").exists()


def test_without_valgrind_cost_and_the_gate_refuse_in_one_line(tmp_path: Path) -> None:
    """No valgrind on the PATH (nor in the system directories searched besides)."""
    if Path("/usr/sbin/valgrind").exists() or Path("/sbin/valgrind").exists():
        pytest.skip("valgrind is in a system directory that is always searched")
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    done = cost("--rungs", "string", cwd=tmp_path, env=env)
    assert done.returncode == 1
    assert said(done.stderr) == (
        "layerbench: error: valgrind is not installed; install it with: apt-get install valgrind "
        "(dnf install valgrind)\n"
    )
    gate = subprocess.run(
        [*LAYERBENCH, "smoke", *shop("--measure", "instructions", "--baseline", "b.json",
                                     "--save")],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert gate.returncode == 2, gate.stderr
    assert gate.stderr.endswith("apt-get install valgrind (dnf install valgrind)\n")
    assert len(said(gate.stderr).splitlines()) == 1


@pytest.mark.parametrize(
    ("condition", "value"),
    [("architecture", "aarch64"), ("python", "3.12.1"), ("python_build", "other build")],
)
def test_a_baseline_from_another_interpreter_or_architecture_is_refused(
    valgrind: Path, tmp_path: Path, condition: str, value: str
) -> None:
    conditions = {**current_conditions(), condition: value}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(baseline_document("shop.wsgi:application", conditions,
                                                 {"/": [1000.0]})))  # fmt: skip
    done = smoke_here(*shop("--measure", "instructions", "--baseline", str(path)))
    assert done.returncode == 2
    assert f"{condition} {value} in the baseline" in done.stderr
    assert len(said(done.stderr).splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "refusal"),
    [
        (["--measure", "instructions", "--env", "NOT_SET_HERE_1"],
         "--env NOT_SET_HERE_1: not set in this environment"),
        (["--measure", "instructions", "--env", "1X"], "'1X' is not an environment variable's"),
        (["--env", "PATH"], "--env PATH: the servers run in this whole environment"),
        (["--measure", "instructions", "--served", "--env", "PATH"],
         "--env PATH: the servers run in this whole environment"),
    ],
)  # fmt: skip
def test_env_names_a_set_variable_for_the_in_process_count_only(
    tmp_path: Path, args: list[str], refusal: str
) -> None:
    done = smoke(*shop(*args, "--baseline", str(tmp_path / "b.json"), "--save"), cwd=tmp_path)
    assert done.returncode == 2
    assert refusal in done.stderr
    assert len(said(done.stderr).splitlines()) == 1
    assert not (tmp_path / "b.json").exists()


def test_a_req_s_baseline_is_not_one_of_instructions(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"version": 2, "urls": {"/": {"requests_per_s": [1.0]}}}))
    done = smoke_here(*shop("--measure", "instructions", "--baseline", str(path)))
    assert done.returncode == 2
    assert "is not a baseline of instructions" in done.stderr


def test_the_interpreter_is_recorded(valgrind: Path) -> None:
    conditions = current_conditions()
    assert conditions["python"] == ".".join(map(str, sys.version_info[:3]))
    assert conditions["packages"]["layerbench"]
