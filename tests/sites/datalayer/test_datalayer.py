"""The data layer on SQLite, PostgreSQL and MariaDB (real, throwaway servers): the registry's
trigger rules including the writes that must be refused, id collisions, idempotent PUT, and the
audit history (attribution, rollbacks, "as of", concurrent writers mixing the application and raw
SQL), and what the observers of committed writes are told."""

import threading
import time
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pymysql
import pytest

from layerbench_sites.app.videos import Catalog
from layerbench_sites.datalayer.changes import decode_values
from layerbench_sites.datalayer.entities import TAGS, VIDEOS
from layerbench_sites.datalayer.numids import from_signed, to_signed
from layerbench_sites.datalayer.repository import NotFoundError, Repository
from layerbench_sites.datalayer.retried import MAX_TRANSIENT_ATTEMPTS, IdCollisionError
from layerbench_sites.datalayer.written import Written
from layerbench_sites.ids.codec import decode, encode
from layerbench_sites.ids.generate import new_number
from tests.datalayer_backends import (
    Backend,
    SchemaState,
    emptied,
    fresh_view,
    mariadb_backend,
    postgres_backend,
    shared_backend,
    sqlite_backend,
)

pytestmark = pytest.mark.services


@pytest.fixture(scope="session")
def postgres_schema(postgres_url: str) -> Iterator[tuple[Backend, SchemaState]]:
    yield from shared_backend(postgres_backend, postgres_url)


@pytest.fixture(scope="session")
def mariadb_schema(mariadb_url: str) -> Iterator[tuple[Backend, SchemaState]]:
    yield from shared_backend(mariadb_backend, mariadb_url)


@pytest.fixture(params=["sqlite", "postgres", "mariadb"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """The schema on each database, empty: SQLite's made afresh, the servers' emptied after each
    test (tests/datalayer_backends.py says why)."""
    if request.param == "sqlite":
        made = sqlite_backend(tmp_path)
        try:
            yield made
        finally:
            made.close()
        return
    shared, state = request.getfixturevalue(f"{request.param}_schema")
    made = fresh_view(shared)
    try:
        yield made
    finally:
        made.close()
        emptied(made, state)


@pytest.fixture
def repository(backend: Backend) -> Repository:
    return backend.repository()


def registry(backend: Backend) -> list[tuple[int, str, str | None, str]]:
    rows = backend.query("SELECT numid, id, prettyid, kind FROM ids ORDER BY id")
    numid = from_signed if backend.stores_signed else int
    return [(numid(n), id_, pretty, kind) for n, id_, pretty, kind in rows]


def test_numids_keep_all_64_bits() -> None:
    for numid in (0, 1, 2**63 - 1, 2**63, 2**64 - 1):
        assert from_signed(to_signed(numid)) == numid
    assert to_signed(2**64 - 1) == -1


def test_insert_registers_the_id(repository: Repository, backend: Backend) -> None:
    identifier = repository.create("videos", {"title": "t", "url": "u"}, actor="alice")
    assert registry(backend) == [(decode(identifier), identifier, None, "videos")]
    row = repository.get("videos", identifier)
    assert row is not None
    assert (row["id"], row["numid"], row["title"]) == (identifier, decode(identifier), "t")


@pytest.mark.parametrize("numid", [0, 2**63 - 1, 2**63, 2**64 - 1])
def test_full_range_numids_are_stored_and_read_back(backend: Backend, numid: int) -> None:
    repository = backend.repository(new_numid=lambda: numid)
    identifier = repository.create("tags", {"name": "top"}, actor=None)
    assert identifier == encode(numid)
    assert repository.get("tags", identifier) == {
        "numid": numid,
        "id": encode(numid),
        "prettyid": None,
        "name": "top",
    }
    assert repository.history("tags", identifier)[0].new["numid"] == numid  # type: ignore[index]


def test_an_id_is_unique_across_entity_types(repository: Repository, backend: Backend) -> None:
    video = repository.create("videos", {"title": "t", "url": "u"}, actor=None)
    with backend.raw() as cursor, pytest.raises(backend.refused, match=backend.duplicate("numid")):
        cursor.execute(
            "INSERT INTO tags (numid, id, name) VALUES (?, ?, 'x')",
            (backend.stored(decode(video)), video),
        )
    assert len(registry(backend)) == 1


# SQLite has no base-36 codec in SQL: there, the application writes both.
@pytest.mark.parametrize("backend", ["postgres", "mariadb"], indirect=True)
def test_an_id_must_be_the_numids_own(backend: Backend) -> None:
    with backend.raw() as cursor, pytest.raises(backend.refused):
        cursor.execute(
            "INSERT INTO tags (numid, id, name) VALUES (?, ?, 'x')",
            (backend.stored(5), encode(6)),
        )
    assert registry(backend) == []


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("numid = numid + 1", "numid cannot change after creation"),
        ("id = '0000000000001'", "id cannot change after creation"),
    ],
)
def test_numid_and_id_never_change(
    repository: Repository, backend: Backend, assignment: str, message: str
) -> None:
    video = repository.create("videos", {"title": "t", "url": "u"}, actor=None)
    with backend.raw() as cursor, pytest.raises(backend.refused, match=message):
        cursor.execute(f"UPDATE videos SET {assignment}")
    assert repository.get("videos", video) is not None
    assert registry(backend)[0][1] == video


def test_prettyid_is_set_once_then_fixed(repository: Repository, backend: Backend) -> None:
    video = repository.create("videos", {"title": "t", "url": "u"}, actor=None)
    repository.set_prettyid("videos", video, "2009/03/22/safe-id-names", actor="alice")
    assert registry(backend)[0][2] == "2009/03/22/safe-id-names"
    for new in ("other", None):
        with pytest.raises(backend.refused, match="prettyid can be set once"):
            repository.set_prettyid("videos", video, new, actor="alice")  # type: ignore[arg-type]
    # Setting it to what it already is changes nothing and is allowed.
    repository.set_prettyid("videos", video, "2009/03/22/safe-id-names", actor="alice")
    assert registry(backend)[0][2] == "2009/03/22/safe-id-names"


def test_prettyid_is_unique_across_entity_types(repository: Repository, backend: Backend) -> None:
    video = repository.create("videos", {"title": "t", "url": "u"}, actor=None, prettyid="hello")
    tag = repository.create("tags", {"name": "n"}, actor=None)
    with pytest.raises(backend.refused, match=backend.duplicate("prettyid")):
        repository.set_prettyid("tags", tag, "hello", actor=None)
    assert repository.get("tags", tag)["prettyid"] is None  # type: ignore[index]
    assert repository.get("videos", video)["prettyid"] == "hello"  # type: ignore[index]


def test_the_registry_itself_refuses_changes(repository: Repository, backend: Backend) -> None:
    repository.create("videos", {"title": "t", "url": "u"}, actor=None, prettyid="p")
    for assignment in ("prettyid = 'q'", "kind = 'tags'", "id = '0000000000001'"):
        with backend.raw() as cursor, pytest.raises(backend.refused, match="cannot change"):
            cursor.execute(f"UPDATE ids SET {assignment}")
    assert registry(backend)[0][2:] == ("p", "videos")


def test_delete_unregisters_and_cascades(repository: Repository, backend: Backend) -> None:
    video = repository.create("videos", {"title": "t", "url": "u"}, actor=None)
    comment = repository.create(
        "comments", {"video_numid": decode(video), "author": "a", "body": "b"}, actor=None
    )
    assert len(registry(backend)) == 2
    repository.delete("videos", video, actor="alice")
    assert registry(backend) == []
    # The comment went with its video, and its history says so.
    assert [c.operation for c in repository.history("comments", comment)] == ["insert", "delete"]


def test_a_collision_is_retried_with_a_fresh_id(backend: Backend) -> None:
    taken = 12345
    draws = iter([taken, taken, 777])
    repository = backend.repository(new_numid=lambda: next(draws))
    assert repository.create("tags", {"name": "first"}, actor=None) == encode(taken)
    assert repository.create("tags", {"name": "second"}, actor=None) == encode(777)
    assert sorted(row[0] for row in registry(backend)) == sorted([taken, 777])


def test_a_collision_with_another_entity_type_is_retried_too(backend: Backend) -> None:
    draws = iter([99, 99, 100])
    repository = backend.repository(new_numid=lambda: next(draws))
    repository.create("videos", {"title": "t", "url": "u"}, actor=None)
    assert repository.create("tags", {"name": "n"}, actor=None) == encode(100)


def test_endless_collisions_fail_cleanly(backend: Backend) -> None:
    repository = backend.repository(new_numid=lambda: 5)
    repository.create("tags", {"name": "first"}, actor=None)
    with pytest.raises(IdCollisionError, match="collided"):
        repository.create("tags", {"name": "second"}, actor=None)
    assert len(registry(backend)) == 1


def test_other_integrity_errors_are_not_collisions(
    repository: Repository, backend: Backend
) -> None:
    repository.create("tags", {"name": "same"}, actor=None)
    with pytest.raises(backend.refused):
        repository.create("tags", {"name": "same"}, actor=None)
    assert len(registry(backend)) == 1


def test_put_with_the_clients_own_id_is_idempotent(repository: Repository) -> None:
    identifier = encode(424242)
    assert repository.put("videos", identifier, {"title": "t", "url": "u"}, actor="alice")
    assert not repository.put("videos", identifier, {"title": "t", "url": "u"}, actor="alice")
    assert [c.operation for c in repository.history("videos", identifier)] == ["insert"]
    assert not repository.put("videos", identifier, {"title": "t2", "url": "u"}, actor="alice")
    assert [c.operation for c in repository.history("videos", identifier)] == ["insert", "update"]


def test_history_records_every_write_with_its_actor(
    repository: Repository, backend: Backend
) -> None:
    video = repository.create("videos", {"title": "one", "url": "u"}, actor="alice")
    repository.update("videos", video, {"title": "two"}, actor="bob")
    with backend.raw() as cursor:
        cursor.execute("UPDATE videos SET title = 'three'")
    repository.delete("videos", video, actor="carol")
    changes = repository.history("videos", video)
    assert [(c.operation, c.actor) for c in changes] == [
        ("insert", "alice"),
        ("update", "bob"),
        ("update", None),
        ("delete", "carol"),
    ]
    assert changes[0].old is None
    assert changes[0].new is not None and changes[0].new["title"] == "one"
    assert changes[0].new["numid"] == decode(video)
    assert changes[1].old is not None and changes[1].old["title"] == "one"
    assert changes[2].new is not None and changes[2].new["title"] == "three"
    assert changes[3].new is None and changes[3].old is not None


def test_a_rolled_back_transaction_leaves_no_history(
    repository: Repository, backend: Backend
) -> None:
    video = repository.create("videos", {"title": "one", "url": "u"}, actor="alice")
    p = repository.dialect.placeholder
    with pytest.raises(RuntimeError), repository.transaction("mallory") as cursor:
        cursor.execute(f"UPDATE videos SET title = 'evil' WHERE id = {p}", (video,))
        raise RuntimeError("changed my mind")
    assert [c.operation for c in repository.history("videos", video)] == ["insert"]
    assert repository.get("videos", video)["title"] == "one"  # type: ignore[index]
    # The rolled-back actor is not carried into the next, unattributed, write.
    repository.update("videos", video, {"title": "two"}, actor=None)
    assert repository.history("videos", video)[-1].actor is None


def test_the_actor_does_not_outlive_its_transaction(
    repository: Repository, backend: Backend
) -> None:
    video = repository.create("videos", {"title": "one", "url": "u"}, actor="alice")
    repository.update("videos", video, {"title": "two"}, actor=None)
    with backend.raw() as cursor:
        cursor.execute("UPDATE videos SET title = 'raw'")
    assert [c.actor for c in repository.history("videos", video)] == ["alice", None, None]


def test_as_of(repository: Repository) -> None:
    before = datetime.now(UTC)
    time.sleep(0.01)
    video = repository.create("videos", {"title": "one", "url": "u"}, actor="alice")
    time.sleep(0.01)
    after_create = datetime.now(UTC)
    time.sleep(0.01)
    repository.update("videos", video, {"title": "two"}, actor="alice")
    time.sleep(0.01)
    after_update = datetime.now(UTC)
    time.sleep(0.01)
    repository.delete("videos", video, actor="alice")
    assert repository.as_of("videos", video, before) is None
    assert repository.as_of("videos", video, after_create)["title"] == "one"  # type: ignore[index]
    assert repository.as_of("videos", video, after_update)["title"] == "two"  # type: ignore[index]
    assert repository.as_of("videos", video, datetime.now(UTC)) is None


def test_concurrent_writers_lose_no_history_and_add_none(backend: Backend) -> None:
    """8 threads, each 60 operations: application creates and updates, raw SQL updates, and
    transactions rolled back on purpose. The history then holds exactly one row per committed
    row change."""
    threads, operations = 8, 60
    committed = [0] * threads
    errors: list[BaseException] = []

    def writer(index: int) -> None:
        try:
            # Each thread's own connections, opened and closed in it (SQLite's rule).
            connection = backend.connect()
            repository = backend.make_repository(connection, new_number)
            p = repository.dialect.placeholder
            with closing(connection), backend.raw() as behind_the_back:
                mine = repository.create(
                    "videos", {"title": f"w{index}", "url": "u"}, actor=f"w{index}"
                )
                committed[index] += 1
                for step in range(operations):
                    kind = step % 4
                    if kind == 0:
                        repository.create("tags", {"name": f"t{index}-{step}"}, actor=f"w{index}")
                        committed[index] += 1
                    elif kind == 1:
                        repository.update("videos", mine, {"title": f"s{step}"}, actor=f"w{index}")
                        committed[index] += 1
                    elif kind == 2:
                        behind_the_back.execute(
                            "UPDATE videos SET url = ? WHERE id = ?", (f"raw{step}", mine)
                        )
                        committed[index] += 1
                    else:
                        try:
                            with repository.transaction(f"w{index}") as cursor:
                                cursor.execute(
                                    f"UPDATE videos SET title = 'x' WHERE id = {p}", (mine,)
                                )
                                raise LookupError("rolled back on purpose")
                        except LookupError:
                            pass
        except BaseException as error:  # reported below, with the thread's name
            errors.append(error)

    workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert not errors, errors
    history_rows = backend.query("SELECT count(*) FROM history")[0][0]
    unattributed = backend.query("SELECT count(*) FROM history WHERE actor IS NULL")[0][0]
    assert history_rows == sum(committed) == threads * (1 + operations * 3 // 4)
    assert unattributed == threads * operations // 4
    titles = [
        decode_values(VIDEOS, values, int)["title"]  # type: ignore[index]
        for (values,) in backend.query("SELECT new_values FROM history WHERE table_name = 'videos'")
    ]
    assert len(titles) == threads * (1 + operations // 2)
    assert "x" not in titles  # the rolled-back title


# What a server says when it gives a transaction up for another: its own error, raised by the
# server itself (a deadlock provoked on purpose would not say when, nor how often).
GIVE_UP = {
    "postgres": "DO $$ BEGIN RAISE EXCEPTION 'deadlock detected' USING ERRCODE = '40P01'; END $$",
    "mariadb": "SIGNAL SQLSTATE '40001' SET MYSQL_ERRNO = 1213, MESSAGE_TEXT = 'Deadlock found'",
}


@pytest.mark.parametrize("backend", ["postgres", "mariadb"], indirect=True)
def test_a_transaction_given_up_for_another_is_run_again_whole(backend: Backend) -> None:
    repository = backend.repository()
    attempts: list[int] = []

    def work(cursor: object) -> str:
        attempts.append(len(attempts) + 1)
        numid = repository.new_numid()
        repository.insert_row(cursor, TAGS, numid, None, {"name": f"try-{len(attempts)}"})
        if len(attempts) < 3:
            cursor.execute(GIVE_UP[backend.name])  # type: ignore[attr-defined]
        return encode(numid)

    identifier = repository.write("alice", work)
    assert attempts == [1, 2, 3]
    # The attempts given up left nothing behind, in the table or in its history.
    assert backend.query("SELECT name FROM tags") == [("try-3",)]
    assert [c.operation for c in repository.history("tags", identifier)] == ["insert"]
    assert backend.query("SELECT count(*) FROM history")[0][0] == 1


@pytest.mark.parametrize("backend", ["postgres", "mariadb"], indirect=True)
def test_a_transaction_given_up_every_time_fails_after_a_bound(backend: Backend) -> None:
    repository = backend.repository()
    attempts: list[int] = []

    def work(cursor: object) -> None:
        attempts.append(1)
        repository.insert_row(
            cursor, TAGS, repository.new_numid(), None, {"name": f"t{len(attempts)}"}
        )
        cursor.execute(GIVE_UP[backend.name])  # type: ignore[attr-defined]

    with pytest.raises(Exception, match=r"[Dd]eadlock") as raised:
        repository.write("alice", work)
    assert repository.dialect.is_transient(raised.value)
    assert len(attempts) == MAX_TRANSIENT_ATTEMPTS
    assert backend.query("SELECT count(*) FROM tags")[0][0] == 0


def test_a_tag_created_by_another_writer_meanwhile_is_used_not_refused(
    backend: Backend,
) -> None:
    """Writer A creates the tag and has not committed yet; writer B, creating a video with the
    same new tag, waits for A and then uses A's tag: one tag, linked to both videos."""
    first, second = Catalog(backend.repository()), Catalog(backend.repository())
    outcome: list[object] = []

    def create_second() -> None:
        try:
            outcome.append(second.create_video({"title": "b", "url": "u", "tags": ["new"]}, "b"))
        except Exception as error:  # reported below
            outcome.append(error)

    with first.repository.transaction("a") as cursor:
        numid = first.repository.new_numid()
        first.repository.insert_row(cursor, VIDEOS, numid, None, {"title": "a", "url": "u"})
        first._set_tags(cursor, numid, ["new"])
        other = threading.Thread(target=create_second)
        other.start()
        other.join(0.5)  # B is waiting for A's lock by now (or for SQLite's write lock)
    other.join(30)
    assert len(outcome) == 1 and isinstance(outcome[0], str), outcome
    assert backend.query("SELECT name FROM tags") == [("new",)]
    assert backend.query("SELECT count(*) FROM video_tags")[0][0] == 2
    assert second.video(outcome[0])["tags"] == ["new"]


def test_a_tag_named_as_another_entitys_pretty_id_is_still_refused(backend: Backend) -> None:
    catalog = Catalog(backend.repository())
    catalog.create_video({"title": "a", "url": "u", "prettyid": "taken"}, "a")
    with pytest.raises(backend.refused, match=backend.duplicate("prettyid")):
        catalog.create_video({"title": "b", "url": "u", "tags": ["taken"]}, "b")
    assert backend.query("SELECT count(*) FROM videos")[0][0] == 1


def test_observers_are_told_what_each_committed_write_changed(
    repository: Repository, backend: Backend
) -> None:
    """Every entity written, and the video a comment belongs to, by its names; nothing for a
    write that changed nothing or was rolled back."""
    told: list[frozenset[Written]] = []
    repository.observe(told.append)
    video = repository.create("videos", {"title": "t"}, actor=None, prettyid="clip")
    assert told == [{Written("videos", video, "clip")}]
    values = {"video_numid": decode(video), "author": "fan", "body": "first"}
    comment = repository.create("comments", values, actor=None)
    repository.update("comments", comment, {"body": "second"}, actor=None)
    with_video = {Written("comments", comment, None), Written("videos", video, "clip")}
    assert told[1:] == [with_video, with_video]
    with pytest.raises(NotFoundError):
        repository.update("comments", encode(1), {"body": "none"}, actor=None)
    p = repository.dialect.placeholder
    with pytest.raises(RuntimeError), repository.transaction("mallory") as cursor:
        repository.update_row(cursor, VIDEOS, decode(video), {"title": "evil"})
        raise RuntimeError("changed my mind")
    assert len(told) == 3
    repository.delete("videos", video, actor=None)
    assert told[3:] == [{Written("videos", video, "clip")}]
    assert backend.query(f"SELECT count(*) FROM comments WHERE id = {p}", (comment,)) == [(0,)]


def test_a_video_s_tags_written_tell_the_video_and_every_tag(repository: Repository) -> None:
    told: list[frozenset[Written]] = []
    repository.observe(told.append)
    catalog = Catalog(repository)
    video = catalog.create_video({"title": "t", "tags": ["pop"]}, actor="alice")
    pop = told[0] - {Written("videos", video, None)}
    assert [(tag.table, tag.prettyid) for tag in pop] == [("tags", "pop")]
    catalog.update_video(video, {"tags": ["rock"]}, actor="alice")
    assert {(w.table, w.prettyid) for w in told[1]} == {
        ("videos", None),
        ("tags", "pop"),
        ("tags", "rock"),
    }


def test_a_transaction_run_again_tells_once_what_it_wrote_last(backend: Backend) -> None:
    """The first attempt's video is rolled back with its colliding tag: never told."""
    draws = iter([500, 600, 500, 700, 800])
    repository = backend.repository(new_numid=lambda: next(draws))
    repository.create("tags", {"name": "taken"}, actor=None)
    told: list[frozenset[Written]] = []
    repository.observe(told.append)

    def work(cursor: Any) -> None:
        repository.insert_row(cursor, VIDEOS, repository.new_numid(), None, {"title": "t"})
        repository.insert_row(cursor, TAGS, repository.new_numid(), None, {"name": "n"})

    repository.write("alice", work)
    assert told == [{Written("videos", encode(700), None), Written("tags", encode(800), None)}]


@pytest.mark.parametrize("backend", ["postgres", "mariadb"], indirect=True)
def test_an_observers_error_after_the_commit_is_raised_never_run_again(backend: Backend) -> None:
    """An observer failing as a transaction given up would (here: the database says so) must not
    make the committed write run a second time."""
    repository = backend.repository()

    def observer(written: frozenset[Written]) -> None:
        cursor = repository.connection.cursor()
        try:
            cursor.execute(GIVE_UP[backend.name])
        finally:
            cursor.close()

    repository.observe(observer)
    with pytest.raises((psycopg.Error, pymysql.err.MySQLError)) as raised:
        repository.create("tags", {"name": "once"}, actor="alice")
    assert repository.dialect.is_transient(raised.value)
    assert backend.query("SELECT name FROM tags") == [("once",)]
