"""Run the ladder: start the services its rungs need (the full ladder), then for each stack
bring its server up and, for each rung, verify → warm up → measure, recording every rung's
result (measured, failed or skipped) as soon as it is known."""

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Protocol

from layerbench.errors import LayerbenchError, MissingPackageError
from layerbench.lab.app_data import prepare_app_data
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.ladder_services import LadderServices
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.options import LadderOptions
from layerbench.lab.results import LadderResult, RungResult, RungStatus
from layerbench.lab.rungs import FULL_SERVICES, STATIC_BODY, STATIC_FILE, Rung, Stack
from layerbench.lab.trial import TrialRunner, load_spec_for
from layerbench.lab.verify import verify_rung
from layerbench.servers.adapters import ServerPlan, Serves, find_adapter
from layerbench.servers.deployment import Deployment
from layerbench.servers.nginx import NginxStatic
from layerbench.servers.ports import free_port
from layerbench.servers.settings import check_sections


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
        rungs = self.options.ladder
        needed = {kind for rung in rungs for kind in rung.needs}
        kinds = tuple(kind for kind in FULL_SERVICES if kind in needed)
        with LadderServices(kinds, cpus=self.layout.server_cpus) as services:
            self.result.conditions["services"] = dict(services.urls)
            for stack in Stack:
                stack_rungs = [rung for rung in rungs if rung.stack is stack]
                if stack_rungs:
                    self._run_stack(stack, stack_rungs, services)

    def _server_name(self, stack: Stack) -> str:
        return "nginx" if stack is Stack.STATIC else self.options.server

    def _run_stack(self, stack: Stack, rungs: list[Rung], services: LadderServices) -> None:
        """The rungs in the ladder's order; the server starts at the first one it runs."""
        self.observer.stack_starting(stack)
        name = self._server_name(stack)
        pending = list(rungs)
        try:
            with ExitStack() as running:
                server: Deployment | None = None
                while pending:
                    rung = pending[0]
                    why_not = services.why_not(rung.needs) or self._unserved(stack, rung)
                    if why_not is not None:
                        self._record(
                            RungResult(rung.name, name, RungStatus.SKIPPED, message=why_not)
                        )
                    else:
                        if server is None:
                            server = running.enter_context(self._server(stack, services))
                            self.result.conditions["server_versions"].update(server.versions())
                        self._record(self._measure(server, name, rung, services))
                    pending.pop(0)
        except MissingPackageError as error:
            self._fail(pending, name, RungStatus.SKIPPED, str(error))
        except LayerbenchError as error:
            self._fail(pending, name, RungStatus.ERROR, str(error))

    def _unserved(self, stack: Stack, rung: Rung) -> str | None:
        if stack is Stack.STATIC or rung.name == "string":
            return None
        if find_adapter(self.options.server).serves is Serves.STRING:
            return f"{self.options.server} serves the string rung only"
        return None

    def _fail(self, rungs: list[Rung], server: str, status: RungStatus, message: str) -> None:
        for rung in rungs:
            self._record(RungResult(rung.name, server, status, message=message))

    def _measure(
        self, server: Deployment, name: str, rung: Rung, services: LadderServices
    ) -> RungResult:
        url = server.base_url + rung.path
        self.observer.rung_starting(rung)
        spec = load_spec_for(self.load_spec, rung, self.workdir)
        try:
            verify_rung(server.base_url, rung)
            load, usage = self.trials.run(server, url, spec, rung.name, services.sessions)
        except LayerbenchError as error:
            server.check_alive()
            return RungResult(rung.name, name, RungStatus.ERROR, url, str(error))
        server.check_alive()
        argv = spec.argv(self.load_binary, url, Path("-"))
        self.result.conditions["load_commands"][rung.name] = " ".join(argv)
        return RungResult(rung.name, name, RungStatus.OK, url, load=load, usage=usage)

    def _record(self, rung_result: RungResult) -> None:
        self.result.rungs.append(rung_result)
        self.observer.rung_finished(rung_result)
        self.checkpoint()

    @contextmanager
    def _server(self, stack: Stack, services: LadderServices) -> Iterator[Deployment]:
        cpus = self.layout.server_cpus
        server: Deployment
        if stack is Stack.STATIC:
            server = NginxStatic(
                self.workdir / "nginx", free_port(), {STATIC_FILE: STATIC_BODY}, cpus=cpus
            )
        else:
            data = prepare_app_data(self.workdir / "data", services.service_urls())
            plan = ServerPlan(
                workdir=self.workdir / "app",
                port=self.options.port or free_port(),
                db_path=data.db_path,
                static_files={},
                book=self.options.settings,
                cpus=cpus,
                app_environment=data.environment,
            )
            server = find_adapter(self.options.server).build(plan)
            check_sections(self.options.settings, plan.used)
            self.result.conditions["server_settings"] = plan.used
        with server:
            yield server
