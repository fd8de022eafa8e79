"""Run the ladder: start the services its rungs need (the full ladder), then for each stack
bring its server up and, for each rung, verify → warm up → measure, recording every rung's
result (measured, failed or skipped) as soon as it is known."""

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from layerbench.app.ladder_data import prepare_app_data
from layerbench.errors import LayerbenchError, MissingPackageError
from layerbench.lab.app_under_test import app_environment, not_applicable
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.cpu_speed import probe_cpu_speed
from layerbench.lab.ladder_services import LadderServices
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.options import LadderOptions
from layerbench.lab.trial import TrialRunner, load_spec_for
from layerbench.lab.verify import verify_rung
from layerbench.proc.ports import free_port
from layerbench.results.ladder_result import LadderResult, RungResult
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.rungs.definitions import FULL_SERVICES, STATIC_BODY, STATIC_FILE, Rung, Stack
from layerbench.servers.adapters import ServerPlan, Serves, find_adapter
from layerbench.servers.deployment import Deployment
from layerbench.servers.nginx import NginxStatic
from layerbench.servers.server_settings import check_sections


def describe_url(base_url: str, rung: Rung) -> str:
    """The rung's URL; a mixed rung's weighted URLs, as ``9 URL, 1 URL``."""
    if rung.mix:
        return ", ".join(f"{weight} {base_url}{part.path}" for weight, part in rung.mix)
    return base_url + rung.path


class LadderObserver(Protocol):
    def stack_starting(self, server: str) -> None: ...

    def rung_starting(self, rung: Rung) -> None: ...

    def rung_finished(self, result: RungResult) -> None: ...

    def pass_starting(self, number: int, passes: int) -> None: ...


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
        """Every runnable rung once per pass, in the ladder's order, for ``repeats`` passes
        (A B C A B C…: a slow drift of the machine spreads over every rung alike). Each
        stack's server starts at its first rung and stays up to the end."""
        rungs = self.options.ladder
        app = self.options.application
        answered = [rung for rung in rungs if not_applicable(app, rung) is None]
        needed = {kind for rung in answered for kind in rung.needs}
        kinds = tuple(kind for kind in FULL_SERVICES if kind in needed)
        self._order = [rung.name for rung in rungs]
        self._results: dict[str, RungResult] = {}
        # Stacks whose server could not start or died: their rungs run no more.
        self._ended: set[Stack] = set()
        with LadderServices(kinds, cpus=self.layout.server_cpus) as services, ExitStack() as up:
            self.result.conditions["services"] = dict(services.urls)
            runnable = []
            for rung in rungs:
                name = self._server_name(rung.stack)
                unanswered = not_applicable(app, rung)
                why_not = services.why_not(rung.needs) or self._unserved(rung)
                if unanswered is not None:
                    na = Status.NOT_APPLICABLE
                    self._record(RungResult(rung.name, name, na, message=unanswered))
                elif why_not is None:
                    runnable.append(rung)
                else:
                    self._record(RungResult(rung.name, name, Status.SKIPPED, message=why_not))
            servers: dict[Stack, Deployment] = {}
            for number in range(1, self.options.repeats + 1):
                self.observer.pass_starting(number, self.options.repeats)
                for rung in runnable:
                    if self._failed(rung) or rung.stack in self._ended:
                        continue
                    server = servers.get(rung.stack)
                    if server is None:
                        server = self._start(rung.stack, services, up, runnable)
                        if server is None:
                            continue
                        servers[rung.stack] = server
                    self._measure(server, rung, services, runnable)

    def _failed(self, rung: Rung) -> bool:
        result = self._results.get(rung.name)
        return result is not None and result.status is not Status.OK

    def _server_name(self, stack: Stack) -> str:
        return "nginx" if stack is Stack.STATIC else self.options.server

    def _start(
        self, stack: Stack, services: LadderServices, up: ExitStack, runnable: list[Rung]
    ) -> Deployment | None:
        """The stack's server, started; None when it could not be (its rungs then fail)."""
        self.observer.stack_starting(self._server_name(stack))
        try:
            server = up.enter_context(self._server(stack, services))
        except MissingPackageError as error:
            self._fail_stack(stack, runnable, Status.SKIPPED, str(error))
            return None
        except LayerbenchError as error:
            self._fail_stack(stack, runnable, Status.ERROR, str(error))
            return None
        self.result.conditions["server_versions"].update(server.versions())
        return server

    def _fail_stack(self, stack: Stack, runnable: list[Rung], status: Status, message: str) -> None:
        """The stack ends: a rung of it with no trial yet fails; one with trials keeps them,
        and says it has fewer than asked."""
        self._ended.add(stack)
        for rung in runnable:
            if rung.stack is not stack or self._failed(rung):
                continue
            previous = self._results.get(rung.name)
            name = self._server_name(stack)
            if previous is None or not previous.trials:
                self._record(RungResult(rung.name, name, status, None, message))
            elif len(previous.trials) < self.options.repeats:
                short = f"{len(previous.trials)} of {self.options.repeats} trials, then: {message}"
                self._record(replace(previous, message=short))

    def _unserved(self, rung: Rung) -> str | None:
        if rung.stack is Stack.STATIC or rung.name == "string":
            return None
        if find_adapter(self.options.server).serves is Serves.STRING:
            return f"{self.options.server} serves the string rung only"
        return None

    def _measure(
        self, server: Deployment, rung: Rung, services: LadderServices, runnable: list[Rung]
    ) -> None:
        name = self._server_name(rung.stack)
        url = describe_url(server.base_url, rung)
        self.observer.rung_starting(rung)
        spec = load_spec_for(self.load_spec, rung, self.workdir, server.base_url)
        previous = self._results.get(rung.name)
        trials = previous.trials if previous else ()
        label = f"{rung.name}-{len(trials) + 1}"
        try:
            verify_rung(server.base_url, rung)
            speed = probe_cpu_speed(self.layout.server_cpus)
            load, usage = self.trials.run(server, url, spec, label, services.sessions)
        except LayerbenchError as error:
            if self._check_alive(server, rung.stack, runnable):
                result = RungResult(rung.name, name, Status.ERROR, url, str(error), trials)
                self._record(result)
            return
        argv = spec.argv(self.load_binary, url, Path("-"))
        self.result.conditions["load_commands"][rung.name] = " ".join(argv)
        # A server that died during the trial: the trial measured its death, not the rung.
        if self._check_alive(server, rung.stack, runnable):
            trial = Trial(load, usage, speed)
            self._record(RungResult(rung.name, name, Status.OK, url, None, (*trials, trial)))

    def _check_alive(self, server: Deployment, stack: Stack, runnable: list[Rung]) -> bool:
        """A server that died fails every rung of its stack left, saying how it died."""
        try:
            server.check_alive()
        except LayerbenchError as error:
            self._fail_stack(stack, runnable, Status.ERROR, str(error))
            return False
        return True

    def _record(self, rung_result: RungResult) -> None:
        rung_result = replace(rung_result, app=self.options.app)
        self._results[rung_result.rung] = rung_result
        self.result.rungs = [self._results[n] for n in self._order if n in self._results]
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
                app_environment={
                    **data.environment,
                    **app_environment(self.options.application),
                },
            )
            server = find_adapter(self.options.server).build(plan)
            check_sections(self.options.settings, plan.used)
            self.result.conditions["server_settings"] = plan.used
        with server:
            yield server
