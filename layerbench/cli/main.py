"""``layerbench``: parse the command line, run one subcommand, and turn errors into messages.

This is the one place where an error becomes a message and an exit code. A command returns its
status (0, or 1 for a run whose rung, cell or URL failed or regressed) or raises one of
errors.py's typed errors, never printing it:

    0    done
    1    an error, or a rung failed; an IncompleteRunError (a mix not predicted) is said as a
         finding, ``layerbench: MESSAGE``, every other error as ``layerbench: error: MESSAGE``
    2    a usage error, in every command: argparse's, or a ConfigError (a wrong option,
         setting, name or file); a NothingMeasuredError (smoke measured nothing: not a
         regression)
    4    a MeasurementFailedError: smoke's measurement failed once begun (its server died, the
         load generator failed): neither a regression (1) nor a usage error (2)
    130  interrupted (Ctrl-C, SIGTERM, or SIGHUP: a closed terminal, a dropped SSH session)
    141  stdout closed by its reader (`| head -1`): quietly, by console/output.py's print_out
"""

import argparse
import ast
import os
import re
import signal
import sys
from collections.abc import Sequence
from types import FrameType
from typing import NoReturn

from layerbench import __version__
from layerbench.cli import (
    app_cmd,
    hosts_cmd,
    ids_cmd,
    report_cmd,
    results_cmd,
    services_cmd,
)
from layerbench.cluster import cluster_cmd
from layerbench.cost import cost_cmd
from layerbench.errors import (
    EXIT_MEASUREMENT_FAILED,
    ConfigError,
    IncompleteRunError,
    LayerbenchError,
    MeasurementFailedError,
    NothingMeasuredError,
)
from layerbench.extras import check_command as check_extras
from layerbench.hosts.lab_network import sweep_abandoned_networks
from layerbench.ladder import ladder_cmd, mix_cmd
from layerbench.matrix import matrix_cmd
from layerbench.proc.work_dirs import sweep_abandoned
from layerbench.render.terminal_text import escaped
from layerbench.replicate import replicate_cmd
from layerbench.smoke import smoke_cmd
from layerbench.words import nearest
from layerbench.writes import writes_cmd

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
STANDARD_STREAMS = (0, 1, 2)
USAGE_ERRORS = (ConfigError, NothingMeasuredError)


class Parser(argparse.ArgumentParser):
    """argparse's parser, its usage errors one line like every other error (and exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(
            EXIT_USAGE, f"layerbench: error: {nearest_choice(message)} (see {self.prog} --help)\n"
        )


# argparse's message for a value not among an option's choices (a subcommand's name too).
_INVALID_CHOICE = re.compile(
    r"argument (?P<option>.+?): invalid choice: (?P<given>'.*'|\".*\") "
    r"\(choose from (?P<choices>.*)\)$"
)


def nearest_choice(message: str) -> str:
    """argparse's "invalid choice: 'gunicorm' (choose from 'gunicorn', …)" with the nearest
    choice instead, "invalid choice: 'gunicorm'; did you mean gunicorn?"; a choice near none,
    and any other message, as it is."""
    match = _INVALID_CHOICE.match(message)
    if match is None:
        return message
    given = ast.literal_eval(match["given"])
    choices = [ast.literal_eval(choice) for choice in _QUOTED.findall(match["choices"])]
    near = nearest(given, choices)
    if near is None:
        return message
    return f"argument {match['option']}: invalid choice: {given!r}; did you mean {near}?"


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="layerbench",
        description="What each layer of a Python web stack costs, measured on this machine.",
    )
    parser.add_argument("--version", action="version", version=f"layerbench {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    ladder_cmd.add_parser(commands)
    matrix_cmd.add_parser(commands)
    mix_cmd.add_parser(commands)
    replicate_cmd.add_parser(commands, build_parser)
    results_cmd.add_parser(commands)
    report_cmd.add_parser(commands)
    smoke_cmd.add_parser(commands)
    cost_cmd.add_parser(commands)
    ids_cmd.add_parser(commands)
    hosts_cmd.add_parser(commands)
    services_cmd.add_parser(commands)
    writes_cmd.add_parser(commands)
    app_cmd.add_parser(commands)
    cluster_cmd.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    sys.exit(run(argv))


def run(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    if signal.getsignal(signal.SIGHUP) != signal.SIG_IGN:  # nohup's choice stays
        # Which streams are the terminal is asked now: once it is hung up, isatty says no.
        terminal = [fd for fd in STANDARD_STREAMS if os.isatty(fd)]
        signal.signal(signal.SIGHUP, lambda signum, frame: _hang_up(terminal))
    sweep_abandoned()  # work directories of runs that were killed
    sweep_abandoned_networks()  # and their hosts' network namespaces
    try:
        check_extras(args)  # a part whose extra is not installed: refused before anything starts
        exit_code: int = args.handler(args)
    except KeyboardInterrupt:
        print("layerbench: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except LayerbenchError as error:
        print(_message(error), file=sys.stderr)
        if isinstance(error, MeasurementFailedError):
            return EXIT_MEASUREMENT_FAILED
        return EXIT_USAGE if isinstance(error, USAGE_ERRORS) else EXIT_ERROR
    return exit_code


def _message(error: LayerbenchError) -> str:
    # What a user typed or a file held, escaped where a terminal would act on it; a message's
    # own lines (a server's log tail) stay lines.
    text = "\n".join(escaped(line) for line in str(error).split("\n"))
    if isinstance(error, IncompleteRunError):
        return f"layerbench: {text}"
    return f"layerbench: error: {text}"


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM takes the same orderly way out as Ctrl-C: children stopped, results kept."""
    raise KeyboardInterrupt


def _hang_up(terminal: list[int]) -> None:
    """SIGHUP (the terminal closed, the SSH session dropped) takes SIGTERM's way out. The
    terminal is gone: a write to it would fail (EIO) on that way, which writes progress lines
    and the last one, so the standard streams that were the terminal go to /dev/null first (a
    file or a pipe stays)."""
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in terminal:
            os.dup2(null, fd)
    finally:
        os.close(null)
    raise KeyboardInterrupt
