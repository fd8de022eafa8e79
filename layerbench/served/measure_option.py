"""``--measure instructions|cycles``, the option ``matrix`` and ``ladder`` share."""

import argparse

from layerbench.served.served_cost import MEASURES


def add_measure_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--measure",
        choices=MEASURES,
        help="then count what a request costs the server, served: instructions per request "
        "by process role (front, server, application) under callgrind, and system calls by "
        "strace over three native starts, those that move with the start marked (timing); "
        "cycles adds callgrind's cache simulation (estimated cycles). See "
        "docs/guides/cost.md",
    )
