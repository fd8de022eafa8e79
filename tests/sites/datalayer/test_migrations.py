"""The schema is Alembic's to create and migrate, on each database: an empty database goes to
the newest revision, back to nothing, and up again; the revision is recorded."""

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy

from layerbench_sites.datalayer import migrate
from layerbench_sites.datalayer.entities import IDENTITY_TABLE, TABLES
from layerbench_sites.datalayer.open_repository import open_repository
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database

pytestmark = pytest.mark.services

HEAD = "0005"
OWN_TABLES = {"ids", "history", IDENTITY_TABLE, *(table.name for table in TABLES)}


@pytest.fixture(params=["sqlite", "postgres", "mariadb"])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    drop: Callable[[], None] = lambda: None  # noqa: E731
    if request.param == "sqlite":
        url = str(tmp_path / "empty.sqlite3")
    elif request.param == "postgres":
        url, drop = empty_postgres_database(request.getfixturevalue("postgres_url"))
    else:
        url, drop = empty_mariadb_database(request.getfixturevalue("mariadb_url"))
    try:
        yield url
    finally:
        drop()


def inventory(url: str) -> tuple[set[str], set[str]]:
    """The database's tables and routines (stored functions), as it reports them."""
    engine = migrate.engine_for(url)
    try:
        inspector = sqlalchemy.inspect(engine)
        tables = set(inspector.get_table_names())
        with engine.connect() as connection:
            name = engine.dialect.name
            if name == "postgresql":
                sql = "SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace"
            elif name in {"mysql", "mariadb"}:
                sql = "SELECT routine_name FROM information_schema.routines"
                sql += " WHERE routine_schema = DATABASE()"
            else:
                return tables, set()
            functions = {row[0] for row in connection.exec_driver_sql(sql)}
        return tables, functions
    finally:
        engine.dispose()


def test_up_down_and_up_again(empty_database: str) -> None:
    assert migrate.current_revision(empty_database) is None
    migrate.upgrade(empty_database)
    assert migrate.current_revision(empty_database) == HEAD
    tables, functions = inventory(empty_database)
    assert tables >= OWN_TABLES
    if "://" in empty_database:
        assert {"encode_id", "decode_id"} <= functions
    migrate.downgrade(empty_database, "base")
    assert migrate.current_revision(empty_database) is None
    tables, functions = inventory(empty_database)
    assert tables <= {"alembic_version"}
    assert functions == set()
    migrate.upgrade(empty_database)
    assert migrate.current_revision(empty_database) == HEAD


def test_upgrading_the_newest_does_nothing(empty_database: str) -> None:
    migrate.upgrade(empty_database)
    before = inventory(empty_database)
    migrate.upgrade(empty_database)
    assert inventory(empty_database) == before
    assert migrate.current_revision(empty_database) == HEAD


def test_the_unaudited_schema_has_no_audit_triggers(empty_database: str) -> None:
    """For bench/trigger_cost.py only: the same tables, but writes leave no history."""
    migrate.upgrade(empty_database, audit=False)
    engine = migrate.engine_for(empty_database)
    try:
        with engine.begin() as connection:
            placeholder = "?" if engine.dialect.name == "sqlite" else "%s"
            connection.exec_driver_sql(
                f"INSERT INTO tags (numid, id, name) VALUES ({placeholder}, {placeholder}, 'x')",
                (35, "000000000000z"),
            )
            history = connection.exec_driver_sql("SELECT count(*) FROM history").scalar()
            registered = connection.exec_driver_sql("SELECT count(*) FROM ids").scalar()
    finally:
        engine.dispose()
    assert (history, registered) == (0, 1)


def audited_keys(connection: sqlalchemy.Connection) -> list[list[str]]:
    """The columns each history row of the video recorded, oldest first."""
    rows = connection.exec_driver_sql(
        "SELECT new_values FROM history WHERE table_name = 'videos' ORDER BY seq"
    ).fetchall()
    return [sorted(json.loads(row[0]) if isinstance(row[0], str) else row[0]) for row in rows]


def test_0002_keeps_the_data_and_audits_the_new_columns(empty_database: str) -> None:
    """A video written at revision 0001 survives the upgrade; its new column is written and
    audited like the others; the downgrade drops the column and the history keeps working."""
    migrate.upgrade(empty_database, "0001")
    engine = migrate.engine_for(empty_database)
    p = "?" if engine.dialect.name == "sqlite" else "%s"
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql(
                f"INSERT INTO videos (numid, id, title, url) VALUES ({p}, {p}, 'old', 'u')",
                (35, "000000000000z"),
            )
        migrate.upgrade(empty_database)
        with engine.begin() as connection:
            connection.exec_driver_sql("UPDATE videos SET description = 'new' WHERE numid = 35")
            row = connection.exec_driver_sql("SELECT title, description FROM videos").one()
            assert tuple(row) == ("old", "new")
            keys = audited_keys(connection)
        assert "description" not in keys[0]
        assert "description" in keys[1]
        migrate.downgrade(empty_database, "0001")
        with engine.begin() as connection:
            connection.exec_driver_sql("UPDATE videos SET title = 'newer' WHERE numid = 35")
            keys = audited_keys(connection)
        assert len(keys) == 3
        assert "description" not in keys[2]
        assert "title" in keys[2]
    finally:
        engine.dispose()


def test_0003_indexes_the_foreign_keys_the_site_looks_up_by(empty_database: str) -> None:
    migrate.upgrade(empty_database)
    engine = migrate.engine_for(empty_database)
    try:
        inspector = sqlalchemy.inspect(engine)
        for table, column in (("comments", "video_numid"), ("video_tags", "tag_numid")):
            # Each database has an index that starts with the column (InnoDB's own for a
            # foreign key on MariaDB).
            leading = {index["column_names"][0] for index in inspector.get_indexes(table)}
            assert column in leading, (table, inspector.get_indexes(table))
    finally:
        engine.dispose()
    migrate.downgrade(empty_database, "0002")
    assert migrate.current_revision(empty_database) == "0002"


def url_nullable(engine: sqlalchemy.Engine) -> bool:
    columns = sqlalchemy.inspect(engine).get_columns("videos")
    return bool(next(column for column in columns if column["name"] == "url")["nullable"])


def sqlite_schema_of_videos(connection: sqlalchemy.Connection) -> list[tuple[str, str, str]]:
    """The triggers and indexes on videos, as SQLite stores them."""
    rows = connection.exec_driver_sql(
        "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'videos'"
        " AND type IN ('trigger', 'index') ORDER BY type, name"
    )
    return [tuple(row) for row in rows]


def test_0004_a_video_needs_no_url(empty_database: str) -> None:
    """A video written at revision 0003, with its comment, survives the upgrade; a video
    without a url is then registered and audited (its url null in the history); the foreign
    key still deletes a video's comments; going back down refuses while a video has no url,
    and the column is NOT NULL again after."""
    migrate.upgrade(empty_database, "0003")
    engine = migrate.engine_for(empty_database)
    sqlite = engine.dialect.name == "sqlite"
    p = "?" if sqlite else "%s"
    try:
        assert not url_nullable(engine)
        with engine.begin() as connection:
            connection.exec_driver_sql(
                f"INSERT INTO videos (numid, id, title, url) VALUES ({p}, {p}, 'old', 'u')",
                (35, "000000000000z"),
            )
            connection.exec_driver_sql(
                "INSERT INTO comments (numid, id, video_numid, author, body)"
                f" VALUES ({p}, {p}, 35, 'fan', 'hi')",
                (36, "0000000000010"),
            )
            before = sqlite_schema_of_videos(connection) if sqlite else []
        migrate.upgrade(empty_database)
        assert url_nullable(engine)
        with engine.begin() as connection:
            if sqlite:
                assert sqlite_schema_of_videos(connection) == before
                connection.exec_driver_sql("PRAGMA foreign_keys = ON")
            assert connection.exec_driver_sql("SELECT title, url FROM videos").all() == [
                ("old", "u")
            ]
            connection.exec_driver_sql(
                f"INSERT INTO videos (numid, id, title) VALUES ({p}, {p}, 'only a title')",
                (37, "0000000000011"),
            )
            registered = connection.exec_driver_sql(
                "SELECT kind FROM ids WHERE id = '0000000000011'"
            ).scalar_one()
            assert registered == "videos"
            recorded = connection.exec_driver_sql(
                "SELECT new_values FROM history WHERE row_key = '0000000000011'"
            ).scalar_one()
            values = json.loads(recorded) if isinstance(recorded, str) else recorded
            assert (values["title"], values["url"]) == ("only a title", None)
            connection.exec_driver_sql("DELETE FROM videos WHERE numid = 35")
            assert connection.exec_driver_sql("SELECT count(*) FROM comments").scalar() == 0
        with pytest.raises(RuntimeError, match=r"^1 video has no url, which revision 0003"):
            migrate.downgrade(empty_database, "0003")
        assert migrate.current_revision(empty_database) == HEAD
        with engine.begin() as connection:
            connection.exec_driver_sql("UPDATE videos SET url = 'v' WHERE numid = 37")
        migrate.downgrade(empty_database, "0003")
        assert not url_nullable(engine)
        if sqlite:
            with engine.begin() as connection:
                assert sqlite_schema_of_videos(connection) == before
    finally:
        engine.dispose()


def identity_triggers(connection: sqlalchemy.Connection) -> list[str]:
    """The triggers on the identity table, as the database reports them."""
    if connection.dialect.name == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '{}'"
    else:
        sql = "SELECT trigger_name FROM information_schema.triggers"
        sql += " WHERE event_object_table = '{}'"
    return [row[0] for row in connection.exec_driver_sql(sql.format(IDENTITY_TABLE))]


def identity_of(url: str) -> str:
    repository = open_repository(url)
    try:
        return repository.identity()
    finally:
        repository.connection.close()


def test_0005_draws_the_database_identity_once(empty_database: str) -> None:
    """The upgrade draws a random 128-bit id, read through the repository; the table holds one
    row, unaudited; the downgrade drops it and the next upgrade draws another id."""
    migrate.upgrade(empty_database, "0004")
    migrate.upgrade(empty_database)
    identity = identity_of(empty_database)
    assert re.fullmatch(r"[0-9a-f]{32}", identity), identity
    assert identity_of(empty_database) == identity
    engine = migrate.engine_for(empty_database)
    try:
        with engine.begin() as connection:
            assert identity_triggers(connection) == []
            counts = [
                connection.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar()
                for table in ("history", "ids")
            ]
            assert counts == [0, 0]
        with pytest.raises(sqlalchemy.exc.DBAPIError), engine.begin() as connection:
            connection.exec_driver_sql(f"INSERT INTO {IDENTITY_TABLE} VALUES (2, 'x')")
        migrate.downgrade(empty_database, "0004")
        assert IDENTITY_TABLE not in sqlalchemy.inspect(engine).get_table_names()
    finally:
        engine.dispose()
    migrate.upgrade(empty_database)
    assert identity_of(empty_database) not in ("", identity)
