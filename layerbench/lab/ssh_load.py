"""The load generator on a host reached over SSH (:mod:`layerbench.hosts.ssh_host`), its JSON
read back over the ssh channel.

It runs as ``layerbench-load ... --json -`` under ``ssh -tt``
(:mod:`layerbench.hosts.ssh_command`): its report comes back on the channel, with its
messages (every one a line that starts ``layerbench-load:``) and ssh's own errors beside it
in the one stream a terminal has; that stream is the run's log. Ending the local ssh ends the
remote run (sshd hangs its terminal up): :class:`SshSessions` does so for every SSH run of a
load that ends early.
"""

import os
import signal
import subprocess
import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from layerbench.documents import parse_json
from layerbench.errors import ConfigError, LoadGeneratorError
from layerbench.hosts.ssh_command import CONNECT_TIMEOUT_S, EXIT_SSH_FAILED, ssh_command
from layerbench.hosts.ssh_host import SshHost
from layerbench.lab.loadgen import EXIT_NO_RESPONSE, OVERRUN_ALLOWANCE_S, LoadSpec
from layerbench.proc.process import ManagedProcess
from layerbench.results.load_result import BINARY, LoadResult
from layerbench.results.no_response import no_response_reason

MESSAGE_PREFIX = f"{BINARY}:"
STDOUT = Path("-")  # --json -: the report on stdout


def run_load_over_ssh(
    host: SshHost,
    ssh_config: Path | None,
    *,
    binary: Path,
    url: str,
    spec: LoadSpec,
    workdir: Path,
    started: Callable[[int], None] | None = None,
) -> LoadResult:
    """The load generator's run on ``host`` (at ``host.load_binary``, else at ``binary``'s
    path); ``started`` is told the local ssh's pid once it runs."""
    if spec.body_file is not None or spec.urls_file is not None:
        raise ConfigError(
            f"the SSH host {host.name} runs a one-URL load only (a body or URL list file is "
            "on this machine, not on it)"
        )
    remote_binary = Path(host.load_binary) if host.load_binary else binary
    argv = ssh_command(host, ssh_config, spec.argv(remote_binary, url, STDOUT))
    log_path = workdir / f"load-{host.name}.log"
    log_path.unlink(missing_ok=True)  # the log is the report: this run's alone
    process = ManagedProcess(f"ssh {host.name}", argv, log_path=log_path)
    with process:
        if started is not None:
            started(process.pid)
        try:
            returncode = process.wait(
                CONNECT_TIMEOUT_S + spec.warmup_s + spec.duration_s + OVERRUN_ALLOWANCE_S
            )
        except subprocess.TimeoutExpired:
            raise LoadGeneratorError(
                f"{BINARY} on the SSH host {host.name} did not finish in time against {url}"
            ) from None
    lines = log_path.read_text(errors="replace").replace("\r", "").splitlines()
    return _result(host, returncode, lines)


def _result(host: SshHost, returncode: int, lines: list[str]) -> LoadResult:
    messages = [line for line in lines if line.startswith(MESSAGE_PREFIX)]
    report = "\n".join(line for line in lines if not line.startswith(MESSAGE_PREFIX))
    port = f":{host.port}" if host.port is not None else ""
    where = f"the SSH host {host.name} ({host.destination}{port})"
    last = (messages or [line for line in lines if line.strip()] or ["no output"])[-1].strip()
    if returncode == EXIT_SSH_FAILED:  # its own lines (a ProxyCommand's too) say why
        said = [line.strip() for line in lines if line.strip()][-3:] or ["no output"]
        raise LoadGeneratorError(f"ssh to {where} failed: {'; '.join(said)}")
    if returncode == EXIT_NO_RESPONSE:
        try:
            raise LoadGeneratorError(f"on {where}: {no_response_reason(_document(report))}")
        except ValueError:
            raise LoadGeneratorError(f"on {where}: {last}") from None
    if returncode != 0:
        raise LoadGeneratorError(
            f"{BINARY} on {where} failed with exit status {returncode}: {last}"
        )
    try:
        return LoadResult.from_document(_document(report))
    except ValueError as error:
        raise LoadGeneratorError(f"{BINARY} on {where} sent no readable JSON: {error}") from None


def _document(report: str) -> dict[str, object]:
    """The remote load generator's JSON, read as every document is (no NaN, no unbounded
    numbers or nesting: what another machine sends is not trusted)."""
    try:
        document = parse_json(report, "its report")
    except ConfigError as error:
        raise ValueError(str(error)) from None
    if not isinstance(document, dict):
        raise ValueError("not a JSON object")
    return document


class SshSessions:
    """The local ssh clients of one load's SSH runs (``started`` is each run's callback). On
    an early end (a failure elsewhere, Ctrl-C) :meth:`end` with ``hang_up`` sends each
    SIGTERM, which ends its remote run. Each is held by a pidfd from its start: the signal
    reaches that ssh only, never a reused pid."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._handles: list[int] = []
        self._ended = False

    def started(self, pid: int) -> None:
        handle = os.pidfd_open(pid)
        with self._lock:
            if not self._ended:
                self._handles.append(handle)
                return
        _hang_up(handle)  # started after the load had ended
        os.close(handle)

    def end(self, *, hang_up: bool) -> None:
        """No more runs; with ``hang_up``, those still running are ended."""
        with self._lock:
            self._ended = True
            for handle in self._handles:
                if hang_up:
                    _hang_up(handle)
                os.close(handle)
            self._handles.clear()


def _hang_up(handle: int) -> None:
    with suppress(ProcessLookupError):
        signal.pidfd_send_signal(handle, signal.SIGTERM)
