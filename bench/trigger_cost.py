"""What the audit triggers cost: writes per second with and without them, in one run.

    .venv/bin/python bench/trigger_cost.py [--writes 20000] [--rounds 3]

On SQLite (a file in a temporary directory, WAL): each write is one transaction updating one
video through the data layer. Both schemas have the registry triggers; one also has the audit
triggers. Rounds alternate; prints each, the medians, and audited / unaudited (the anchor).
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from layerbench.datalayer.sqlite_store import SqliteStore, connect, create_schema


def writes_per_s(path: Path, writes: int, synchronous: str) -> float:
    store = SqliteStore(connect(path))
    store.connection.execute(f"PRAGMA synchronous = {synchronous}")
    video = store.create("videos", {"title": "t", "url": "u"}, actor="bench")
    started = time.perf_counter()
    for n in range(writes):
        store.update("videos", video, {"title": f"t{n}"}, actor="bench")
    elapsed = time.perf_counter() - started
    store.connection.close()
    return writes / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--synchronous",
        choices=["FULL", "NORMAL"],
        default="FULL",
        help="SQLite's durability: FULL syncs every commit (the default, and what a service "
        "would use); NORMAL in WAL mode does not, which shows the triggers' CPU cost",
    )
    args = parser.parse_args()
    rates: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as directory:
        for round_number in range(args.rounds):
            for audit in (False, True):
                path = Path(directory) / f"r{round_number}-{audit}.sqlite3"
                create_schema(path, audit=audit)
                rate = writes_per_s(path, args.writes, args.synchronous)
                rates[audit].append(rate)
                label = "audited  " if audit else "unaudited"
                print(f"  sqlite {label} {rate:>9,.0f} writes/s")
    unaudited, audited = statistics.median(rates[False]), statistics.median(rates[True])
    print(f"synchronous={args.synchronous}")
    print(f"median sqlite unaudited {unaudited:,.0f} writes/s, audited {audited:,.0f} writes/s")
    print(f"audited / unaudited: x{audited / unaudited:.3f}")


if __name__ == "__main__":
    main()
