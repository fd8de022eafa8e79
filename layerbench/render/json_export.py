"""Documents as JSON (results, baselines), written atomically so a crash or Ctrl-C never leaves
half a file, to a path checked before anything runs."""

import json
import os
from pathlib import Path
from typing import Any

from layerbench.errors import ConfigError


def check_writable(path: Path, what: str) -> None:
    """Refuse, before anything runs, a file whose directory is missing or not writable (``-``,
    stdout, is always writable): a run must not measure for minutes, then fail to keep it."""
    if str(path) == "-":
        return
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir() or not os.access(directory, os.W_OK):
        raise ConfigError(f"cannot write {what} to {path}: {directory} is not a writable directory")


def write_json(document: dict[str, Any], path: Path) -> None:
    if str(path) == "-":
        print(json.dumps(document, indent=2))
        return
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(document, indent=2) + "\n")
    os.replace(partial, path)
