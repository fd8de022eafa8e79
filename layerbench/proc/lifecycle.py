"""The one lifecycle of whatever layerbench starts and waits for, a server adapter
(:class:`~layerbench.servers.managed_server.ManagedServer`) or a backing service
(:class:`~layerbench.services.service.ManagedService`):

    launch:      one more of its processes, its command run with its environment as a
                 :class:`~layerbench.proc.process.ManagedProcess` (a process group of its own,
                 its watchdog), pinned to its CPUs, ended by its stop signal
    wait_ready:  its probe repeated until it says ready, for as long as the start progresses
                 (:mod:`~layerbench.proc.readiness`: more processes announced, or CPU used)
    check_alive: every process still running, or the first that exited, with its log's tail
    stop:        every process but the first at once (each may take its grace), then the first

What it runs and how it answers is the subclass's (a server: an HTTP request; a service: a real
protocol request); its ``start`` launches and waits, and its ``stop`` ends with
:meth:`ProcessLifecycle.stop_processes`. The first process launched is the main one: its pid is
:attr:`pid`, its log :meth:`log_tail`'s."""

import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ClassVar

from layerbench.errors import ServerDiedError
from layerbench.proc.interruptions_deferred import interruptions_deferred
from layerbench.proc.process import ManagedProcess
from layerbench.proc.readiness import START_CAP_S, ReadinessProbe, wait_until_ready
from layerbench.proc.run_as import RunAs
from layerbench.proc.start_progress import StartProgress
from layerbench.proc.start_stop import StartStop


class ProcessLifecycle(StartStop):
    name: str
    # The signal that stops its processes fast and cleanly (PostgreSQL's is SIGINT).
    stop_signal: ClassVar[signal.Signals] = signal.SIGTERM
    # How often its probe is repeated while it starts.
    probe_interval_s: ClassVar[float] = 0.05
    # The most a start that keeps progressing is given (a counted start raises its own).
    start_cap_s: float = START_CAP_S

    def __init__(self, *, cpus: frozenset[int] | None, start_timeout_s: float) -> None:
        self.cpus = cpus
        # A start that goes this long without progress has failed.
        self.start_timeout_s = start_timeout_s
        self._processes: list[ManagedProcess] = []
        self._stopped_main: ManagedProcess | None = None

    def environment(self) -> dict[str, str] | None:
        """Its processes' environment; None inherits ours."""
        return None

    def launch(
        self,
        name: str,
        argv: Sequence[str],
        *,
        log_path: Path,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        run_as: RunAs | None = None,
    ) -> ManagedProcess:
        """Start ``argv`` as one more of its processes (``env``, or :meth:`environment`);
        once started, it is stopped with the others by :meth:`stop_processes`, also when it
        never gets ready."""
        process = ManagedProcess(
            name,
            argv,
            log_path=log_path,
            env=self.environment() if env is None else env,
            cpus=self.cpus,
            cwd=cwd,
            run_as=run_as,
            stop_signal=self.stop_signal,
        )
        process.start()  # when it raises, what it may have forked is its watchdog's to end
        self._processes.append(process)
        return process

    def wait_ready(
        self,
        process: ManagedProcess,
        ready: ReadinessProbe,
        *,
        announced: Callable[[], int] | None = None,
        interval_s: float | None = None,
    ) -> None:
        """Return once ``ready`` says None; raise ServerStartError, with ``process``'s log,
        when it exits first or its start goes :attr:`start_timeout_s` without progress (its
        tree using no CPU, ``announced``, a count of its processes that say they loaded, not
        growing)."""
        wait_until_ready(
            process,
            process.name,
            ready,
            timeout_s=self.start_timeout_s,
            interval_s=self.probe_interval_s if interval_s is None else interval_s,
            progress=StartProgress(process.pid, announced),
            cap_s=self.start_cap_s,
        )

    @property
    def started(self) -> bool:
        """Whether a main process has been launched (it may have been stopped since)."""
        return bool(self._processes) or self._stopped_main is not None

    def running(self) -> bool:
        """Whether its main process runs (launched, not stopped, not exited)."""
        return bool(self._processes) and self._processes[0].returncode() is None

    @property
    def pid(self) -> int:
        """Its main process's pid (its process group's and its session's)."""
        return self.process.pid

    @property
    def pids(self) -> tuple[int, ...]:
        """Every running process's: the main one's, then the others' in the order launched."""
        return tuple(process.pid for process in self._processes)

    def log_tail(self, lines: int = 15) -> str:
        """The last ``lines`` of its main process's log."""
        return self.process.log_tail(lines)

    def check_alive(self) -> None:
        """Raise ServerDiedError, with its log's tail, for the first of its running processes
        that has exited."""
        for process in self._processes:
            if (status := process.returncode()) is not None:
                raise ServerDiedError(process.name, status, process.log_tail())

    def stop(self) -> None:
        self.stop_processes()

    def stop_processes(self) -> None:
        """End every process it launched, each with its whole group: the others at once (each
        may take its grace: memcached takes about a second), then the main one. The main one's
        pid and log stay readable; the next one launched is the main one of a new start.
        Ctrl-C meanwhile is raised once every one is stopped (as :meth:`ManagedProcess.stop`
        does for each)."""
        with interruptions_deferred():
            processes, self._processes = self._processes, []
            main, others = processes[:1], processes[1:]
            if others:
                with ThreadPoolExecutor(len(others)) as stopping:
                    list(stopping.map(ManagedProcess.stop, others))
            for process in main:
                process.stop()
                self._stopped_main = process

    @property
    def process(self) -> ManagedProcess:
        """Its main process, running, or else the last one stopped."""
        main = self._processes[0] if self._processes else self._stopped_main
        if main is None:
            raise RuntimeError(f"{self.name} was not started")
        return main
