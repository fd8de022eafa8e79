"""What every server adapter shares: a generated config in a work directory, and the lifecycle
of whatever layerbench starts (:class:`~layerbench.proc.lifecycle.ProcessLifecycle`: a process
group, a readiness probe waited for as long as the start progresses, a stop that takes the
whole tree down) with an HTTP probe as its readiness."""

import http.client
import os
import time
from abc import abstractmethod
from contextlib import AbstractContextManager
from http import HTTPStatus
from pathlib import Path
from typing import Protocol

from layerbench.errors import ServerStartError
from layerbench.proc.http_probe import http_get
from layerbench.proc.lifecycle import ProcessLifecycle
from layerbench.proc.ports import LOOPBACK, ensure_port_free
from layerbench.proc.process import ManagedProcess
from layerbench.roles import SERVER_ROLE
from layerbench.servers.loaded_workers import fresh_loaded_dir, loaded_count, not_loaded_reason
from layerbench.site_contract import LOADED_DIR_VARIABLE

# A start that goes this long without progress (no more workers loaded, its processes using no
# CPU) has failed; one that progresses is waited for, up to readiness.START_CAP_S.
START_TIMEOUT_S = 20.0
# A server answering 500 this long is failing (its application does not load), not starting:
# its start ends then, rather than after START_TIMEOUT_S.
FAILING_FOR_S = 1.0
PROBE_INTERVAL_S = 0.05
# Connections a server lets wait to be accepted: at c=1000 a short queue refuses connections.
LISTEN_BACKLOG = 1024


class FailingAnswerError(Exception):
    """The server answers, with a failure: something wrong in it, not a start under way."""


class ProbeSite(Protocol):
    """Where a readiness probe is sent from: a host of the lab's network (a
    :class:`~layerbench.hosts.placement.Placement`)."""

    @property
    def name(self) -> str: ...

    def entered(self) -> AbstractContextManager[None]: ...


class ManagedServer(ProcessLifecycle):
    name: str
    ready_path = "/"
    probe_interval_s = PROBE_INTERVAL_S
    # Seconds a readiness probe waits for its answer (longer where each probe left unanswered
    # would start another process's import: layerbench/replicate/patient_probes.py).
    probe_timeout_s = 1.0

    def __init__(
        self,
        workdir: Path,
        port: int,
        cpus: frozenset[int] | None = None,
        host: str = LOOPBACK,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        super().__init__(cpus=cpus, start_timeout_s=start_timeout_s)
        self.workdir = workdir
        self.host = host
        self.port = port
        self._loaded_dir: Path | None = None
        # Where its readiness is probed from: the starting thread's network, unless the lab
        # sends the probe the way its requests come (on a topology, from a client host).
        self.probed_from: ProbeSite | None = None

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def log_path(self) -> Path:
        """Where its output goes (its error log, and its access log when it keeps one)."""
        return self.workdir / f"{self.name}.log"

    @property
    def session(self) -> int:
        """The session its processes run in (the sampler's way to find them)."""
        return self.pid

    def roles(self) -> dict[str, set[int]]:
        """The sessions of its processes by role, for the sampler."""
        return {SERVER_ROLE: {self.session}}

    def versions(self) -> dict[str, str]:
        """Every program it runs, with its version."""
        return {self.name: self.version()}

    @abstractmethod
    def version(self) -> str:
        """The server's version, recorded with every result."""

    @abstractmethod
    def command(self) -> list[str]:
        """The argv that runs the server in the foreground."""

    def prepare(self) -> None:  # an optional hook, empty by default
        """Write configuration and content into ``self.workdir`` before the start."""

    def workers_loading(self) -> int | None:
        """How many of its processes load the application as it starts: the start is ready
        once that many have (:mod:`layerbench_sites.app.loaded_announcement`), not at its first
        answer. None: its first answer is enough (one process, or no application of ours)."""
        return None

    def start(self) -> "ManagedServer":
        ensure_port_free(self.host, self.port)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.prepare()
        environment = self.environment()
        self._loaded_dir = None
        if self.workers_loading() is not None:
            self._loaded_dir = fresh_loaded_dir(self.workdir)
            inherited = os.environ if environment is None else environment
            environment = {**inherited, LOADED_DIR_VARIABLE: str(self._loaded_dir)}
        try:
            process = self.launch(
                self.name, self.command(), log_path=self.log_path, env=environment
            )
            self._wait_until_ready(process)
        except BaseException:
            self.stop()
            raise
        return self

    def probe(self) -> str | None:
        """None once the server answers; otherwise why not yet (the last reason is shown when
        it never does); :class:`FailingAnswerError` when it answers with a failure. By default: a
        200 at ``ready_path``, and a 500 is a failure."""
        url = self.base_url + self.ready_path
        try:
            response = http_get(url, timeout_s=self.probe_timeout_s)
        except (OSError, http.client.HTTPException) as error:
            return f"{url}: {error or type(error).__name__}"
        if response.status == HTTPStatus.INTERNAL_SERVER_ERROR:
            raise FailingAnswerError(f"{url}: HTTP {response.status}")
        return None if response.status == HTTPStatus.OK else f"{url}: HTTP {response.status}"

    def _wait_until_ready(self, process: ManagedProcess) -> None:
        failing_since: float | None = None

        def ready_reason() -> str | None:
            """:meth:`probe`, then every worker loaded (:meth:`workers_loading`), and the end
            of the start once it has answered with a failure for FAILING_FOR_S."""
            nonlocal failing_since
            try:
                reason = self._probe_from_site()
            except FailingAnswerError as failing:
                failing_since = time.monotonic() if failing_since is None else failing_since
                if time.monotonic() - failing_since >= FAILING_FOR_S:
                    raise ServerStartError(
                        self.name, f"it answers {failing}", process.log_tail()
                    ) from None
                return str(failing)
            failing_since = None
            expected = self.workers_loading()
            if reason is None and self._loaded_dir is not None and expected is not None:
                return not_loaded_reason(self._loaded_dir, expected)
            return reason

        loaded_dir = self._loaded_dir
        count = None if loaded_dir is None else lambda: loaded_count(loaded_dir)
        self.wait_ready(process, ready_reason, announced=count)

    def _probe_from_site(self) -> str | None:
        """:meth:`probe`, sent from :attr:`probed_from` when it is set."""
        if self.probed_from is None:
            return self.probe()
        with self.probed_from.entered():
            reason = self.probe()
        return None if reason is None else f"from {self.probed_from.name}: {reason}"
