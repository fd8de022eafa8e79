"""Runs for the results database's tests: ladder documents built by hand, and a file made
unwritable for real."""

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from layerbench.stats.median import median


def ladder_v3(rates: dict[str, list[float]], **options: Any) -> dict[str, Any]:
    return {
        "version": 3,
        "started_at": "2026-11-23T10:00:00+00:00",
        "finished_at": "2026-11-23T10:02:00+00:00",
        "interrupted": False,
        "options": {"concurrency": 10, "repeats": 5, "server": "gunicorn", **options},
        "rungs": [
            {
                "rung": rung,
                "status": "ok",
                "requests_per_s": median(values),
                "repeats": [{"requests_per_s": value} for value in values],
            }
            for rung, values in rates.items()
        ],
    }


LADDER_V1 = {
    "version": 1,
    "started_at": "2026-11-20T10:00:00+00:00",
    "options": {"concurrency": 10, "workers": 2},
    "rungs": [
        {"rung": "static", "status": "ok", "requests_per_s": 9700.0},
        {"rung": "nginx-less", "status": "skipped", "requests_per_s": None},
    ],
}


@contextmanager
def unwritable_file(path: Path) -> Iterator[None]:
    """``path`` made unwritable: immutable (chattr +i; as root, a mode of 0444 alone does not
    stop writes), else read-only by its mode for a user other than root; skips the test when
    neither holds. Writable again afterwards, for the clean-up."""
    immutable = (
        shutil.which("chattr") is not None
        and subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False).returncode
        == 0
    )
    if not immutable:
        path.chmod(0o444)
    try:
        try:
            with path.open("r+b"):
                pytest.skip("no way to make a file unwritable here (root, no chattr +i)")
        except PermissionError:
            pass
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        path.chmod(0o644)
