"""The Rails application (``rails_site/``, issue 24) under its two Ruby servers, for real: Apache
+ Passenger and puma, each started once for the module on the site layerbench seeds (SQLite).

Every rung it answers is verified by its definition (the template byte for byte); the cached
page is a file in ``public/`` that the front answers without the Rails application; a comment
posted is the rows the project's repository writes (short id, ids registry, the audit history
with its actor) and the sweeper removes the page's file, also when the comment is written
outside a request; Passenger's processes (its watchdog leaves Apache's process group) and
puma's are gone after a stop, an interrupted run included; the sampler counts the Ruby
processes in the server's role; and the wrong pairings are refused in one line."""

import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.errors import ConfigError, MissingPackageError
from layerbench.lab.sampler import Sampler
from layerbench.ladder.options import LadderOptions
from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.proc.ports import free_port
from layerbench.proc.sessions import sessions_below
from layerbench.rungs.applications import RAILS
from layerbench.rungs.definitions import APPLICATION_RUNGS, PAGE, Rung
from layerbench.rungs.rung_data import PAGE_VIDEO_PRETTYID, WRITE_VIDEO_PRETTYID
from layerbench.servers.adapters import ADAPTERS, ServerPlan
from layerbench.servers.passenger import PassengerServer
from layerbench.servers.puma import PumaServer
from layerbench_sites.app.app_config import DATABASE_URL_VARIABLE
from layerbench_sites.app.ladder_data import AppData, prepare_app_data
from layerbench_sites.ids.codec import decode
from tests.app_server import Client, Reply
from tests.cli_lines import said
from tests.conftest import missing
from tests.proc_scan import session_members

RailsServer = PassengerServer | PumaServer
RAILS_RUNGS = [rung for rung in APPLICATION_RUNGS if RAILS.answers_rung(rung.name)]
SERVERS = ("passenger", "puma")
# Small pools: each server boots Rails in every process it runs.
SETTINGS = {
    "passenger": {"passenger": {"pool_size": "2", "min_instances": "2"}},
    "puma": {"puma": {"workers": "2", "threads": "2"}},
}


def build(name: str, root: Path, data: AppData, book: dict[str, dict[str, str]]) -> RailsServer:
    plan = ServerPlan(
        workdir=root / name,
        port=free_port(),
        db_path=data.db_path,
        static_files={},
        book=book,
        app_environment=data.environment,
    )
    try:
        deployment = ADAPTERS[name].build(plan)
    except MissingPackageError as error:
        missing(str(error))
        raise AssertionError("unreachable") from error
    assert isinstance(deployment, (PassengerServer, PumaServer))
    return deployment


@pytest.fixture(scope="module")
def module_root() -> Iterator[Path]:
    """As conftest's workdir, for the module: Passenger's Ruby and Apache run as nobody."""
    path = Path(tempfile.mkdtemp(prefix="layerbench-test-rails-"))
    path.chmod(0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def site(module_root: Path) -> AppData:
    return prepare_app_data(module_root / "data")


@pytest.fixture(scope="module")
def servers(module_root: Path, site: AppData) -> Iterator[dict[str, RailsServer]]:
    root = module_root
    started: dict[str, RailsServer] = {}
    try:
        for name in SERVERS:
            started[name] = build(name, root, site, SETTINGS[name])
            started[name].start()
        yield started
    finally:
        for deployment in started.values():
            deployment.stop()


def client(deployment: RailsServer) -> Client:
    return Client(int(deployment.base_url.rsplit(":", 1)[1]))


def ask(deployment: RailsServer, rung: Rung) -> Reply:
    headers = {"Content-Type": rung.content_type} if rung.content_type else {}
    return client(deployment).request(rung.method, rung.path, raw=rung.body, headers=headers)


def public_dir(deployment: RailsServer) -> Path:
    return deployment.app_root / "public"


def site_rows(site: AppData, query: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(site.environment[DATABASE_URL_VARIABLE]) as connection:
        return connection.execute(query, args).fetchall()


@pytest.mark.parametrize("name", SERVERS)
@pytest.mark.parametrize("rung", RAILS_RUNGS, ids=lambda rung: rung.name)
def test_every_rung_answers_as_its_definition_says(
    servers: dict[str, RailsServer], name: str, rung: Rung
) -> None:
    reply = ask(servers[name], rung)
    assert rung.accepts(reply.status, reply.body), (reply.status, reply.body[:300])


@pytest.mark.parametrize("name", SERVERS)
def test_the_cached_page_is_a_file_the_front_answers(
    servers: dict[str, RailsServer], site: AppData, name: str
) -> None:
    deployment = servers[name]
    # By its short id: a page of its own (the rung's, by pretty id, may be kept already).
    ((short_id,),) = site_rows(
        site, "SELECT id FROM videos WHERE prettyid = ?", PAGE_VIDEO_PRETTYID
    )
    page_file = public_dir(deployment) / "v" / f"{short_id}.html"
    assert not page_file.exists()
    built = client(deployment).request("GET", f"/v/{short_id}")
    assert built.status == 200 and PAGE.accepts(built.status, built.body)
    assert page_file.read_bytes() == built.body
    kept = client(deployment).request("GET", f"/v/{short_id}")
    assert (kept.status, kept.body) == (200, built.body)
    # Rails' controllers time every request they run (X-Runtime); the file is answered before.
    assert "x-runtime" in built.headers
    assert "x-runtime" not in kept.headers


@pytest.mark.parametrize("name", SERVERS)
def test_a_comment_is_the_repositorys_rows_and_sweeps_the_page(
    servers: dict[str, RailsServer], site: AppData, name: str
) -> None:
    deployment = servers[name]
    page = f"/v/{WRITE_VIDEO_PRETTYID}"
    page_file = public_dir(deployment) / "v" / f"{WRITE_VIDEO_PRETTYID}.html"
    assert client(deployment).request("GET", page).status == 200
    assert page_file.exists()
    body = f"a comment through {name}"
    reply = client(deployment).request(
        "POST",
        f"/videos/{WRITE_VIDEO_PRETTYID}/comments",
        {"name": "tester", "body": body},
        headers={"X-Layerbench-User": "tester"},
    )
    assert reply.status == 201, reply.body
    comment = reply.json()
    assert comment["body"] == body and comment["name"] == "tester"
    decode(comment["id"])  # a version-0 short id
    assert reply.headers["location"] == f"/videos/{comment['video_id']}/comments/{comment['id']}"
    assert not page_file.exists(), "the sweeper left the page"
    assert body.encode() in client(deployment).request("GET", page).body
    assert site_rows(site, "SELECT kind FROM ids WHERE id = ?", comment["id"]) == [("comments",)]
    history = site_rows(
        site, "SELECT operation, actor FROM history WHERE row_key = ?", comment["id"]
    )
    assert history == [("insert", "tester@127.0.0.1")]


def test_bad_comments_are_answered_as_the_api_answers(servers: dict[str, RailsServer]) -> None:
    web = client(servers["puma"])
    comments = f"/videos/{WRITE_VIDEO_PRETTYID}/comments"
    assert (
        web.request("POST", comments, raw=b"x", headers={"Content-Type": "text/plain"}).status
        == 415
    )
    assert web.request("POST", comments, raw=b"{").status == 400
    assert web.request("POST", comments, {"name": "x"}).status == 422
    assert (
        web.request("POST", "/videos/no-such-video/comments", {"name": "x", "body": "y"}).status
        == 404
    )


def test_the_sweeper_runs_outside_a_request(servers: dict[str, RailsServer], site: AppData) -> None:
    deployment = servers["passenger"]
    page = f"/v/{WRITE_VIDEO_PRETTYID}"
    assert client(deployment).request("GET", page).status == 200
    page_file = public_dir(deployment) / "v" / f"{WRITE_VIDEO_PRETTYID}.html"
    assert page_file.exists()
    # A script, as a console would: no controller, the observer fires all the same.
    script = (
        'require "./config/environment"; '
        f'video = Video.named("{WRITE_VIDEO_PRETTYID}"); '
        'CommentWriter.new(video, {"name" => "script", "body" => "outside"}, "script").write'
    )
    app_root = deployment.app_root
    environment = {**deployment.environment(), "HOME": str(app_root)}
    completed = subprocess.run(
        ["ruby", "-e", script], cwd=app_root, env=environment,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert not page_file.exists(), "the sweeper left the page"
    assert b"outside" in client(deployment).request("GET", page).body


def test_the_sampler_counts_passengers_ruby_processes(servers: dict[str, RailsServer]) -> None:
    deployment = servers["passenger"]
    sampler = Sampler(deployment.roles()).start()
    for _ in range(20):
        assert client(deployment).request("GET", "/ladder/orm").status == 200
    usage = sampler.stop()
    front = {process.name for process in usage.roles["front"].processes}
    server = {process.name for process in usage.roles["server"].processes}
    assert front == {"apache2"}
    # Passenger's watchdog and core (one program), and its Ruby processes.
    assert "PassengerAgent" in server and "ruby" in server, server
    ruby = [p for p in usage.roles["server"].processes if p.name == "ruby"]
    assert sum(p.cpu_s for p in ruby) > 0 and all(p.rss_bytes > 0 for p in ruby)


@pytest.mark.parametrize(
    "name",
    # puma keeps its processes in its group, as every adapter's test_adapters checks: wide.
    ["passenger", pytest.param("puma", marks=pytest.mark.wide)],
)
def test_an_interrupted_run_leaves_no_process(workdir: Path, site: AppData, name: str) -> None:
    with pytest.raises(KeyboardInterrupt):
        deployment = build(name, workdir, site, SETTINGS[name])
        with deployment:
            sessions = {deployment.session, *sessions_below(deployment.session)}
            assert session_members(sessions)
            raise KeyboardInterrupt
    assert session_members(sessions) == []


def test_wrong_pairings_are_refused_before_anything_starts() -> None:
    with pytest.raises(
        ConfigError, match="rails is a RACK application: choose one of passenger, puma"
    ):
        LadderOptions(server="gunicorn", apps=("rails",))
    with pytest.raises(ConfigError, match="passenger runs RACK applications, and django is a WSGI"):
        MatrixOptions((Column.parse("passenger:app=django", {}),), concurrency=(1,))
    with pytest.raises(ConfigError, match=r"passenger\.tuning is one of none, seed"):
        ADAPTERS["passenger"].build(
            ServerPlan(
                Path("/nonexistent"), 1, Path("/nonexistent"), {}, {"passenger": {"tuning": "fast"}}
            )
        )


def test_the_command_line_says_so_in_one_line() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "ladder", "--app", "rails",
         "--server", "waitress"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (completed.returncode, completed.stdout) == (2, "")
    assert said(completed.stderr).splitlines() == [
        "layerbench: error: waitress runs WSGI applications, and rails is a RACK application: "
        "choose one of passenger, puma"
    ]
