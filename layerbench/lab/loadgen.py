"""The load generator as the lab uses it: a pinned subprocess that hands back JSON.

What it hands back is read by :mod:`layerbench.results.load_result`.
"""

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import LoadGeneratorError
from layerbench.proc.process import ManagedProcess
from layerbench.results.load_result import BINARY, LoadResult
from layerbench.results.no_response import no_response_reason

BINARY_VARIABLE = "LAYERBENCH_LOAD"
# Where it is not anywhere: the three ways to have it, in one line.
NOT_FOUND = (
    f"{BINARY} (the load generator) is not installed: it comes with `pip install layerbench`; "
    f"from a clone, `cargo install --path load`; or name the binary with ${BINARY_VARIABLE}"
)
EXIT_NO_RESPONSE = 1
# The most connections a run opens (-c, a matrix's concurrency levels).
MAX_CONCURRENCY = 20_000
# Beyond the planned duration: start-up, connection set-up, the report, a slow last request.
OVERRUN_ALLOWANCE_S = 30.0


def find_load_generator() -> Path:
    """The load generator installed beside this layerbench first — in this Python's bin/
    (a venv's, pipx's or uv's, where the wheel puts both programs), or beside the
    ``layerbench`` script that is running — so that the two are of the same release; else
    $LAYERBENCH_LOAD; else the first on PATH."""
    beside = [Path(sys.executable).parent / BINARY]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "layerbench":
        beside.append(script.resolve().parent / BINARY)
    candidates = [*map(str, beside), os.environ.get(BINARY_VARIABLE)]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return Path(candidate)
    found = shutil.which(BINARY)
    if found is None:
        raise LoadGeneratorError(NOT_FOUND)
    return Path(found)


@dataclass(frozen=True)
class LoadSpec:
    concurrency: int
    duration_s: float
    warmup_s: float
    keep_alive: bool = True
    timeout_s: float = 30.0
    threads: int = 1
    # A request with a body (the write rung): POSTed from this file with this type.
    body_file: Path | None = None
    content_type: str | None = None
    # Weighted URLs (`--urls`, a mixed rung) instead of the one URL.
    urls_file: Path | None = None

    def argv(self, binary: Path, url: str, json_path: Path) -> list[str]:
        argv = [
            str(binary),
            "-q",
            "-c",
            str(self.concurrency),
            "-t",
            f"{self.duration_s:g}",
            "--warmup",
            f"{self.warmup_s:g}",
            "-s",
            f"{self.timeout_s:g}",
            "--threads",
            str(self.threads),
            "--json",
            str(json_path),
        ]
        if self.keep_alive:
            argv.append("-k")
        if self.body_file is not None:
            argv += ["-p", str(self.body_file), "-T", self.content_type or "text/plain"]
        if self.urls_file is not None:
            return [*argv, "--urls", str(self.urls_file)]
        return [*argv, url]


def run_load(
    *,
    binary: Path,
    url: str,
    spec: LoadSpec,
    workdir: Path,
    label: str,
    cpus: frozenset[int] | None = None,
    started: Callable[[int], None] | None = None,
    prefix: Sequence[str] = (),
) -> LoadResult:
    """Runs the load generator to the end; ``started`` is told its session once it runs.
    ``prefix`` goes before its command line (``ip netns exec NS``: on a host of the lab's)."""
    json_path = workdir / f"load-{label}.json"
    log_path = workdir / f"load-{label}.log"
    argv = [*prefix, *spec.argv(binary, url, json_path)]
    process = ManagedProcess(BINARY, argv, log_path=log_path, cpus=cpus)
    with process:
        if started is not None:
            started(process.pid)
        try:
            returncode = process.wait(spec.warmup_s + spec.duration_s + OVERRUN_ALLOWANCE_S)
        except subprocess.TimeoutExpired:
            raise LoadGeneratorError(
                f"{BINARY} did not finish in time against {url}; its log: {process.log_tail()}"
            ) from None
    if returncode == EXIT_NO_RESPONSE:
        raise LoadGeneratorError(
            _why_no_response(json_path) or process.log_tail(lines=1) or f"no response from {url}"
        )
    if returncode != 0:
        raise LoadGeneratorError(
            f"{BINARY} failed with exit status {returncode}: {process.log_tail(lines=3)}"
        )
    try:
        document = json.loads(json_path.read_text())
    except (OSError, ValueError) as error:
        raise LoadGeneratorError(f"{BINARY} wrote no readable JSON: {error}") from None
    return LoadResult.from_document(document)


def _why_no_response(json_path: Path) -> str | None:
    """What the generator counted of a run that completed no request (None without its JSON)."""
    try:
        return no_response_reason(json.loads(json_path.read_text()))
    except (OSError, ValueError):
        return None
