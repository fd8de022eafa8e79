"""What every throwaway backing service shares, on the lifecycle of whatever layerbench starts
(:class:`~layerbench.proc.lifecycle.ProcessLifecycle`: processes, readiness, check, stop).

    start:  a private directory, marked as ours (:mod:`~layerbench.proc.work_dirs`) →
            prepare (initdb, install-db, …) → the server on a free loopback port, as an
            unprivileged account when we are root → wait until it answers a real protocol
            request → after_ready (create the database) → its URL
    stop:   the whole process group, then what it recorded it keeps outside the directory
            (:mod:`~layerbench.proc.outside_resources`), then the directory

A service of several nodes (a cluster, a pool) is one such lifecycle: node 1 is the service's
own process; the others are started by :meth:`ManagedService.start_node` (in ``node2``, … inside
its directory, each waited for until ready), checked with node 1 by ``check_alive``, stopped
all at once before it, and listed in ``pids``.

Nothing in /etc or the system's data directories is read or written: every server is started
with its configuration on the command line and its data in the private directory. A port taken
between choosing it and the server binding it is retried with another.
"""

import shutil
import subprocess
import time
from abc import abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from layerbench.errors import LayerbenchError, ServerStartError
from layerbench.proc.binaries import find_program
from layerbench.proc.lifecycle import ProcessLifecycle
from layerbench.proc.outside_resources import DETACH_WAIT_S, release
from layerbench.proc.ports import LOOPBACK, free_port, holds_listening_socket
from layerbench.proc.process import ManagedProcess
from layerbench.proc.run_as import UNPRIVILEGED_ACCOUNT, RunAs, unprivileged_account
from layerbench.proc.work_dirs import make_work_directory

# A service start that goes this long without progress has failed (lifecycle.py).
START_TIMEOUT_S = 60.0
PORT_ATTEMPTS = 3
PROBE_INTERVAL_S = 0.01


class NodePortTakenError(ServerStartError):
    """A node of a several-node service did not start: a port chosen for it was taken by the
    time it started."""


class ManagedService(ProcessLifecycle):
    """A private server instance. Use as a context manager; ``url`` once started."""

    apt_package: ClassVar[str]
    probe_interval_s = PROBE_INTERVAL_S
    # The log line a server prints when its port is taken (retried with another port).
    port_taken_marker: ClassVar[str] = "Address already in use"
    # The account the server runs as when we are root.
    account: ClassVar[str] = UNPRIVILEGED_ACCOUNT

    def __init__(
        self, *, cpus: frozenset[int] | None = None, start_timeout_s: float = START_TIMEOUT_S
    ) -> None:
        super().__init__(cpus=cpus, start_timeout_s=start_timeout_s)
        self.host = LOOPBACK
        self.port = 0
        self.directory: Path | None = None
        self.run_as: RunAs | None = None
        self.startup_s: float | None = None

    # What each service says about itself.

    @abstractmethod
    def programs(self) -> dict[str, str]:
        """Program names this service runs → where to look for them (a path or a name)."""

    @abstractmethod
    def command(self, directory: Path, port: int) -> list[str]:
        """The server's command line: data in ``directory``, listening on LOOPBACK:port."""

    @abstractmethod
    def url_for(self, port: int) -> str: ...

    @abstractmethod
    def probe(self, url: str) -> None:
        """Raise when the server at ``url`` does not answer a real request."""

    def probe_ready(self) -> None:
        """The probe while waiting for a start: the URL, unless it names what after_ready
        creates."""
        self.probe(self.url_for(self.port))

    def choose_port(self) -> int:
        """The port to start the server on (tried again with another when it is taken)."""
        return free_port()

    def prepare(self, directory: Path) -> None:
        """Create what the server needs before its first start (a data directory)."""
        return

    def after_ready(self, url: str) -> None:
        """Set up what the URL promises (a database) once the server answers."""
        return

    def run_setup(self, argv: list[str], directory: Path, timeout_s: float = 120.0) -> None:
        """Run a preparation step (initdb, install-db) as the server's account, a managed
        process like the server (nothing of it outlives us), its output in a log of its own."""
        step = Path(argv[0]).name
        process = ManagedProcess(
            step, argv, log_path=directory / f"{step}.log", cwd=directory, run_as=self.run_as
        )
        with process:
            try:
                returncode = process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                raise ServerStartError(self.name, f"{step} took over {timeout_s:.0f} s") from None
        if returncode != 0:
            raise ServerStartError(
                self.name, f"{step} failed (exit status {returncode})", process.log_tail()
            )

    # The shared lifecycle.

    @property
    def url(self) -> str:
        if not self.started:
            raise RuntimeError(f"{self.name} was not started")
        return self.url_for(self.port)

    @property
    def urls(self) -> tuple[str, ...]:
        """Every URL it answers on: its one URL, or each node's of a cluster."""
        return (self.url,)

    def find(self, program: str) -> Path:
        location = self.programs()[program]
        if "/" in location:
            path = Path(location)
            if path.is_file():
                return path
            location = path.name
        return find_program(location, self.apt_package)

    def start(self) -> "ManagedService":
        for program in self.programs():
            self.find(program)
        began = time.monotonic()
        for attempt in range(1, PORT_ATTEMPTS + 1):
            try:
                self._start_once()
                break
            except NodePortTakenError:
                # Another node's port, free when chosen, was taken before that node started
                # (a run starting at once): all of it again, on other ports.
                if attempt == PORT_ATTEMPTS:
                    raise
        self.startup_s = time.monotonic() - began
        return self

    def _start_once(self) -> None:
        self.run_as = unprivileged_account(self.account)
        self.directory = make_work_directory(f"layerbench-{self.name}-")
        try:
            if self.run_as is not None:
                self.run_as.give(self.directory)
            self.prepare(self.directory)
            self._start_server(self.directory)
            self.after_ready(self.url)
        except BaseException:
            self.stop()
            raise

    def _start_server(self, directory: Path) -> None:
        for attempt in range(1, PORT_ATTEMPTS + 1):
            self.port = self.choose_port()
            process = self.launch(
                self.name,
                self.command(directory, self.port),
                log_path=directory / f"{self.name}-{attempt}.log",
                cwd=directory,
                run_as=self.run_as,
            )
            try:
                self.wait_ready(process, self._ready_reason)
                return
            except ServerStartError:
                taken = self.port_taken_marker in process.log_tail(40)
                self.stop_processes()
                if not taken or attempt == PORT_ATTEMPTS:
                    raise

    def node_directory(self, number: int) -> Path:
        """Node 1 lives in the service's directory, node N in ``nodeN`` inside it."""
        assert self.directory is not None
        return self.directory if number == 1 else self.directory / f"node{number}"

    def start_node(
        self,
        number: int,
        command: list[str],
        ready: Callable[[], str | None],
        interval_s: float | None = None,
    ) -> ManagedProcess:
        """Node ``number`` (2 and up) of a multi-node service: ``command`` run like the
        service's own process, in :meth:`node_directory` (made if absent), returned once
        ``ready`` says None (asked every ``interval_s``, by default every
        :attr:`probe_interval_s`); stopped with the service."""
        directory = self.node_directory(number)
        if not directory.exists():
            directory.mkdir()
            if self.run_as is not None:
                self.run_as.give(directory)
        process = self.launch(
            f"{self.name}-node{number}",
            command,
            log_path=directory / f"node{number}.log",
            cwd=directory,
            run_as=self.run_as,
        )
        try:
            self.wait_ready(process, ready, interval_s=interval_s)
        except ServerStartError as error:
            if self.port_taken_marker in process.log_tail(40):
                reason = "a port chosen for it was taken meanwhile"
                raise NodePortTakenError(error.server, reason, error.log_tail) from error
            raise
        return process

    def answers(self, url: str) -> Callable[[], str | None]:
        """A readiness probe for a node: None once the server at ``url`` answers its probe,
        otherwise why not."""

        def reason() -> str | None:
            try:
                self.probe(url)
            except LayerbenchError as error:
                return str(error)
            return None

        return reason

    def _ready_reason(self) -> str | None:
        """None once the server answers its probe from a socket of its own; otherwise why not
        yet."""
        try:
            self.probe_ready()
        except LayerbenchError as error:
            return str(error)
        if holds_listening_socket(self.pid, self.port):
            return None
        return f"port {self.port} answers, but from another process"

    def stop(self) -> None:
        self.stop_processes()
        if self.directory is not None:
            # What it kept outside its directory (PostgreSQL's SysV segment, when it was killed).
            release(self.directory, wait_s=DETACH_WAIT_S)
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
