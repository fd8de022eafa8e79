"""The data layer on SQLite: the registry's trigger rules, id collisions, and the audit history
(attribution, rollbacks, "as of", concurrent writers)."""

import sqlite3
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from layerbench.datalayer.numids import from_signed, to_signed
from layerbench.datalayer.sqlite_store import (
    IdCollisionError,
    SqliteStore,
    connect,
    create_schema,
)
from layerbench.ids.codec import decode, encode


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "data.sqlite3"
    create_schema(path)
    return path


@pytest.fixture
def store(database: Path) -> Iterator[SqliteStore]:
    connection = connect(database)
    yield SqliteStore(connection)
    connection.close()


def raw(database: Path) -> sqlite3.Connection:
    """A connection behind the application's back: plain SQL, no actor."""
    return connect(database)


def registry(database: Path) -> list[tuple[int, str, str | None, str]]:
    with raw(database) as connection:
        rows = connection.execute("SELECT numid, id, prettyid, kind FROM ids").fetchall()
    return [(from_signed(numid), id_, pretty, kind) for numid, id_, pretty, kind in rows]


def test_numids_keep_all_64_bits() -> None:
    for numid in (0, 1, 2**63 - 1, 2**63, 2**64 - 1):
        assert from_signed(to_signed(numid)) == numid
    assert to_signed(2**64 - 1) == -1


def test_insert_registers_the_id(store: SqliteStore, database: Path) -> None:
    identifier = store.create("videos", {"title": "t", "url": "u"}, actor="alice")
    assert registry(database) == [(decode(identifier), identifier, None, "videos")]
    row = store.get("videos", identifier)
    assert row is not None
    assert (row["id"], row["numid"], row["title"]) == (identifier, decode(identifier), "t")


def test_full_range_numids_are_stored_and_read_back(database: Path) -> None:
    connection = connect(database)
    store = SqliteStore(connection, new_numid=lambda: 2**64 - 1)
    identifier = store.create("tags", {"name": "top"}, actor=None)
    assert identifier == "3w5e11264sgsf"
    assert store.get("tags", identifier) == {
        "numid": 2**64 - 1,
        "id": "3w5e11264sgsf",
        "prettyid": None,
        "name": "top",
    }


def test_an_id_is_unique_across_entity_types(store: SqliteStore, database: Path) -> None:
    video = store.create("videos", {"title": "t", "url": "u"}, actor=None)
    with raw(database) as connection, pytest.raises(sqlite3.IntegrityError, match=r"ids\.numid"):
        connection.execute(
            "INSERT INTO tags (numid, id, name) VALUES (?, ?, 'x')",
            (to_signed(decode(video)), video),
        )
    assert len(registry(database)) == 1


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("numid = numid + 1", "numid cannot change after creation"),
        ("id = '0000000000001'", "id cannot change after creation"),
    ],
)
def test_numid_and_id_never_change(
    store: SqliteStore, database: Path, assignment: str, message: str
) -> None:
    video = store.create("videos", {"title": "t", "url": "u"}, actor=None)
    with raw(database) as connection, pytest.raises(sqlite3.IntegrityError, match=message):
        connection.execute(f"UPDATE videos SET {assignment}")
    assert store.get("videos", video) is not None


def test_prettyid_is_set_once_then_fixed(store: SqliteStore, database: Path) -> None:
    video = store.create("videos", {"title": "t", "url": "u"}, actor=None)
    store.set_prettyid("videos", video, "2009/03/22/safe-id-names", actor="alice")
    assert registry(database)[0][2] == "2009/03/22/safe-id-names"
    for new in ("other", None):
        with pytest.raises(sqlite3.IntegrityError, match="prettyid can be set once"):
            store.set_prettyid("videos", video, new, actor="alice")  # type: ignore[arg-type]
    # Setting it to what it already is changes nothing and is allowed.
    store.set_prettyid("videos", video, "2009/03/22/safe-id-names", actor="alice")


def test_prettyid_is_unique_across_entity_types(store: SqliteStore, database: Path) -> None:
    video = store.create("videos", {"title": "t", "url": "u"}, actor=None, prettyid="hello")
    tag = store.create("tags", {"name": "n"}, actor=None)
    with pytest.raises(sqlite3.IntegrityError, match=r"ids\.prettyid"):
        store.set_prettyid("tags", tag, "hello", actor=None)
    assert store.get("tags", tag)["prettyid"] is None  # type: ignore[index]
    assert store.get("videos", video)["prettyid"] == "hello"  # type: ignore[index]


def test_the_registry_itself_refuses_changes(store: SqliteStore, database: Path) -> None:
    store.create("videos", {"title": "t", "url": "u"}, actor=None, prettyid="p")
    with raw(database) as connection, pytest.raises(sqlite3.IntegrityError, match="cannot change"):
        connection.execute("UPDATE ids SET prettyid = 'q'")


def test_delete_unregisters_and_cascades(store: SqliteStore, database: Path) -> None:
    video = store.create("videos", {"title": "t", "url": "u"}, actor=None)
    store.create("comments", {"video_numid": decode(video), "author": "a", "body": "b"}, actor=None)
    assert len(registry(database)) == 2
    store.delete("videos", video, actor="alice")
    assert registry(database) == []


def test_a_collision_is_retried_with_a_fresh_id(database: Path) -> None:
    taken = 12345
    draws = iter([taken, taken, 777])
    store = SqliteStore(connect(database), new_numid=lambda: next(draws))
    assert store.create("tags", {"name": "first"}, actor=None) == encode(taken)
    assert store.create("tags", {"name": "second"}, actor=None) == encode(777)
    assert [row[0] for row in registry(database)] == sorted([taken, 777])


def test_endless_collisions_fail_cleanly(database: Path) -> None:
    store = SqliteStore(connect(database), new_numid=lambda: 5)
    store.create("tags", {"name": "first"}, actor=None)
    with pytest.raises(IdCollisionError, match="collided"):
        store.create("tags", {"name": "second"}, actor=None)
    assert len(registry(database)) == 1


def test_put_with_the_clients_own_id_is_idempotent(store: SqliteStore) -> None:
    identifier = encode(424242)
    assert store.put("videos", identifier, {"title": "t", "url": "u"}, actor="alice")
    assert not store.put("videos", identifier, {"title": "t", "url": "u"}, actor="alice")
    assert [c.operation for c in store.history("videos", identifier)] == ["insert"]
    assert not store.put("videos", identifier, {"title": "t2", "url": "u"}, actor="alice")
    assert [c.operation for c in store.history("videos", identifier)] == ["insert", "update"]


def test_history_records_every_write_with_its_actor(store: SqliteStore, database: Path) -> None:
    video = store.create("videos", {"title": "one", "url": "u"}, actor="alice")
    store.update("videos", video, {"title": "two"}, actor="bob")
    with raw(database) as connection:
        connection.execute("UPDATE videos SET title = 'three'")
    store.delete("videos", video, actor="carol")
    changes = store.history("videos", video)
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


def test_a_rolled_back_transaction_leaves_no_history(store: SqliteStore) -> None:
    video = store.create("videos", {"title": "one", "url": "u"}, actor="alice")
    with pytest.raises(RuntimeError), store.transaction("mallory") as connection:
        connection.execute("UPDATE videos SET title = 'evil'")
        raise RuntimeError("changed my mind")
    assert [c.operation for c in store.history("videos", video)] == ["insert"]
    assert store.get("videos", video)["title"] == "one"  # type: ignore[index]


def test_the_actor_does_not_outlive_its_transaction(store: SqliteStore, database: Path) -> None:
    video = store.create("videos", {"title": "one", "url": "u"}, actor="alice")
    with raw(database) as connection:
        assert connection.execute("SELECT count(*) FROM audit_actor").fetchone() == (0,)
        connection.execute("UPDATE videos SET title = 'raw'")
    assert store.history("videos", video)[-1].actor is None


def test_as_of(store: SqliteStore) -> None:
    before = datetime.now(UTC)
    time.sleep(0.01)
    video = store.create("videos", {"title": "one", "url": "u"}, actor="alice")
    time.sleep(0.01)
    after_create = datetime.now(UTC)
    time.sleep(0.01)
    store.update("videos", video, {"title": "two"}, actor="alice")
    time.sleep(0.01)
    after_update = datetime.now(UTC)
    time.sleep(0.01)
    store.delete("videos", video, actor="alice")
    assert store.as_of("videos", video, before) is None
    assert store.as_of("videos", video, after_create)["title"] == "one"  # type: ignore[index]
    assert store.as_of("videos", video, after_update)["title"] == "two"  # type: ignore[index]
    assert store.as_of("videos", video, datetime.now(UTC)) is None


def test_concurrent_writers_lose_no_history_and_add_none(database: Path) -> None:
    """8 threads, each 60 operations: application creates and updates, raw SQL updates, and
    transactions rolled back on purpose. The history then holds exactly one row per committed
    row change."""
    threads, operations = 8, 60
    committed = [0] * threads
    errors: list[BaseException] = []

    def writer(index: int) -> None:
        try:
            store = SqliteStore(connect(database))
            behind_the_back = connect(database)
            mine = store.create("videos", {"title": f"w{index}", "url": "u"}, actor=f"w{index}")
            committed[index] += 1
            for step in range(operations):
                kind = step % 4
                if kind == 0:
                    store.create("tags", {"name": f"t{index}-{step}"}, actor=f"w{index}")
                    committed[index] += 1
                elif kind == 1:
                    store.update("videos", mine, {"title": f"s{step}"}, actor=f"w{index}")
                    committed[index] += 1
                elif kind == 2:
                    behind_the_back.execute(
                        "UPDATE videos SET url = ? WHERE id = ?", (f"raw{step}", mine)
                    )
                    committed[index] += 1
                else:
                    try:
                        with store.transaction(f"w{index}") as connection:
                            connection.execute(
                                "UPDATE videos SET title = 'x' WHERE id = ?", (mine,)
                            )
                            raise LookupError("rolled back on purpose")
                    except LookupError:
                        pass
            behind_the_back.close()
            store.connection.close()
        except BaseException as error:  # reported below, with the thread's name
            errors.append(error)

    workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    assert not errors, errors
    with raw(database) as connection:
        history_rows = connection.execute("SELECT count(*) FROM history").fetchone()[0]
        unattributed = connection.execute(
            "SELECT count(*) FROM history WHERE actor IS NULL"
        ).fetchone()[0]
    assert history_rows == sum(committed) == threads * (1 + operations * 3 // 4)
    assert unattributed == threads * operations // 4
