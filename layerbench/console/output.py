"""A command's output on stdout, written at once (flushed), and what happens when it cannot be.

A reader that has had enough (``| head -1``) closes the pipe: the command ends quietly, with
the status a shell reports for ``cat`` or ``seq`` ended that way, 141 (128 + SIGPIPE), as
Ctrl-C's is 130 (128 + SIGINT). A stdout that cannot be written (a full disk, ``> /dev/full``)
is a one-line :class:`OutputError`. Either way stdout is then pointed at /dev/null, so that
Python's own flush at exit has nothing left to complain about.
"""

import os
import signal
import sys

from layerbench.errors import OutputError

EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE


def print_out(*lines: str) -> None:
    """Each of ``lines`` and a newline, on stdout, flushed."""
    try:
        for line in lines:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
        raise SystemExit(EXIT_BROKEN_PIPE) from None
    except OSError as error:
        _discard_stdout()
        raise OutputError(f"cannot write to stdout: {error.strerror}") from None


def _discard_stdout() -> None:
    try:
        stdout = sys.stdout.fileno()
    except (OSError, ValueError):  # not a file (captured): nothing will flush to it
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, stdout)
    os.close(devnull)
