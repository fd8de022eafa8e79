"""How long each throwaway backing service takes to start, answer, and stop.

    .venv/bin/python bench/services_startup.py [--repeats 5] [--services postgres,mariadb,...]

Each start is the whole lifecycle up to a usable URL: private directory, initialisation
(initdb, mariadb-install-db), the server, the first real answer, the database the URL names.
Prints every run and the median per service, with the fastest service as the anchor.
"""

import argparse
import statistics
import time

from layerbench.services.registry import SERVICES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--services", default=",".join(SERVICES))
    args = parser.parse_args()
    names = args.services.split(",")
    starts: dict[str, list[float]] = {name: [] for name in names}
    stops: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(args.repeats):
        for name in names:  # interleaved: A B C D A B C D …
            service = SERVICES[name]()
            began = time.perf_counter()
            service.start()
            started = time.perf_counter()
            service.stop()
            starts[name].append(started - began)
            stops[name].append(time.perf_counter() - started)
    medians = {name: statistics.median(values) for name, values in starts.items()}
    anchor = min(medians.values())
    print(
        f"{'service':<10} {'start median':>12} {'min':>7} {'max':>7} {'stop median':>12}  x fastest"
    )
    for name in names:
        print(
            f"{name:<10} {medians[name]:>10.3f} s {min(starts[name]):>6.3f} "
            f"{max(starts[name]):>6.3f} {statistics.median(stops[name]):>10.3f} s"
            f"  x{medians[name] / anchor:.1f}"
        )


if __name__ == "__main__":
    main()
