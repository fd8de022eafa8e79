"""Every document layerbench writes (a run's results, a baseline, a cost or writes result, a
rendered report) is written here, the one way: to a path or to ``-`` (stdout), atomically;
a document as indented JSON.

    check_writable   before a run starts: a path whose directory is missing or not writable
                     is refused in one line (exit status 2), not after minutes of measuring
    write_document   the whole text first (a document that cannot be serialised leaves the
                     file as it was), then a temporary file in the same directory, flushed
                     and fsync'd, renamed over the path (os.replace), and the directory
                     fsync'd: a crash, a Ctrl-C or a full disk leaves the old file or the
                     new one, never half of one
    write_text       the same for a text already rendered (an HTML or Markdown report)
"""

import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path

from layerbench.errors import ConfigError, OutputError

STDOUT = "-"
# The mode of a new file (an existing file keeps its own): what a shell's redirection makes.
NEW_FILE_MODE = 0o644


def check_writable(path: Path | str, what: str) -> None:
    """Refuse, before anything runs, a file whose directory is missing or not writable (``-``,
    stdout, is always writable): a run must not measure for minutes, then fail to keep it."""
    if str(path) == STDOUT:
        return
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir() or not os.access(directory, os.W_OK):
        raise ConfigError(f"cannot write {what} to {path}: {directory} is not a writable directory")
    if path.is_dir():
        raise ConfigError(f"cannot write {what} to {path}: it is a directory")


def write_document(document: object, path: Path | str) -> None:
    """``document`` as indented JSON, with a final newline, to ``path`` (atomically: see the
    module) or to stdout when it is ``-``; an OutputError when the file cannot be written."""
    write_text(json.dumps(document, indent=2) + "\n", path)


def write_text(text: str, path: Path | str) -> None:
    """``text`` (a rendered report) to ``path``, atomically, or to stdout when it is ``-``."""
    if str(path) == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(path)
    try:
        _replace(path, text.encode())
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None


def _replace(path: Path, data: bytes) -> None:
    directory = path.parent if str(path.parent) else Path(".")
    mode = path.stat().st_mode & 0o7777 if path.is_file() else NEW_FILE_MODE
    descriptor, temporary = tempfile.mkstemp(
        dir=directory, prefix=f".{path.name}.", suffix=".partial"
    )
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _sync_directory(directory)


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable (a crash after it keeps the new name)."""
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
