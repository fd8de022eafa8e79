"""Generated ids do not collide: THREADS threads each draw PER_THREAD ids at once.

    .venv/bin/python bench/ids_uniqueness.py [--threads 16] [--per-thread 1000000]

Prints the number of ids, the duplicates found (expected: 0; the birthday bound for 16 million
draws from 2**64 is about 7 in a million), how the draws spread over the range (the share in the
top half should be close to 0.5: the seed's generator reached only the first 1 %), and the rate.
"""

import argparse
import threading
import time

from layerbench_sites.ids.codec import MAX_NUMBER, decode
from layerbench_sites.ids.generate import new_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--per-thread", type=int, default=1_000_000)
    args = parser.parse_args()
    batches: list[list[str]] = [[] for _ in range(args.threads)]
    start = threading.Barrier(args.threads + 1)

    def draw(batch: list[str]) -> None:
        start.wait()
        batch.extend(new_id() for _ in range(args.per_thread))

    threads = [threading.Thread(target=draw, args=(batch,)) for batch in batches]
    for thread in threads:
        thread.start()
    started = time.perf_counter()
    start.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    total = sum(len(batch) for batch in batches)
    distinct = len({identifier for batch in batches for identifier in batch})
    expected = total * (total - 1) / 2 / 2**64
    sample = [decode(identifier) for batch in batches for identifier in batch[:10_000]]
    top_half = sum(n > MAX_NUMBER // 2 for n in sample) / len(sample)
    print(f"{args.threads} threads x {args.per_thread:,} ids = {total:,} ids in {elapsed:.1f} s")
    print(f"  duplicates: {total - distinct} (expected by the birthday bound: {expected:.2g})")
    print(f"  share of a {len(sample):,}-id sample in the top half of the range: {top_half:.3f}")
    print(f"  {total / elapsed:,.0f} ids/s")


if __name__ == "__main__":
    main()
