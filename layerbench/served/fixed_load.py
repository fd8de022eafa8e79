"""A fixed number of requests, at a fixed concurrency, sent by the load generator and every one
checked answered with a 2xx: what a counted window serves (no time limit: a count of requests
is what makes two windows comparable)."""

import json
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import LoadGeneratorError
from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.process import ManagedProcess
from layerbench.results.load_result import LoadResult

# Seconds a request may take under callgrind before it counts as failed.
REQUEST_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class FixedLoad:
    url: str
    workdir: Path
    concurrency: int = 1
    # A request with a body: POSTed from this file, of this type.
    body_file: Path | None = None
    content_type: str | None = None
    cpus: frozenset[int] | None = None
    # Seconds a request may take before it counts as failed.
    timeout_s: float = REQUEST_TIMEOUT_S

    def argv(self, requests: int, json_path: Path, rate: float | None = None) -> list[str]:
        """``rate``: requests per second, sent at that rate whatever the server does (the
        open loop); None: each sent once the one before is answered."""
        paced = ["--rate", f"{rate:.6g}"] if rate is not None else []
        body = (
            ["-p", str(self.body_file), "-T", self.content_type or "text/plain"]
            if self.body_file is not None
            else []
        )
        return [
            str(find_load_generator()),
            "-q",
            "-k",
            "-n",
            str(requests),
            "-c",
            str(self.concurrency),
            "-s",
            f"{self.timeout_s:g}",
            "--json",
            str(json_path),
            *paced,
            *body,
            self.url,
        ]

    def send(self, requests: int, label: str, rate: float | None = None) -> LoadResult:
        """Send ``requests`` requests (at ``rate`` per second, if given); a LoadGeneratorError
        unless each was answered 2xx."""
        json_path = self.workdir / f"load-{label}.json"
        argv = self.argv(requests, json_path, rate)
        process = ManagedProcess(
            "layerbench-load", argv, log_path=self.workdir / f"load-{label}.log", cpus=self.cpus
        )
        with process:
            returncode = process.wait()
        if returncode != 0:
            raise LoadGeneratorError(
                f"layerbench-load failed (exit status {returncode}) on {self.url}: "
                + process.log_tail(lines=3)
            )
        result = LoadResult.from_document(json.loads(json_path.read_text()))
        if result.requests_completed != requests or result.errors:
            raise LoadGeneratorError(
                f"{self.url}: {result.requests_completed} of {requests} requests completed in a "
                f"counted window, {result.errors} failed ({result.errors_and_statuses or 'none'})"
            )
        return result
