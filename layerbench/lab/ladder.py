"""Run the ladder: for each stack, bring its server up; for each rung, verify → warm up →
measure; record every rung's result (measured, failed or skipped) as soon as it is known."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from layerbench.errors import LayerbenchError, MissingPackageError
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.options import LadderOptions
from layerbench.lab.results import LadderResult, RungResult, RungStatus
from layerbench.lab.rungs import LADDER, STATIC_BODY, STATIC_FILE, Rung, Stack
from layerbench.lab.trial import TrialRunner
from layerbench.lab.verify import verify_rung
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.nginx import NginxStatic
from layerbench.servers.ports import free_port
from layerbench.services.sqlite import create_seeded_database


class LadderObserver(Protocol):
    def stack_starting(self, stack: Stack) -> None: ...

    def rung_starting(self, rung: Rung) -> None: ...

    def rung_finished(self, result: RungResult) -> None: ...


class Ladder:
    def __init__(
        self,
        *,
        options: LadderOptions,
        layout: CpuLayout,
        load_binary: Path,
        workdir: Path,
        result: LadderResult,
        observer: LadderObserver,
        checkpoint: Callable[[], None] = lambda: None,
    ) -> None:
        self.options = options
        self.layout = layout
        self.load_binary = load_binary
        self.workdir = workdir
        self.result = result
        self.observer = observer
        self.checkpoint = checkpoint
        self.load_spec = LoadSpec(
            concurrency=options.concurrency,
            duration_s=options.duration_s,
            warmup_s=options.warmup_s,
            keep_alive=options.keep_alive,
        )
        self.trials = TrialRunner(load_binary, workdir, layout.client_cpus)

    def run(self) -> None:
        for stack in Stack:
            rungs = [r for r in LADDER if r.stack is stack and r.name in self.options.rungs]
            if rungs:
                self._run_stack(stack, rungs)

    def _run_stack(self, stack: Stack, rungs: list[Rung]) -> None:
        self.observer.stack_starting(stack)
        pending = list(rungs)
        try:
            with self._server(stack) as server:
                self.result.conditions["server_versions"].update(server.versions())
                while pending:
                    self._record(self._measure(server, pending[0]))
                    pending.pop(0)
        except MissingPackageError as error:
            for rung in pending:
                self._record(
                    RungResult(rung.name, stack.value, RungStatus.SKIPPED, message=str(error))
                )
        except LayerbenchError as error:
            for rung in pending:
                self._record(
                    RungResult(rung.name, stack.value, RungStatus.ERROR, message=str(error))
                )

    def _measure(self, server: ManagedServer, rung: Rung) -> RungResult:
        url = server.base_url + rung.path
        self.observer.rung_starting(rung)
        try:
            verify_rung(server.base_url, rung)
            load, usage = self.trials.run(server, url, self.load_spec, rung.name)
        except LayerbenchError as error:
            server.check_alive()
            return RungResult(rung.name, server.name, RungStatus.ERROR, url, str(error))
        server.check_alive()
        argv = self.load_spec.argv(self.load_binary, url, Path("-"))
        self.result.conditions["load_commands"][rung.name] = " ".join(argv)
        return RungResult(rung.name, server.name, RungStatus.OK, url, load=load, usage=usage)

    def _record(self, rung_result: RungResult) -> None:
        self.result.rungs.append(rung_result)
        self.observer.rung_finished(rung_result)
        self.checkpoint()

    @contextmanager
    def _server(self, stack: Stack) -> Iterator[ManagedServer]:
        server: ManagedServer
        cpus = self.layout.server_cpus
        if stack is Stack.STATIC:
            server = NginxStatic(
                self.workdir / "nginx", free_port(), {STATIC_FILE: STATIC_BODY}, cpus=cpus
            )
        else:
            database = create_seeded_database(self.workdir)
            settings = GunicornSettings(workers=self.options.workers)
            port = self.options.port or free_port()
            server = GunicornServer(self.workdir / "gunicorn", port, database, settings, cpus)
        with server:
            yield server
