"""The stale-page driver: one writer and several readers against a site at once, and the reads
that started after a write had returned yet show what it replaced.

The writer writes versions 1, 2, … in order; each reader GETs its paths in turn and reads off
the version each page shows. A read that started after version N's write returned and shows
a version below N is stale. Used by the bare application's test (test_app_stale_pages) and the
framework applications' (test_framework_stale_pages)."""

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from tests.app_server import Client

VERSION = re.compile(rb"version (\d+)\b")
JOIN_TIMEOUT_S = 120


@dataclass(frozen=True)
class Read:
    started: float
    path: str
    version: int
    # X-Cache: miss, hit (the application's cache) or front (nginx served the page's file);
    # empty from an application that does not say.
    cache: str


@dataclass(frozen=True)
class Drive:
    reads: list[Read]
    # (when the write returned, its version), in order.
    written: list[tuple[float, int]]

    def stale(self) -> list[tuple[str, int, int]]:
        return stale_reads(self.reads, self.written)


def versions_in(body: bytes) -> list[int]:
    return [int(found) for found in VERSION.findall(body)]


def stale_reads(reads: list[Read], written: list[tuple[float, int]]) -> list[tuple[str, int, int]]:
    """Reads that started after a write had returned and show an older version than it."""
    stale = []
    for one in reads:
        returned_before = [version for at, version in written if at < one.started]
        if returned_before and one.version < max(returned_before):
            stale.append((one.path, one.version, max(returned_before)))
    return stale


def drive(
    site: Client,
    write: Callable[[int], None],
    paths: list[str],
    version_of: Callable[[str, bytes], int],
    *,
    writes: int,
    readers: int,
) -> Drive:
    """``write(version)`` for versions 1 to ``writes`` while ``readers`` threads GET ``paths``
    round and round until the writer is done; ``version_of(path, body)`` reads a page's
    version (and asserts what else the page must show)."""
    written: list[tuple[float, int]] = []
    reads: list[Read] = []
    done = threading.Event()
    failures: list[str] = []

    def writer() -> None:
        try:
            for version in range(1, writes + 1):
                write(version)
                written.append((time.monotonic(), version))
        except BaseException as error:
            failures.append(f"writer: {error!r}")
        finally:
            done.set()

    def reader(offset: int) -> None:
        n = offset
        try:
            while not done.is_set():
                path = paths[n % len(paths)]
                n += 1
                started = time.monotonic()
                answer = site.request("GET", path)
                assert answer.status == 200, (path, answer.status, answer.body[:300])
                version = version_of(path, answer.body)
                reads.append(Read(started, path, version, answer.headers.get("x-cache", "")))
        except BaseException as error:
            failures.append(f"reader: {error!r}")

    threads = [threading.Thread(target=writer)]
    threads += [threading.Thread(target=reader, args=(i,)) for i in range(readers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_TIMEOUT_S)
    assert not failures, failures
    assert not any(thread.is_alive() for thread in threads)
    return Drive(reads, written)
