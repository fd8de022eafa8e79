"""The application as a dimension of a run (``--app``, a matrix column's ``app=``): a tiny
application registered here, answering the string rung only, run for real under gunicorn; the
rungs it does not answer are not applicable, never run; a framework that is not installed is a
one-line error naming its pip package, before anything starts."""

import csv
import io
import json
import re
from pathlib import Path

import pytest

from layerbench.cli.main import build_parser
from layerbench.errors import MissingPackageError
from layerbench.lab.app_under_test import check_installed
from layerbench.ladder.ladder_result import LADDER_JSON_VERSION
from layerbench.ladder.options import LadderOptions
from layerbench.report.exports import to_csv
from layerbench.report.stored_result import read_result
from layerbench.results.status import Status
from layerbench.rungs.applications import APPLICATIONS, Application
from layerbench.servers.adapters import CORES_DEFAULT
from layerbench.store.results_db import ResultsDatabase
from tests.conftest import missing
from tests.ladder_runs import run_ladder

TINY = Application(
    "tiny", "tests.framework_apps.string_only:application", frozenset({"string"}), "a test's"
)
ROOT = Path(__file__).resolve().parent.parent.parent
SHORT = ["-d", "0.5", "--warmup", "0.1", "--repeats", "1", "--no-pin"]
# The processes that import an application in one run: the check before anything starts, and
# each of the gunicorn adapter's workers (its master does not import it).
IMPORTS_BY_ONE_RUN = 1 + CORES_DEFAULT


@pytest.fixture
def marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file each process that imports TINY's module writes its pid to."""
    path = tmp_path / "imported"
    monkeypatch.setenv("STRING_ONLY_MARKER", str(path))
    return path


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch, marker: Path) -> Application:
    """TINY registered, and importable by the servers (and the check) from this checkout."""
    monkeypatch.setitem(APPLICATIONS, TINY.name, TINY)
    monkeypatch.setenv("LAYERBENCH_WSGI_APP_PATH", str(ROOT))
    return TINY


def served(marker: Path) -> int:
    """How many processes imported TINY: the check's child, and each server's."""
    return len(marker.read_text().split()) if marker.exists() else 0


def run_command(*argv: str) -> int:
    """A command in this process (where TINY is registered), without main's signal handler."""
    args = build_parser().parse_args(argv)
    code: int = args.handler(args)
    return code


def test_a_ladder_runs_the_rungs_the_app_answers_and_shows_the_others_not_applicable(
    tiny: Application,
    marker: Path,
    tmp_path: Path,
    load_binary: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "ladder.json"
    code = run_command(
        "ladder", "--app", "tiny", "--rungs", "string,db-raw", *SHORT, "--json", str(out)
    )
    assert code == 0
    document = json.loads(out.read_text())
    assert document["version"] == LADDER_JSON_VERSION and document["options"]["apps"] == ["tiny"]
    rungs = {rung["rung"]: rung for rung in document["rungs"]}
    assert rungs["string"]["status"] == "ok" and rungs["string"]["requests_per_s"] > 0
    assert rungs["db-raw"]["status"] == "not applicable"
    assert rungs["db-raw"]["message"] == "not applicable to tiny"
    assert rungs["db-raw"]["repeats"] == [] and rungs["db-raw"]["url"] is None
    assert {rung["app"] for rung in document["rungs"]} == {"tiny"}
    table = capsys.readouterr().out
    assert "db-raw: not applicable to tiny" in table
    assert served(marker) == IMPORTS_BY_ONE_RUN


@pytest.mark.usefixtures("tiny")
def test_several_apps_in_one_run_a_row_each_and_their_cost_over_bare(
    marker: Path,
    tmp_path: Path,
    load_binary: Path,
    results_database: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "ladder.json"
    argv = ["--apps", "bare,tiny", "--rungs", "string,cache", *SHORT, "--json", str(out)]
    assert run_command("ladder", *argv) == 0
    document = json.loads(out.read_text())
    assert document["options"]["apps"] == ["bare", "tiny"]
    rows = [(rung["app"], rung["rung"], rung["status"]) for rung in document["rungs"]]
    assert rows == [
        ("bare", "string", "ok"),
        ("bare", "cache", "ok"),
        ("tiny", "string", "ok"),
        ("tiny", "cache", "not applicable"),
    ]
    # Each application's hits are against its own rungs: tiny's string is its first.
    assert document["rungs"][2]["change_vs_above"] is None
    assert served(marker) == IMPORTS_BY_ONE_RUN  # tiny's server alone: bare's did not import it
    output = capsys.readouterr().out
    assert "tiny cache: not applicable to tiny" in output
    costs = output[output.index("what each application costs") :]
    string_costs = costs[costs.index("string:") : costs.index("cache:")]
    assert [line.split()[0] for line in string_costs.splitlines()[2:] if line] == ["bare", "tiny"]
    rows = [line.split() for line in string_costs.splitlines()[2:] if line]
    cost_over_bare = {row[0]: row[-1] for row in rows}
    assert cost_over_bare["bare"] == "1.0x"
    assert re.fullmatch(r"\d+\.\dx", cost_over_bare["tiny"]), string_costs
    # Stored, each application's rung apart (one rung's trials twice would not be).
    with ResultsDatabase(results_database) as database:
        stored = database.run(1)
    assert [rung.rung for rung in stored.rungs] == [
        "bare string", "bare cache", "tiny string", "tiny cache"
    ]  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(to_csv(read_result(document)))))
    assert [(row["app"], row["rung"]) for row in rows][2:] == [
        ("tiny", "string"),
        ("tiny", "cache"),
    ]


def test_a_matrix_column_runs_its_own_app(
    tiny: Application, marker: Path, tmp_path: Path, load_binary: Path
) -> None:
    out = tmp_path / "matrix.json"
    servers = "gunicorn:app=tiny,gunicorn:app=tiny:workers=1"
    code = run_command(
        "matrix", "--servers", servers, "--rung", "string", "-c", "2", *SHORT, "--json", str(out)
    )
    assert code == 0
    document = json.loads(out.read_text())
    assert [column["app"] for column in document["columns"]] == ["tiny", "tiny"]
    assert [column["settings"]["gunicorn"]["workers"] for column in document["columns"]][1] == 1
    assert [cell["status"] for cell in document["cells"]] == ["ok", "ok"]
    assert {cell["app"] for cell in document["cells"]} == {"tiny"}
    assert served(marker) >= 3  # the check, then each column's gunicorn worker


def test_a_matrix_column_whose_app_does_not_answer_its_rung_is_not_applicable(
    tiny: Application, tmp_path: Path, load_binary: Path
) -> None:
    out = tmp_path / "matrix.json"
    code = run_command(
        "matrix", "--servers", "gunicorn:app=tiny", "--rung", "db-raw", "-c", "2", *SHORT,
        "--json", str(out),
    )  # fmt: skip
    assert code == 0
    (cell,) = json.loads(out.read_text())["cells"]
    assert (cell["status"], cell["message"]) == ("not applicable", "not applicable to tiny")


def test_an_app_whose_framework_is_not_installed_names_the_pip_package(tmp_path: Path) -> None:
    module = tmp_path / "needs_framework.py"
    module.write_text("import nonexistent_framework\n")
    app = Application("needy", "needs_framework:application", None, "a test's")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LAYERBENCH_WSGI_APP_PATH", str(tmp_path))
        with pytest.raises(MissingPackageError) as raised:
            check_installed(app)
    assert str(raised.value) == (
        "nonexistent_framework (for the needy application) is not installed; "
        "install it with: pip install nonexistent_framework"
    )


def test_several_apps_on_the_full_ladder_share_its_seeded_services(
    monkeypatch: pytest.MonkeyPatch, workdir: Path, load_binary: Path
) -> None:
    """The site is seeded in PostgreSQL once, and each application's server reads it."""
    again = Application("bare-again", None, None, "the bare application, a second time")
    monkeypatch.setitem(APPLICATIONS, again.name, again)
    options = LadderOptions(
        duration_s=0.5,
        warmup_s=0.1,
        repeats=1,
        full=True,
        rungs=("orm",),
        apps=("bare", again.name),
    )
    result = run_ladder(workdir, load_binary, options)
    for rung in result.rungs:
        if rung.status is Status.SKIPPED:
            missing(rung.message or rung.rung)
    assert [(r.app, r.status, r.message) for r in result.rungs] == [
        ("bare", Status.OK, None),
        ("bare-again", Status.OK, None),
    ]
