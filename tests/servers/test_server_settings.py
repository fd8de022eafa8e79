"""``--set SERVER.KEY=VALUE``: parsed, typed by the adapter's settings, and refused with a
message naming what is known when it is wrong."""

from pathlib import Path

import pytest

from layerbench.errors import ConfigError, MissingPackageError
from layerbench.servers.adapters import ADAPTERS, ServerPlan, find_adapter
from layerbench.servers.apache import ApacheSettings
from layerbench.servers.granian_asgi import GranianAsgiSettings
from layerbench.servers.gunicorn import GunicornSettings
from layerbench.servers.mod_wsgi import ModWsgiDaemonSettings
from layerbench.servers.server_settings import (
    add_assignments,
    check_sections,
    parse_assignment,
    read_section,
)


def test_assignments_parse_into_sections() -> None:
    book = add_assignments(
        {}, ["mod_wsgi-daemon.processes=2", "apache.mpm=prefork", "mod_wsgi-daemon.threads= 10"]
    )
    assert book == {
        "mod_wsgi-daemon": {"processes": "2", "threads": "10"},
        "apache": {"mpm": "prefork"},
    }
    assert parse_assignment("threads=4", default_section="uwsgi") == ("uwsgi", "threads", "4")
    assert add_assignments(book, ["apache.mpm=worker"])["apache"] == {"mpm": "worker"}
    assert book["apache"] == {"mpm": "prefork"}  # the book given is not changed


@pytest.mark.parametrize("text", ["processes", "=2", ".processes=2", "mod_wsgi-daemon.=2"])
def test_malformed_assignment_is_refused(text: str) -> None:
    with pytest.raises(ConfigError, match=r"SERVER\.KEY=VALUE"):
        parse_assignment(text)


def test_settings_are_typed_and_defaults_kept() -> None:
    book = {"mod_wsgi-daemon": {"processes": "3", "preload": "off"}}
    settings = read_section(ModWsgiDaemonSettings, book, "mod_wsgi-daemon")
    assert settings == ModWsgiDaemonSettings(processes=3, threads=15, preload=False)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"procs": "2"}, r"has no setting procs; did you mean processes\?"),
        ({"zzz": "2"}, r"has no setting zzz; its settings are: .*processes"),
        ({"processes": "two"}, r"processes is a whole number, not 'two'"),
        ({"preload": "maybe"}, r"preload is on or off, not 'maybe'"),
        ({"processes": "0"}, r"at least one process"),
    ],
)
def test_wrong_settings_say_what_is_known(values: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        read_section(ModWsgiDaemonSettings, {"mod_wsgi-daemon": values}, "mod_wsgi-daemon")


def test_gunicorns_request_line_limit_is_none_or_a_size() -> None:
    book = {"gunicorn": {"limit_request_line": "0"}}
    assert read_section(GunicornSettings, book, "gunicorn").limit_request_line == 0
    with pytest.raises(ConfigError, match=r"request line limit is 0 \(none\) or more bytes"):
        read_section(GunicornSettings, {"gunicorn": {"limit_request_line": "-1"}}, "gunicorn")


def test_gunicorns_worker_connections_are_one_or_more() -> None:
    book = {"gunicorn": {"worker_connections": "3000"}}
    assert read_section(GunicornSettings, book, "gunicorn").worker_connections == 3000
    with pytest.raises(ConfigError, match=r"worker_connections is 1 or more"):
        read_section(GunicornSettings, {"gunicorn": {"worker_connections": "0"}}, "gunicorn")


def test_granians_backpressure_is_its_default_or_a_count() -> None:
    book = {"granian-asgi": {"backpressure": "3000"}}
    assert read_section(GranianAsgiSettings, book, "granian-asgi").backpressure == 3000
    with pytest.raises(ConfigError, match=r"backpressure is 0 \(its default\) or more"):
        read_section(GranianAsgiSettings, {"granian-asgi": {"backpressure": "-1"}}, "granian-asgi")


def test_a_choice_outside_its_values_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"apache.mpm is one of event, worker, prefork"):
        read_section(ApacheSettings, {"apache": {"mpm": "threaded"}}, "apache")


def test_apache_asks_for_the_processes_its_workers_need() -> None:
    assert ApacheSettings(max_request_workers=500, threads_per_child=25).server_limit() == 20
    assert ApacheSettings(mpm="prefork", max_request_workers=500).server_limit() == 500


def test_a_section_nothing_reads_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"no server reads settings for apahce"):
        check_sections({"apahce": {"mpm": "worker"}}, ["apache", "mod_wsgi-daemon"])


def test_unknown_server_says_the_nearest_or_lists_the_servers() -> None:
    with pytest.raises(ConfigError, match=r"unknown server 'mod-wsgi'; did you mean mod_wsgi-"):
        find_adapter("mod-wsgi")
    with pytest.raises(ConfigError, match=r"unknown server 'nope'; the servers are: .*uwsgi"):
        find_adapter("nope")


def test_every_adapter_records_the_sections_it_read(tmp_path: Path) -> None:
    for name, adapter in ADAPTERS.items():
        plan = ServerPlan(tmp_path / name, 1, tmp_path / "db", {"hello.txt": b"x"})
        try:
            adapter.build(plan)
        except MissingPackageError:  # the adapter tests' business
            continue
        assert plan.used, name
        assert all(isinstance(values, dict) for values in plan.used.values())
