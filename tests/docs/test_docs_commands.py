"""Every command in README.md and docs/ runs as pasted from the repository root after `make demo`.

The commands are read from the ```sh blocks of the README and of every page in docs/
(tests/doc_commands.py) and run in their order, in a directory that stands for the repository
root after `make demo`: `.venv` linked to the real one, `layerbench` and `layerbench-load` the
ones in it (as on a user's PATH after `pip install layerbench`), and the demo's `ladder.json`
and first stored run made by a short ladder. Only what no paste can carry is changed, and said
here:
- the lab's commands are made short (`-d`, `--warmup`, `--repeats` appended: argparse keeps the
  last value), since the documentation's durations are for measuring, not for testing; so are
  the load generator's (its `-t` and `--warmup` values replaced: it refuses an option given
  twice);
- the URLs of services the examples assume are running (PostgreSQL, Redis) are those of
  throwaway instances that this test starts, and `/srv/pages` is a temporary directory;
- `layerbench-load` finds nginx serving `hello.txt` on the example's port;
- the commands that serve until Ctrl-C (`app serve`, `services up`) are read until they say they
  serve, asked for a page, then sent SIGINT;
- `pip install layerbench[EXTRA]` is checked, not run: every extra it names is one the
  installed distribution declares;
- the commands in PARSED_ONLY (long experiments, or ones that need root and network namespaces)
  are parsed by layerbench's own argument parser, each with the reason it is not run.
A command that this test does not know how to run fails it: a new command gets a case here, so
the documentation never shows a command that was not run.
"""

import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from importlib.metadata import metadata
from itertools import pairwise
from pathlib import Path

import pytest

from layerbench.cli.main import build_parser
from layerbench.rungs.definitions import STATIC_FILE
from layerbench.servers.nginx import NginxStatic
from layerbench.services.service import ManagedService
from tests.conftest import start_service
from tests.doc_commands import DocCommand, doc_commands, documents, shell_block_languages
from tests.session_process import in_own_session, interrupt

pytestmark = pytest.mark.services

REPOSITORY = Path(__file__).resolve().parent.parent.parent
COMMANDS = doc_commands()
LAYERBENCH = ".venv/bin/layerbench"
LOAD = ".venv/bin/layerbench-load"
# What a user types, after `pip install layerbench` or with the clone's .venv/bin on PATH.
PROGRAMS = {"layerbench": LAYERBENCH, "layerbench-load": LOAD, LAYERBENCH: LAYERBENCH, LOAD: LOAD}
# Appended to the lab's commands; each of these is its command's own option.
SHORT = {
    "ladder": ("-d", "0.5", "--warmup", "0", "--repeats", "1"),
    "mix": ("-d", "0.5", "--warmup", "0", "--repeats", "2"),
    "matrix": ("-d", "0.5", "--warmup", "0", "--repeats", "1"),
    "smoke": ("-d", "0.5", "--warmup", "0", "--repeats", "2"),
    # smoke --measure instructions counts requests, and refuses the req/s run's -d and --warmup.
    "smoke-instructions": ("--repeats", "2"),
    "cost": ("--requests", "10", "--warmup", "2", "--repeats", "1"),
    "writes": ("--objects", "100", "--commits", "20", "--repeats", "1", "--writers", "1"),
}
# The load generator's timed options, each with the value it is run with here.
LOAD_SHORT = {"-t": "1", "--time-limit": "1", "--warmup": "0"}
# Commands checked by the argument parser only, not run: a pattern of the command as written,
# and why.
PARSED_ONLY = (
    (r"--topology|^layerbench (cluster|hosts) ", "needs root and makes network namespaces"),
    (r"--concurrency [0-9,]*[0-9]{4}", "thousands of connections: minutes, not a test"),
    (r"^layerbench replicate (?!--list)", "a published experiment's own durations: minutes"),
    (r"--full .*--server mod_wsgi|--server mod_wsgi.*--full", "Apache and four services"),
    (r"^layerbench ladder .*--instructions", "its counting pass is `layerbench cost`'s, run short"),
    (r"^layerbench (matrix|ladder) .*--measure |--served", "every server process under callgrind"),
    (r"^layerbench smoke .*--against ", "checks out a git ref of the project; the root is none"),
    (r"--until-decided", "adds passes until every comparison is decided: up to --max-time"),
)
# The set-up commands themselves: CI runs `make test`; the fixture stands in for `make demo`.
SETUP = {("make", "demo"), ("make", "test"), ("make", "test-wide"), ("make", "docs")}
COMMAND_TIMEOUT_S = 240
SERVE_TIMEOUT_S = 60
SMOKE_APP = '''"""The README's example application for `layerbench smoke`."""


def application(environ, start_response):
    body = b"hello from myproject\\n"
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
'''


def _shortened_as(argv: list[str]) -> str:
    """The key of SHORT for a lab command: its name, or smoke's counting form."""
    counting = any(
        word == "--measure" and after == "instructions" for word, after in pairwise(argv)
    )
    return "smoke-instructions" if argv[1] == "smoke" and counting else argv[1]


@dataclass
class Root:
    """The stand-in for the repository root after `make demo`."""

    path: Path
    environment: dict[str, str]
    urls: dict[str, str]  # the README's example URL of a kind -> the running instance's

    def argv(self, command: DocCommand) -> list[str]:
        argv = [self.substitute(word) for word in command.argv]
        argv[0] = PROGRAMS.get(argv[0], argv[0])
        if argv[0] == LAYERBENCH and len(argv) > 1 and argv[1] in SHORT:
            argv += SHORT[_shortened_as(argv)]
        if argv[0] == LOAD:
            argv = [
                LOAD_SHORT.get(before, word)
                for before, word in zip(["", *argv[:-1]], argv, strict=True)
            ]
        return argv

    def substitute(self, word: str) -> str:
        for kind, url in self.urls.items():
            word = re.sub(rf"{kind}://[^ ]+", url, word)
        return word.replace("/srv/pages", str(self.path / "pages"))

    def run(self, argv: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv,
            cwd=self.path,
            env=self.environment,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
        )


@pytest.fixture(scope="module")
def services() -> Iterator[dict[str, ManagedService]]:
    started: dict[str, ManagedService] = {}
    try:
        for name in ("postgres", "redis"):
            started[name] = start_service(name)
        yield started
    finally:
        for service in started.values():
            service.stop()


@pytest.fixture(scope="module")
def root(services: dict[str, ManagedService]) -> Iterator[Root]:
    # Traversable by all, as a clone in a home or /srv is: nginx's unprivileged workers read
    # the page-cache directory below it.
    path = Path(tempfile.mkdtemp(prefix="layerbench-readme-"))
    path.chmod(0o711)
    (path / ".venv").symlink_to(REPOSITORY / ".venv")
    (path / "myproject").mkdir()
    (path / "myproject" / "__init__.py").write_text("")
    (path / "myproject" / "wsgi.py").write_text(SMOKE_APP)
    environment = {
        **os.environ,
        "LAYERBENCH_RESULTS_DB": str(path / "results.sqlite3"),
        "NO_COLOR": "1",
    }
    urls = {
        "postgresql": services["postgres"].url,
        "redis": services["redis"].url,
    }
    made = Root(path, environment, urls)
    demo = made.run([LAYERBENCH, "ladder", "--json", "ladder.json", *SHORT["ladder"]])
    assert demo.returncode == 0, demo.stderr
    yield made
    shutil.rmtree(path, ignore_errors=True)


@contextmanager
def nginx_where_sent(command: DocCommand, directory: Path) -> Iterator[None]:
    """nginx serving hello.txt (and /) on the port a load generator example sends to."""
    ports = sorted({int(port) for port in re.findall(r"127\.0\.0\.1:(\d+)", command.text)})
    servers = [
        NginxStatic(directory / str(port), port, {STATIC_FILE: b"Hello world!\n"}) for port in ports
    ]
    try:
        for server in servers:
            (server.workdir / "htdocs").mkdir(parents=True)
            (server.workdir / "htdocs" / "index.html").write_text("index\n")
            server.start()
        yield
    finally:
        for server in servers:
            server.stop()


def serve_until_interrupted(root: Root, argv: list[str]) -> None:
    """Start a command that serves until Ctrl-C, wait for its URL, fetch it, interrupt it."""
    with in_own_session(argv, cwd=root.path, env=root.environment) as process:
        # services up prints a URL a service, each once it answers: Ctrl-C after all of them,
        # as a user who read them would (a Ctrl-C within a start is tested elsewhere).
        count = len(argv) - 3 if argv[1:3] == ["services", "up"] else 1
        urls = first_urls(process, count)
        url = urls[0] if len(urls) == count else None
        if url is not None and url.startswith("http"):
            with urllib.request.urlopen(url, timeout=10) as response:
                assert response.status == 200
        errors = interrupt(process, timeout_s=30)
    assert url is not None, f"{argv}: no URL printed\n{errors}"
    assert process.returncode in (0, 130), errors
    assert "Traceback" not in errors, errors


def first_urls(process: "subprocess.Popen[str]", count: int) -> list[str]:
    """The first ``count`` URLs the process prints on stdout within the time allowed (fewer
    when it ends first)."""
    assert process.stdout is not None
    deadline = time.monotonic() + SERVE_TIMEOUT_S
    found: list[str] = []
    while len(found) < count and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        match = re.search(r"(https?|redis|postgresql|mysql|memcached)://\S+", line)
        if match:
            found.append(match.group(0))
    return found


def expected_statuses(argv: list[str]) -> tuple[int, ...]:
    # A smoke check on a short run may find the application slower than its baseline (1).
    if argv[1:2] == ["smoke"] and "--save" not in argv:
        return (0, 1)
    return (0,)


@pytest.mark.parametrize("command", COMMANDS, ids=[f"{c.path}:{c.line}" for c in COMMANDS])
def test_documented_command_runs_as_pasted(command: DocCommand, root: Root, workdir: Path) -> None:
    if command.argv[:2] in SETUP:
        pytest.skip("the set-up command itself: CI runs make test, the fixture a short demo")
    if command.argv[:2] == ("pip", "install"):
        check_pip_install(command)
        return
    if reason := parsed_only(command):
        check_parses(command)
        pytest.skip(f"parsed, not run: {reason}")
    if (first := RAN.get(command.argv)) is not None:
        assert first.passed, f"{command}: failed as {first.where}"
        pytest.skip(f"the same command as {first.where}, run there")
    RAN[command.argv] = Ran(str(command), passed=False)
    argv = root.argv(command)
    known = argv[0] in (LAYERBENCH, LOAD)
    assert known, f"{command}: this test does not know how to run it; give it a case"
    if argv[1:3] in (["app", "serve"], ["services", "up"]):
        serve_until_interrupted(root, argv)
        RAN[command.argv].passed = True
        return
    with nginx_where_sent(command, workdir) if argv[0] == LOAD else nullcontext():
        done = root.run(argv)
    assert done.returncode in expected_statuses(argv), (
        f"{command}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )
    assert "Traceback" not in done.stderr, done.stderr
    RAN[command.argv].passed = True


@dataclass
class Ran:
    """A command already run by this module, where it appears first, and how it went."""

    where: str
    passed: bool


# The same command shown on several pages is run once, where it appears first.
RAN: dict[tuple[str, ...], Ran] = {}


def parsed_only(command: DocCommand) -> str | None:
    text = " ".join(command.argv).removeprefix(".venv/bin/")
    for pattern, reason in PARSED_ONLY:
        if re.search(pattern, text):
            return reason
    return None


def check_parses(command: DocCommand) -> None:
    """The command line is one layerbench accepts: its parser exits on any wrong option."""
    assert PROGRAMS.get(command.argv[0]) == LAYERBENCH, f"{command}: not a layerbench command"
    try:
        build_parser().parse_args(list(command.argv[1:]))
    except SystemExit as exited:
        pytest.fail(f"{command}: layerbench's parser refused it (exit {exited.code})")


def check_pip_install(command: DocCommand) -> None:
    """`pip install layerbench` and its extras: each extra named is one the package declares."""
    declared = set(metadata("layerbench").get_all("Provides-Extra") or [])
    requirements = [word for word in command.argv[2:] if not word.startswith("-")]
    assert requirements, f"{command}: installs nothing"
    for requirement in requirements:
        match = re.fullmatch(r"layerbench(?:\[([a-z,-]+)\])?", requirement)
        assert match, f"{command}: {requirement} is not layerbench or one of its extras"
        extras = set(match.group(1).split(",")) if match.group(1) else set()
        assert extras <= declared, f"{command}: no such extra {extras - declared}"


def test_the_docs_have_commands() -> None:
    names = {c.argv[1] for c in COMMANDS if PROGRAMS.get(c.argv[0]) == LAYERBENCH}
    assert {"ladder", "matrix", "mix", "smoke", "results", "report", "app"} <= names, names


def test_every_code_block_says_its_language() -> None:
    """A block with no language, or a shell's under another name, would be neither run nor
    exempt: commands go in sh blocks (run), the rest says what it is (text for output, toml,
    yaml, json)."""
    unrun = [
        f"{path.relative_to(REPOSITORY)}:{line}: {language or 'no language'}"
        for path in documents()
        for line, language in shell_block_languages(path)
        if language in ("", "bash", "shell", "console", "shell-session", "zsh")
    ]
    assert not unrun, f"code blocks that would not be run: {unrun}"
