"""The writers of ``layerbench writes``, a process of their own (the sampler's client role):

    python -m layerbench_sites.writes_worker SPEC.json RESULT.json

SPEC names the store and how to open it (``target``), and what to do (``mode``):

grow      bring the database to ``objects`` objects (1,000 per commit), each writer's
          container made; for the site's SQL path, its schema and the video written to
measure   ``writers`` threads, each with its own connection, share ``commits`` commits: each one
          a new object (the size of a comment) added to the writer's own BTree and committed (or
          on the site's path, a comment through the data layer's repository, the write rung's
          path without HTTP); every commit's latency (the object made and committed)

RESULT: ``{"commits": N, "elapsed_s": S, "latencies_us": [...], "conflicts": N}``.

Measuring, it opens the store, then writes the file ``ready`` names and waits for the one
``go`` names: the lab samples the processes from then on, not the writers' imports.
"""

import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import transaction  # type: ignore[import-untyped]
import ZODB  # type: ignore[import-untyped]
from BTrees.OOBTree import OOBTree  # type: ignore[import-untyped]
from persistent.mapping import PersistentMapping  # type: ignore[import-untyped]
from relstorage.adapters.postgresql import PostgreSQLAdapter  # type: ignore[import-untyped]
from relstorage.options import Options  # type: ignore[import-untyped]
from relstorage.storage import RelStorage  # type: ignore[import-untyped]
from ZEO.ClientStorage import ClientStorage  # type: ignore[import-untyped]
from ZODB.FileStorage import FileStorage  # type: ignore[import-untyped]
from ZODB.POSException import ConflictError  # type: ignore[import-untyped]

from layerbench.rungs.rung_data import WRITE_VIDEO_PRETTYID
from layerbench_sites.app.ladder_data import seed_site
from layerbench_sites.app.videos import Catalog
from layerbench_sites.datalayer.open_repository import open_repository
from layerbench_sites.relstorage_mariadb import MariadbAdapter

BATCH = 1000
BODY = "A comment of about the size of the site's, written as one object. " * 2


def open_database(target: dict[str, Any]) -> Any:
    kind = target["kind"]
    if kind == "filestorage":
        storage = FileStorage(target["path"])
    elif kind == "zeo":
        storage = ClientStorage(tuple(target["address"]), wait_timeout=30)
    else:
        options = Options(keep_history=target["keep_history"], create_schema=True)
        if kind == "relstorage-postgres":
            adapter = PostgreSQLAdapter(dsn=target["dsn"], options=options)
        else:
            adapter = MariadbAdapter(options=options, **target["params"])
        storage = RelStorage(adapter, options=options)
    return ZODB.DB(storage, pool_size=64)


def zodb_grow(target: dict[str, Any], objects: int, writers: int) -> None:
    db = open_database(target)
    try:
        manager = transaction.TransactionManager()
        connection = db.open(manager)
        root = connection.root()
        for number in range(writers):
            if f"writer-{number}" not in root:
                root[f"writer-{number}"] = OOBTree()
        if "grown" not in root:
            root["grown"] = OOBTree()
        manager.commit()
        grown = root["grown"]
        while len(grown) < objects:
            start = len(grown)
            for key in range(start, min(objects, start + BATCH)):
                grown[key] = _document(key)
            manager.commit()
        connection.close()
    finally:
        db.close()


def _document(key: int) -> Any:
    return PersistentMapping(name=f"writer {key}", body=BODY, number=key)


def zodb_measure(spec: dict[str, Any]) -> dict[str, Any]:
    writers, commits = spec["writers"], spec["commits"]
    db = open_database(spec["target"])
    try:

        def writer(number: int, share: int, latencies: list[int], conflicts: list[int]) -> None:
            manager = transaction.TransactionManager()
            connection = db.open(manager)
            tree = connection.root()[f"writer-{number}"]
            base = time.time_ns()
            for index in range(share):
                began = time.perf_counter_ns()
                while True:
                    try:
                        tree[(base, index)] = _document(index)
                        manager.commit()
                        break
                    except ConflictError:
                        manager.abort()
                        conflicts.append(1)
                latencies.append((time.perf_counter_ns() - began) // 1000)
            connection.close()

        _ready_then_wait(spec)
        return _threads(writers, commits, writer)
    finally:
        db.close()


def site_grow(target: dict[str, Any]) -> None:
    seed_site(target["url"])


def site_measure(spec: dict[str, Any]) -> dict[str, Any]:
    target, writers, commits = spec["target"], spec["writers"], spec["commits"]

    def writer(number: int, share: int, latencies: list[int], conflicts: list[int]) -> None:
        catalog = Catalog(open_repository(target["url"]))
        try:
            for index in range(share):
                began = time.perf_counter_ns()
                fields = {"name": f"writer {number}", "body": f"{BODY} {index}"}
                catalog.create_comment(WRITE_VIDEO_PRETTYID, fields, "layerbench-writes")
                latencies.append((time.perf_counter_ns() - began) // 1000)
        finally:
            catalog.repository.connection.close()

    _ready_then_wait(spec)
    return _threads(writers, commits, writer)


def _ready_then_wait(spec: dict[str, Any]) -> None:
    Path(spec["ready"]).touch()
    go = Path(spec["go"])
    while not go.exists():
        time.sleep(0.001)


Writer = Callable[[int, int, list[int], list[int]], None]


def _threads(writers: int, commits: int, writer: Writer) -> dict[str, Any]:
    """``commits`` shared by ``writers`` threads started together; an error in any is raised."""
    latencies: list[int] = []
    conflicts: list[int] = []
    errors: list[BaseException] = []
    shares = [commits // writers + (1 if n < commits % writers else 0) for n in range(writers)]

    def run(number: int) -> None:
        try:
            writer(number, shares[number], latencies, conflicts)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(writers)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if errors:
        raise errors[0]
    return {
        "commits": len(latencies),
        "elapsed_s": elapsed,
        "latencies_us": latencies,
        "conflicts": len(conflicts),
    }


def main(spec_path: str, result_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    target = spec["target"]
    site = target["kind"] == "site"
    result: dict[str, Any] = {}
    if spec["mode"] == "grow":
        if site:
            site_grow(target)
        else:
            zodb_grow(target, spec["objects"], spec["writers"])
    elif site:
        result = site_measure(spec)
    else:
        result = zodb_measure(spec)
    Path(result_path).write_text(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
