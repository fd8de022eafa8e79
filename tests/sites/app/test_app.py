"""The reference application's ladder endpoints, under wsgiref's WSGI validator."""

import io
import sqlite3
from pathlib import Path
from typing import Any
from wsgiref.validate import validator

import pytest

from layerbench.errors import ConfigError
from layerbench.rungs.definitions import LADDER, Rung, Stack
from layerbench.rungs.rung_data import HELLO_ID
from layerbench_sites.app.app_config import DATABASE_URL_VARIABLE, AppConfig
from layerbench_sites.app.ladder_data import prepare_app_data
from layerbench_sites.app.wsgi import WSGIApplication, create_app

PYTHON_RUNGS = [rung for rung in LADDER if rung.stack is Stack.PYTHON]


def call(
    app: WSGIApplication,
    path: str,
    method: str = "GET",
    body: bytes = b"",
    content_type: str | None = None,
) -> tuple[str, dict[str, str], bytes]:
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "CONTENT_LENGTH": str(len(body)),
        **({"CONTENT_TYPE": content_type} if content_type else {}),
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    captured: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        captured["status"], captured["headers"] = status, dict(headers)
        return lambda data: None

    result = validator(app)(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        result.close()  # type: ignore[attr-defined]
    return captured["status"], captured["headers"], body


@pytest.fixture
def app(seeded_db: Path) -> WSGIApplication:
    return create_app(AppConfig(db_path=seeded_db))


@pytest.fixture
def site_app(tmp_path: Path) -> WSGIApplication:
    """The application with the demo site's data, as the ladder prepares it."""
    data = prepare_app_data(tmp_path / "data")
    database_url = data.environment[DATABASE_URL_VARIABLE]
    return create_app(AppConfig(db_path=data.db_path, database_url=database_url))


@pytest.mark.parametrize("rung", PYTHON_RUNGS, ids=lambda rung: rung.name)
def test_each_rung_answers_its_expected_body(site_app: WSGIApplication, rung: Rung) -> None:
    status, headers, body = call(
        site_app, rung.path, rung.method, rung.body or b"", rung.content_type
    )
    assert rung.accepts(int(status.split()[0]), body), (status, body[:300])
    lengths = [v for k, v in headers.items() if k.lower() == "content-length"]
    assert lengths == [str(len(body))]


def test_database_rungs_read_the_database_every_time(app: WSGIApplication, seeded_db: Path) -> None:
    for path in ("/ladder/cache", "/ladder/db-raw", "/ladder/orm", "/ladder/template"):
        call(app, path)
    with sqlite3.connect(seeded_db) as connection:
        connection.execute("UPDATE hello SET value = 'changed' WHERE id = ?", (HELLO_ID,))
    connection.close()
    assert call(app, "/ladder/db-raw")[2] == b"changed"
    assert call(app, "/ladder/orm")[2] == b"changed"
    assert b"<p>changed</p>" in call(app, "/ladder/template")[2]
    # The cache rung was filled before the change: it answers from the cache, not the database.
    assert call(app, "/ladder/cache")[2] == b"Hello world!"
    assert call(app, "/ladder/string")[2] == b"Hello world!"


def test_template_escapes_what_it_renders(app: WSGIApplication, seeded_db: Path) -> None:
    with sqlite3.connect(seeded_db) as connection:
        connection.execute("UPDATE hello SET value = '<script>x</script>' WHERE id = ?", (1,))
    connection.close()
    assert b"<p>&lt;script&gt;x&lt;/script&gt;</p>" in call(app, "/ladder/template")[2]


def test_missing_row_is_a_500_not_a_crash(app: WSGIApplication, seeded_db: Path) -> None:
    with sqlite3.connect(seeded_db) as connection:
        connection.execute("DELETE FROM hello")
    connection.close()
    for path in ("/ladder/db-raw", "/ladder/orm", "/ladder/template"):
        assert call(app, path)[0] == "500 Internal Server Error"


def test_unknown_path_is_404_and_other_methods_are_405(app: WSGIApplication) -> None:
    assert call(app, "/nowhere")[0] == "404 Not Found"
    status, headers, _ = call(app, "/ladder/string", method="POST")
    assert status == "405 Method Not Allowed"
    assert headers["Allow"] == "GET, HEAD"


def test_head_has_headers_and_no_body(app: WSGIApplication) -> None:
    status, headers, body = call(app, "/ladder/string", method="HEAD")
    assert status == "200 OK"
    assert headers["Content-Length"] == "12"
    assert body == b""


def test_settings_from_environment_need_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAYERBENCH_DB_PATH", raising=False)
    with pytest.raises(ConfigError, match="LAYERBENCH_DB_PATH is not set"):
        AppConfig.from_env()
    monkeypatch.setenv("LAYERBENCH_DB_PATH", "/nonexistent/db.sqlite3")
    with pytest.raises(ConfigError, match="which does not exist"):
        AppConfig.from_env()
