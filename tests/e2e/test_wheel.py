"""`pip install layerbench` as a user does it: the wheel is built once (both programs in it),
installed into fresh venvs outside the clone by an unprivileged user, and every command that
reads the package's data runs there: the ladder on the embedded defaults, app serve (the page
and its style sheet), smoke in both measures, cost, results, report to HTML, a WSGI and an ASGI
framework application; the core install's size is printed and held to at most 15
distributions; a part whose extra is missing is refused naming it; and the CI recipe
(examples/ci/github-actions.yml) runs as written against a sample project: baseline saved,
then exit 0, then exit 1 for a 3x slower application."""

import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

import layerbench
from layerbench.proc.ports import free_port
from tests.conftest import missing

ROOT = Path(__file__).resolve().parent.parent.parent
# The unprivileged user the installed commands run as (created, as a system user, when the
# tests run as root; otherwise the tests' own user).
USER = "layerbench-ci"
CORE_LIMIT = 15
# What the wheel is built from: the project's own files, nothing of the clone's build state.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "layerbench/", "layerbench_sites/", "load/")
SHORT_RUN = ["-d", "0.3", "--warmup", "0", "--repeats", "1"]
STYLE_SHEET = ROOT / "layerbench_sites" / "app" / "templates" / "site" / "style.css"
RECIPE = ROOT / "examples" / "ci" / "github-actions.yml"
INSTALL_LINE = "pip install --quiet layerbench"
TIMEOUT_S = 600


@dataclass
class Account:
    """Who runs the installed commands, and the environment they run with."""

    uid: int
    gid: int
    home: Path
    prefix: list[str] = field(default_factory=list)
    pip_cache: Path | None = None

    def environment(self, venv: Path | None = None, **extra: str) -> dict[str, str]:
        path = [str(venv / "bin")] if venv else []
        return {
            "HOME": str(self.home),
            "PATH": os.pathsep.join([*path, str(self.home / "bin"), "/usr/bin", "/bin"]),
            "LANG": "C.UTF-8",
            "PIP_CACHE_DIR": str(self.pip_cache or self.home / "pip-cache"),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            **extra,
        }

    def run(
        self,
        argv: Sequence[str | Path],
        *,
        cwd: Path,
        venv: Path | None = None,
        timeout: float = TIMEOUT_S,
        env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.prefix, *map(str, argv)],
            cwd=cwd,
            env=env or self.environment(venv),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def own(self, path: Path) -> None:
        for item in [path, *path.rglob("*")]:
            os.chown(item, self.uid, self.gid, follow_symlinks=False)


@dataclass
class Venv:
    path: Path
    seconds: float
    distributions: list[str]
    size_mb: float

    def program(self, name: str) -> Path:
        return self.path / "bin" / name


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="layerbench-wheel-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def account(scratch: Path) -> Account:
    home = scratch / "home"
    (home / "bin").mkdir(parents=True)
    # setup-python's `python`, which Debian's python3 package does not provide.
    (home / "bin" / "python").symlink_to("/usr/bin/python3")
    if os.geteuid() != 0:
        return Account(os.getuid(), os.getgid(), home)
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
        )
        entry = pwd.getpwnam(USER)
    uid, gid = entry.pw_uid, entry.pw_gid
    account = Account(
        uid,
        gid,
        home,
        ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--"],
    )
    account.own(home)
    # pip's downloads kept for the next run of these tests (the installs are most of their time).
    cache = Path(tempfile.gettempdir()) / f"layerbench-wheel-pip-cache-{uid}"
    cache.mkdir(mode=0o700, exist_ok=True)
    if not cache.is_symlink() and cache.stat().st_uid in (0, uid):
        os.chown(cache, uid, gid)
        account.pip_cache = cache
    return account


@pytest.fixture(scope="module")
def wheel(scratch: Path) -> Path:
    """The wheel, built once from a copy of the project's files (the clone's build/ and
    egg-info are not read), reusing load/target's compiled crates."""
    cargo_bin = Path.home() / ".cargo" / "bin"
    path = os.pathsep.join([str(cargo_bin), os.environ.get("PATH", "")])
    if shutil.which("cargo", path=path) is None:
        missing("cargo is not installed: the wheel builds load/ (install Rust with rustup)")
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "--", *SOURCES],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    source = scratch / "source"
    for name in listed:
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    dist = scratch / "dist"
    env = {**os.environ, "PATH": path, "CARGO_TARGET_DIR": str(ROOT / "load" / "target")}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(source), "-w", dist],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (found,) = dist.glob("layerbench-*.whl")
    found.chmod(0o644)
    dist.chmod(0o755)
    return found


def make_venv(account: Account, scratch: Path, name: str, requirement: str) -> Venv:
    """A fresh venv on Debian's Python, ``requirement`` installed into it, all as the user."""
    path = scratch / "home" / name
    started = time.monotonic()
    made = account.run(["/usr/bin/python3", "-m", "venv", path], cwd=account.home)
    assert made.returncode == 0, made.stderr
    installed = account.run([path / "bin" / "pip", "install", "--quiet", requirement], cwd=path)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    seconds = time.monotonic() - started
    listing = account.run([path / "bin" / "pip", "list", "--format", "freeze"], cwd=path)
    size = sum(item.stat().st_size for item in path.rglob("*") if item.is_file())
    return Venv(path, seconds, listing.stdout.split(), size / 1e6)


@pytest.fixture(scope="module")
def frameworks_install(
    account: Account, scratch: Path, wheel: Path, request: pytest.FixtureRequest
) -> Iterator[Future[Venv] | None]:
    """The [flask,asgi] venv, installed in a thread beside the core's install and tests when a
    test of this run uses it: pip mostly waits on its cache and the disk, the core's tests on
    their servers."""
    if not any("frameworks" in getattr(item, "fixturenames", ()) for item in request.session.items):
        yield None
        return
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool.submit(make_venv, account, scratch, "frameworks", f"{wheel}[flask,asgi]")


@pytest.fixture(scope="module")
def core(
    account: Account,
    scratch: Path,
    wheel: Path,
    frameworks_install: Future[Venv] | None,
    recipe_install: "RecipeInstall | None",
) -> Venv:
    venv = make_venv(account, scratch, "core", str(wheel))
    print(
        f"\ncore install: {len(venv.distributions)} distributions, {venv.size_mb:.0f} MB, "
        f"{venv.seconds:.0f} s"
    )
    print("\n".join(venv.distributions))
    return venv


@pytest.fixture(scope="module")
def frameworks(frameworks_install: Future[Venv] | None) -> Venv:
    assert frameworks_install is not None  # started: this run has a test that uses it
    venv = frameworks_install.result()
    print(
        f"\n[flask,asgi] install: {len(venv.distributions)} distributions, "
        f"{venv.size_mb:.0f} MB, {venv.seconds:.0f} s"
    )
    return venv


@pytest.fixture
def work(account: Account, scratch: Path, request: pytest.FixtureRequest) -> Path:
    path = Path(tempfile.mkdtemp(prefix=request.node.name[:30] + "-", dir=account.home))
    account.own(path)
    return path


def test_the_wheel_has_both_programs_and_the_package_data(wheel: Path) -> None:
    listing = subprocess.run(
        [sys.executable, "-m", "zipfile", "-l", wheel], capture_output=True, text=True, check=True
    ).stdout
    data = "layerbench-" + layerbench.__version__ + ".data/scripts/layerbench-load"
    for name in (
        data,
        "layerbench/cost/callgrind_shim.c",
        "layerbench_sites/app/templates/site/style.css",
        "layerbench_sites/frameworks/zope_site/component.xml",
        "layerbench_sites/frameworks/pyramid_site/production.ini",
        "layerbench_sites/frameworks/templates/jinja_video.html",
    ):
        assert name in listing, name


def test_the_wheel_fits_every_python3_and_a_manylinux_platform(wheel: Path) -> None:
    # Its one compiled file is a program, not an extension module: no Python ABI in the tag.
    assert wheel.name.endswith("-py3-none-linux_x86_64.whl"), wheel.name
    shown = subprocess.run(
        [Path(sys.executable).parent / "auditwheel", "show", wheel],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert 'consistent with the\nfollowing platform tag: "manylinux_2_' in shown, shown


def test_the_core_install_is_at_most_15_distributions(core: Venv) -> None:
    names = {line.partition("==")[0].lower() for line in core.distributions}
    assert len(core.distributions) <= CORE_LIMIT, core.distributions
    assert {"layerbench", "gunicorn", "falcon", "sqlalchemy"} <= names
    assert not names & {"django", "flask", "zope", "psycopg", "pymysql", "redis", "uvloop"}


def test_both_programs_are_beside_each_other_of_one_version(core: Venv, account: Account) -> None:
    ours = account.run([core.program("layerbench"), "--version"], cwd=account.home)
    load = account.run([core.program("layerbench-load"), "--version"], cwd=account.home)
    assert ours.stdout == f"layerbench {layerbench.__version__}\n"
    assert load.stdout == f"layerbench-load {layerbench.__version__}\n"


@pytest.mark.parametrize(
    ("extra", "args"),
    [
        ("databases", ["ladder", "--full"]),
        ("servers", ["ladder", "--server", "granian"]),
        ("django", ["ladder", "--app", "django"]),
        ("flask", ["ladder", "--app", "flask"]),
        ("pyramid", ["matrix", "--servers", "gunicorn:app=pyramid"]),
        ("zope", ["writes", "--store", "zeo"]),
        ("asgi", ["ladder", "--server", "uvicorn", "--app", "starlette"]),
    ],
)
def test_the_core_refuses_a_part_of_an_extra(
    core: Venv, account: Account, work: Path, extra: str, args: list[str]
) -> None:
    done = account.run([core.program("layerbench"), *args], cwd=work, timeout=60)
    assert done.returncode == 2
    assert done.stderr.endswith(f"needs the {extra} extra: pip install 'layerbench[{extra}]'\n")
    assert done.stderr.count("\n") == 1


def test_ladder_report_and_results_on_the_embedded_defaults(
    core: Venv, account: Account, work: Path
) -> None:
    lb = core.program("layerbench")
    ladder = account.run([lb, "ladder", *SHORT_RUN, "--json", "ladder.json"], cwd=work)
    assert ladder.returncode == 0, ladder.stdout + ladder.stderr
    rungs = {row["rung"]: row for row in json.loads((work / "ladder.json").read_text())["rungs"]}
    for name in ("string", "cache", "db-raw", "orm", "template", "page", "cached-page", "write"):
        assert rungs[name]["status"] == "ok", rungs[name]
    report = account.run([lb, "report", "ladder.json", "-o", "report.html"], cwd=work)
    assert report.returncode == 0, report.stderr
    assert (work / "report.html").read_text().lstrip().lower().startswith("<!doctype html")
    listed = account.run([lb, "results", "list"], cwd=work)
    assert listed.returncode == 0 and "ladder" in listed.stdout, listed.stderr


def test_replicate_lists_its_published_experiments(
    core: Venv, account: Account, work: Path
) -> None:
    """Each experiment is a TOML file of package data (layerbench/replicate/experiments/)."""
    listed = account.run([core.program("layerbench"), "replicate", "--list"], cwd=work)
    assert listed.returncode == 0, listed.stderr
    names = [
        path.stem for path in (ROOT / "layerbench" / "replicate" / "experiments").glob("*.toml")
    ]
    assert names
    for name in names:
        assert f"{name} (a " in listed.stdout, name


def test_app_serve_answers_the_page_with_its_style_sheet(
    core: Venv, account: Account, work: Path
) -> None:
    port = free_port()
    argv = [core.program("layerbench"), "app", "serve", "--port", str(port), "--quiet"]
    server = subprocess.Popen(
        [*account.prefix, *map(str, argv)],
        cwd=work,
        env=account.environment(core.path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("serving http://"), line + server.stderr.read()
        base = line.split()[1].rstrip("/")
        with urllib.request.urlopen(base + "/", timeout=30) as page:
            assert page.status == 200
            html = page.read().decode()
        # The style sheet, package data, is in the page (the layout includes it).
        (style,) = re.findall(r"<style>(.*?)</style>", html, re.DOTALL)
        assert style.strip() == STYLE_SHEET.read_text().strip()
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()


def test_smoke_in_requests_per_second_and_cost(core: Venv, account: Account, work: Path) -> None:
    """smoke's instructions measure runs in the CI recipe's test below."""
    shutil.copytree(ROOT / "tests" / "smoke_apps", work / "apps")
    account.own(work / "apps")
    lb = core.program("layerbench")
    smoke = [lb, "smoke", "shop.wsgi:application", "--app-path", "apps", "--baseline", "b.json"]
    timing = ["-d", "0.3", "--warmup", "0", "--repeats", "5"]
    saved = account.run([*smoke, *timing, "--save"], cwd=work)
    assert saved.returncode == 0, saved.stdout + saved.stderr
    compared = account.run([*smoke, *timing], cwd=work)
    assert compared.returncode in (0, 1), compared.stdout + compared.stderr  # a verdict
    cost = account.run(
        [lb, "cost", "--rungs", "string,page", "--requests", "10", "--repeats", "1"], cwd=work
    )
    assert cost.returncode == 0, cost.stdout + cost.stderr
    assert "string" in cost.stdout and "page" in cost.stdout


@pytest.mark.parametrize(
    "args", [["--app", "flask"], ["--app", "starlette", "--server", "uvicorn"]], ids=str
)
def test_a_framework_application_of_each_kind(
    frameworks: Venv, account: Account, work: Path, args: list[str]
) -> None:
    # A second of warm-up: the async stack's first pages can take longer than a short trial.
    rungs = ["--rungs", "string,template,page", "-d", "1", "--warmup", "1", "--repeats", "1"]
    lb = frameworks.program("layerbench")
    ladder = account.run([lb, "ladder", *args, *rungs, "--json", "ladder.json"], cwd=work)
    assert ladder.returncode == 0, ladder.stdout + ladder.stderr
    rungs = json.loads((work / "ladder.json").read_text())["rungs"]
    statuses = {row["rung"]: row["status"] for row in rungs}
    assert statuses == {"string": "ok", "template": "ok", "page": "ok"}, statuses


def _recipe_steps() -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The workflow's environment, and its shell steps by name (what a runner runs)."""
    workflow = yaml.safe_load(RECIPE.read_text())
    (job,) = workflow["jobs"].values()
    steps = [(step["name"], step["run"]) for step in job["steps"] if "run" in step]
    return {k: str(v) for k, v in workflow["env"].items()}, steps


@dataclass
class Recipe:
    """The CI recipe's shell steps by name, run as a runner runs them, in the sample project."""

    account: Account
    wheel: Path
    project: Path
    steps: dict[str, str]
    env: dict[str, str]

    def run(self, name: str) -> subprocess.CompletedProcess[str]:
        script = self.steps[name].replace(INSTALL_LINE, f"pip install --quiet {self.wheel}")
        return self.account.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
            cwd=self.project,
            env=self.env,
        )

    def run_steps(self, *names: str) -> subprocess.CompletedProcess[str]:
        for name in names:
            done = self.run(name)
            print(f"\n$ {name} (exit {done.returncode})\n{done.stdout}{done.stderr}")
            if done.returncode:
                return done
        return done


RecipeInstall = tuple[Recipe, Future[subprocess.CompletedProcess[str]]]


@pytest.fixture(scope="module")
def recipe_install(
    account: Account, wheel: Path, request: pytest.FixtureRequest
) -> Iterator[RecipeInstall | None]:
    """The sample project, its recipe's install step (a fresh venv, the wheel installed) run in
    a thread beside the core's install and tests, as written, when this run has the recipe's
    test: its steps are then run in order, each after the one before, the install first."""
    if not any(
        "recipe_install" in getattr(item, "fixturenames", ()) for item in request.session.items
    ):
        yield None
        return
    environment, steps = _recipe_steps()
    work = Path(tempfile.mkdtemp(prefix="ci-recipe-", dir=account.home))
    shutil.copytree(ROOT / "tests" / "ci_project", work / "project")
    account.own(work)
    recipe = Recipe(
        account, wheel, work / "project", dict(steps), account.environment(None, **environment)
    )
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield recipe, pool.submit(recipe.run, "Install layerbench")


def test_the_ci_recipe_saves_passes_and_fails_a_3x_slower_app(
    recipe_install: RecipeInstall | None,
) -> None:
    assert recipe_install is not None  # started: this test is in the run
    recipe, install = recipe_install
    project = recipe.project
    app = project / "myapp" / "wsgi.py"
    assert INSTALL_LINE in recipe.steps["Install layerbench"]
    # The runner's sudo apt-get is this machine's set-up (valgrind is installed here).
    assert recipe.steps["System packages"].startswith("sudo apt-get")
    installed = install.result()
    assert installed.returncode == 0, installed.stdout + installed.stderr
    first = recipe.run_steps("Performance gate")
    assert first.returncode == 0
    assert (project / ".perf" / "baseline.json").is_file()
    assert "baseline saved" in (project / ".perf" / "smoke.txt").read_text()
    second = recipe.run_steps("Performance gate")
    assert second.returncode == 0
    app.write_text(app.read_text().replace("ROUNDS = 1000", "ROUNDS = 3000"))
    third = recipe.run_steps("Performance gate")
    assert third.returncode == 1
