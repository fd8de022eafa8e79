"""``--profile`` and ``--profile-rate`` on a command that measures a served application (the
ladder, the matrix), refused before anything starts when py-spy cannot sample."""

import argparse

from layerbench.console.numbers import whole
from layerbench.errors import ConfigError
from layerbench.profile.pyspy_record import DEFAULT_RATE_HZ, MAX_PROFILE_RATE_HZ, check_profiling


def add_profile_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``what``: what each profile is of (``per cell``)."""
    parser.add_argument(
        "--profile",
        action="store_true",
        help="sample the server's Python workers with py-spy during each measured trial: "
        f"{what}, where its CPU goes by layer (SQLAlchemy, Jinja2, the server, the standard "
        "library…); flame graphs in the HTML report",
    )
    parser.add_argument(
        "--profile-rate",
        type=whole(1, MAX_PROFILE_RATE_HZ),
        default=DEFAULT_RATE_HZ,
        metavar="HZ",
        help=f"--profile's samples per second of each worker ({DEFAULT_RATE_HZ})",
    )


def check_profile_run(asked: bool, on_topology: bool) -> None:
    """``--profile`` refused when it cannot be done: on a topology (py-spy attaches on this
    machine), or without py-spy or the right to trace the workers."""
    if not asked:
        return
    if on_topology:
        raise ConfigError("--profile samples the workers on this machine: not with --topology")
    check_profiling()
