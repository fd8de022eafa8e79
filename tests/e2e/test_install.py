"""What `pip install layerbench` promises, checked in this venv (tests/e2e/test_wheel.py checks it
from the built wheel in fresh venvs): the core imports without any extra, a part whose extra
is missing is refused in one line before anything starts, the load generator is found beside
layerbench first, and the two programs are of one version."""

import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

import layerbench
from layerbench import extras
from layerbench.cli.main import build_parser
from layerbench.errors import LoadGeneratorError
from layerbench.lab import loadgen

ROOT = Path(__file__).resolve().parent.parent.parent
# A child that hides the modules named in its first argument (their import, and find_spec,
# fail as in a venv without them), then runs layerbench with the rest, or imports modules.
HIDING = """
import importlib.abc, sys
HIDDEN = set(sys.argv[1].split(","))
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.partition(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Hide())
"""
RUN = HIDING + "from layerbench.cli.main import run\nsys.exit(run(sys.argv[2:]))\n"
IMPORT_ALL = (
    HIDING
    + """
import importlib, pkgutil
import layerbench, layerbench_sites
# Loaded by a server only (they configure themselves from its environment), or in a process of
# their own with their extra: not the core's to import.
RUN_TIME = ("entry", "__main__", "mod_python", "paste_main", "migrations.env",
            "writes_worker", "relstorage_mariadb")
failed = []
for package in (layerbench, layerbench_sites):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if ".frameworks." in module.name or any(part in module.name for part in RUN_TIME):
            continue
        try:
            importlib.import_module(module.name)
        except ImportError as error:
            failed.append(f"{module.name}: {error}")
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""
)
# Every extra's modules, as its pyproject.toml list installs them (top-level names).
EXTRA_MODULES = {
    "databases": "psycopg,pymysql,MySQLdb,pymemcache,redis",
    "servers": "granian,cheroot,paste",
    "django": "django",
    "flask": "flask",
    "pyramid": "pyramid,pyramid_chameleon,paste",
    "zope": "Zope2,ZEO,ZODB,relstorage,psycopg2",
    "asgi": "uvicorn,uvloop,httptools,hypercorn,daphne,uvicorn_worker,starlette,fastapi,"
    "pydantic,aiosqlite,aiomysql,psycopg_pool",
}
# The extras that bring a program, not a module: each, with the program.
EXTRA_PROGRAMS = {"profile": "py-spy"}
ALL_EXTRAS = ",".join(EXTRA_MODULES.values())
# A command choosing a part of each extra (and only that extra's, the others installed).
REFUSED = [
    ("databases", ["ladder", "--full"], "the memcached rung"),
    ("databases", ["app", "serve", "--cache", "redis://127.0.0.1:1"], "--cache redis://"),
    ("databases", ["services", "up", "postgres"], "the postgres service"),
    ("servers", ["ladder", "--server", "granian"], "the granian server"),
    ("servers", ["matrix", "--servers", "gunicorn,cheroot"], "the cheroot server"),
    ("django", ["ladder", "--app", "django"], "the django application"),
    ("flask", ["cost", "--app", "flask"], "the flask application"),
    ("pyramid", ["matrix", "--servers", "gunicorn:app=pyramid"], "the pyramid application"),
    ("zope", ["ladder", "--app", "zope"], "the zope application"),
    ("zope", ["writes", "--store", "filestorage"], "the filestorage store"),
    ("asgi", ["ladder", "--server", "uvicorn", "--app", "starlette"], "the uvicorn server"),
    ("asgi", ["ladder", "--apps", "bare,fastapi"], "the fastapi application"),
    ("asgi", ["ladder", "--rungs", "string,upstream"], "the upstream rung"),
]


def run_hiding(hidden: str, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN, hidden, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        check=False,
    )


def test_every_instrument_and_bare_site_module_imports_without_any_extra() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, ALL_EXTRAS],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


@pytest.mark.parametrize(
    ("extra", "args", "what"), REFUSED, ids=[f"{e}-{' '.join(a)}" for e, a, _ in REFUSED]
)
def test_a_part_whose_extra_is_missing_is_refused_in_one_line(
    extra: str, args: list[str], what: str, tmp_path: Path
) -> None:
    completed = run_hiding(EXTRA_MODULES[extra], args, tmp_path)
    assert completed.returncode == 2, completed.stderr
    assert completed.stdout == ""
    assert completed.stderr == (
        f"layerbench: error: {what} needs the {extra} extra: pip install 'layerbench[{extra}]'\n"
    )
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing written


@pytest.mark.parametrize(("extra", "args", "what"), REFUSED[:1] + REFUSED[3:4] + REFUSED[5:6])
def test_with_its_extra_installed_the_check_passes(extra: str, args: list[str], what: str) -> None:
    extras.check_command(build_parser().parse_args(args))


def test_the_core_s_parts_need_no_extra(tmp_path: Path) -> None:
    """The embedded defaults under gunicorn, smoke on the user's application, app serve on
    SQLite and the in-process cache: with every extra hidden, none is refused."""
    for args in (
        ["ladder"],
        ["ladder", "--rungs", "string,cache,db-raw,orm,template,page,cached-page,write"],
        ["smoke", "shop.wsgi:application", "--baseline", "b.json", "--server", "gunicorn"],
        ["app", "serve", "--db", "site.db", "--cache", "local"],
        ["cost", "--app", "bare"],
        ["matrix", "--servers", "gunicorn,gunicorn-gthread,uwsgi,nginx-static"],
        ["writes", "--store", "site-postgres"],
    ):
        named = extras.named_by(build_parser().parse_args(args))
        if args[0] == "writes":
            assert named.stores == ["site-postgres"]
            continue
        for server in named.servers:
            assert extras.SERVERS.get(server, ()) == (), server
        assert all(app == "bare" for app in named.apps)


def test_installed_finds_submodules_without_importing_them() -> None:
    assert extras.installed("json.decoder")
    assert not extras.installed("json.no_such_module")
    assert not extras.installed("no_such_package.anything")
    code = "from layerbench.extras import installed; import sys; installed('flask.json'); "
    code += "print('flask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_extra_of_pyproject_is_named_by_the_table() -> None:
    """extras.py's extras are pyproject.toml's (a renamed extra would name a wrong pip
    install)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = set(project["optional-dependencies"])
    tables = (extras.SERVERS, extras.APPLICATIONS, extras.SERVICES, extras.STORES)
    used = {need.extra for table in tables for needs in table.values() for need in needs}
    assert used <= declared
    assert set(EXTRA_MODULES) | set(EXTRA_PROGRAMS) == declared - {"all", "dev"}


def test_a_program_whose_extra_is_missing_is_refused_in_one_line(tmp_path: Path) -> None:
    """py-spy neither beside the interpreter nor on PATH: --profile names the extra."""
    python = tmp_path / "bin" / "python3"
    python.parent.mkdir()
    python.symlink_to(sys.executable)
    completed = subprocess.run(
        [str(python), "-c", "from layerbench.profile.pyspy_record import find_py_spy; "
         "from layerbench.errors import LayerbenchError\n"
         "try:\n    find_py_spy()\nexcept LayerbenchError as error:\n    print(error)"],
        capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": str(tmp_path / "bin"), "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.splitlines() == [
        "--profile (py-spy) needs the profile extra: pip install 'layerbench[profile]'"
    ]


def test_the_versions_agree() -> None:
    """layerbench.__version__ is the package metadata's and load/Cargo.toml's."""
    assert importlib.metadata.version("layerbench") == layerbench.__version__
    cargo = tomllib.loads((ROOT / "load" / "Cargo.toml").read_text())
    assert cargo["package"]["version"] == layerbench.__version__


def test_both_programs_print_that_version() -> None:
    bin_dir = Path(sys.executable).parent
    ours = subprocess.run(
        [bin_dir / "layerbench", "--version"], capture_output=True, text=True, check=True
    )
    assert ours.stdout == f"layerbench {layerbench.__version__}\n"
    load = subprocess.run(
        [loadgen.find_load_generator(), "--version"], capture_output=True, text=True, check=True
    )
    assert load.stdout == f"layerbench-load {layerbench.__version__}\n"


def _program(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_the_load_generator_beside_layerbench_comes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    beside = _program(tmp_path / "venv" / "bin" / loadgen.BINARY)
    named = _program(tmp_path / "elsewhere" / loadgen.BINARY)
    on_path = _program(tmp_path / "path" / loadgen.BINARY)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "venv" / "bin" / "python"))
    monkeypatch.setattr(sys, "argv", ["pytest"])
    monkeypatch.setenv(loadgen.BINARY_VARIABLE, str(named))
    monkeypatch.setenv("PATH", str(on_path.parent))
    assert loadgen.find_load_generator() == beside
    beside.unlink()
    assert loadgen.find_load_generator() == named
    monkeypatch.delenv(loadgen.BINARY_VARIABLE)
    assert loadgen.find_load_generator() == on_path


def test_beside_the_running_layerbench_script_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pipx links the script into ~/.local/bin: the venv it points into has the binary."""
    script = _program(tmp_path / "venv" / "bin" / "layerbench")
    beside = _program(tmp_path / "venv" / "bin" / loadgen.BINARY)
    link = tmp_path / "local-bin" / "layerbench"
    link.parent.mkdir()
    link.symlink_to(script)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python" / "bin" / "python3"))
    monkeypatch.setattr(sys, "argv", [str(link), "smoke"])
    monkeypatch.delenv(loadgen.BINARY_VARIABLE, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert loadgen.find_load_generator() == beside


def test_where_it_is_truly_absent_the_error_says_the_three_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "bin" / "python"))
    monkeypatch.setattr(sys, "argv", ["pytest"])
    monkeypatch.delenv(loadgen.BINARY_VARIABLE, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(LoadGeneratorError) as raised:
        loadgen.find_load_generator()
    message = str(raised.value)
    assert "\n" not in message
    assert "pip install layerbench" in message
    assert "cargo install --path load" in message
    assert "$LAYERBENCH_LOAD" in message
    assert "make demo" not in message
    assert os.environ["PATH"] == str(tmp_path)


def _gate_commands(script: str) -> list[str]:
    """The smoke commands of a CI recipe's script, one line each."""
    joined = script.replace("\\\n", " ")
    return [" ".join(line.split()) for line in joined.splitlines() if "layerbench smoke" in line]


def test_the_gitlab_recipe_runs_the_github_recipe_s_gate() -> None:
    """tests/e2e/test_wheel.py runs the GitHub recipe's steps; the GitLab one has the same gate."""
    github = yaml.safe_load((ROOT / "examples" / "ci" / "github-actions.yml").read_text())
    gitlab = yaml.safe_load((ROOT / "examples" / "ci" / "gitlab-ci.yml").read_text())
    (job,) = github["jobs"].values()
    (gate,) = [step["run"] for step in job["steps"] if step.get("name") == "Performance gate"]
    commands = _gate_commands(gate)
    assert len(commands) == 2
    assert _gate_commands("\n".join(gitlab["perf"]["script"])) == commands
    assert ".venv/bin/pip install --quiet layerbench" in gitlab["perf"]["before_script"]
    assert gitlab["perf"]["variables"]["APP"] == github["env"]["APP"]
