"""Run the ladder: start the services its rungs need (the full ladder), then for each stack
bring its server up and, for each rung, verify → warm up → measure, recording every rung's
result (measured, failed or skipped) as soon as it is known."""

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from layerbench.sites import prepare_app_data, site_directories

if TYPE_CHECKING:
    from layerbench.sites import AppData
from layerbench.errors import LayerbenchError, MissingPackageError
from layerbench.hosts.placement import Placement
from layerbench.lab.app_storage import storage_environment, storage_services
from layerbench.lab.app_under_test import app_environment, not_applicable
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.cpu_speed import probe_cpu_speed
from layerbench.lab.ladder_services import LadderServices
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.service_settings import service_sections
from layerbench.lab.site_database import site_services, site_url
from layerbench.lab.static_server import static_deployment, static_server_name
from layerbench.lab.topology_run import LOCAL_PLACEMENTS, Placements
from layerbench.lab.trial import TrialRunner, load_spec_for
from layerbench.lab.verify import verify_rung
from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.ladder.options import LadderOptions
from layerbench.proc.ports import free_port
from layerbench.profile.frame_layers import LayerMap
from layerbench.profile.pyspy_record import PySpyRecorder, find_py_spy, pyspy_version
from layerbench.profile.rung_profile import GIL_MODE, RungProfile, empty_profile
from layerbench.results.load_result import LoadResult
from layerbench.results.measured_under import add_entries
from layerbench.results.status import Status
from layerbench.results.trials import MAX_REPEATS, Trial
from layerbench.results.usage import Usage
from layerbench.roles import SERVER_ROLE
from layerbench.rungs.applications import Application
from layerbench.rungs.definitions import FULL_SERVICES, Rung, Stack
from layerbench.servers.adapters import ServerPlan, Serves, find_adapter
from layerbench.servers.deployment import Deployment
from layerbench.servers.server_settings import check_sections


def describe_url(base_url: str, rung: Rung) -> str:
    """The rung's URL; a mixed rung's weighted URLs, as ``9 URL, 1 URL``."""
    if rung.mix:
        return ", ".join(f"{weight} {base_url}{part.path}" for weight, part in rung.mix)
    return base_url + rung.path


# Which server answers a rung: its application's (None: nginx's, shared), and its stack.
ServerKey = tuple[Application | None, Stack]
# A rung of an application.
Place = tuple[Application, Rung]


def server_key(app: Application, rung: Rung) -> ServerKey:
    return (None if rung.stack is Stack.STATIC else app, rung.stack)


def services_needed(options: LadderOptions) -> tuple[str, ...]:
    """The backing services the ladder's rungs (those its applications answer) need, in the
    order a run starts them."""
    apps = options.applications
    answered = [r for app in apps for r in options.ladder if not_applicable(app, r) is None]
    needed = {kind for rung in answered for kind in rung.needs}
    needed.update(site_services(options.settings))
    needed.update(storage_services(apps, options.settings))
    return tuple(kind for kind in FULL_SERVICES if kind in needed)


class LadderObserver(Protocol):
    def stack_starting(self, server: str) -> None: ...

    def rung_starting(self, rung: Rung, app: str) -> None: ...

    def rung_finished(self, result: RungResult) -> None: ...

    def pass_starting(self, number: int, passes: int) -> None: ...


# --until-decided's question after each pass from the last of --repeats on: whether the result
# so far, after that many passes, is enough (every comparison decided, or the time up).
Enough = Callable[[LadderResult, int], bool]


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
        placements: Placements = LOCAL_PLACEMENTS,
        enough: Enough | None = None,
    ) -> None:
        """``placements``: each part's host on a topology (loopback without); ``enough``
        (``--until-decided``): passes go on after ``repeats`` until it says so."""
        self.options = options
        self.enough = enough
        self.placements = placements
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
        self.trials = TrialRunner(load_binary, workdir, layout.client_cpus, placements.network)
        # --profile: py-spy on the server's workers during each measured trial (on the client's
        # CPUs, off the server's), and what tells each sampled frame's layer.
        self.profiler: PySpyRecorder | None = None
        self.layers: LayerMap | None = None
        if options.profile:
            binary = find_py_spy()
            self.profiler = PySpyRecorder(
                binary, workdir, rate_hz=options.profile_rate_hz, cpus=layout.client_cpus
            )
            self.layers = LayerMap.of_this_python(site_directories())
            self.sampler = pyspy_version(binary)
            result.conditions["profile"] = {
                "sampler": self.sampler,
                "rate_hz": self.profiler.rate_hz,
                "mode": GIL_MODE,
            }
        # The static rung's server: Apache's own under an Apache, nginx's otherwise.
        self.static_server = static_server_name(options.server, options.settings)

    def run(self) -> None:
        """Every runnable rung of every application once per pass, in the ladder's order, for
        ``repeats`` passes (A B C A B C…: a slow drift of the machine spreads over every rung
        and application alike). Each server (an application's, or nginx's, which every
        application shares) starts at its first rung and stays up to the end."""
        rungs = self.options.ladder
        apps = self.options.applications
        kinds = services_needed(self.options)
        self._order = [(app.name, rung.name) for app in apps for rung in rungs]
        self._chains = {rung.name: rung.chain for rung in rungs}
        self._data: AppData | None = None
        self._results: dict[tuple[str, str], RungResult] = {}
        # Servers that could not start or died: their rungs run no more.
        self._ended: set[ServerKey] = set()
        with (
            LadderServices(
                kinds, self.layout.server_cpus, self.options.settings, self.placements
            ) as services,
            ExitStack() as up,
        ):
            self.result.conditions["services"] = dict(services.urls)
            runnable: list[Place] = []
            for app in apps:
                for rung in rungs:
                    name = self._server_name(rung.stack)
                    unanswered = not_applicable(app, rung)
                    storage_needs = storage_services((app,), self.options.settings)
                    why_not = services.why_not((*rung.needs, *storage_needs)) or self._unserved(
                        rung
                    )
                    if unanswered is not None:
                        na = Status.NOT_APPLICABLE
                        self._record(app, RungResult(rung.name, name, na, message=unanswered))
                    elif why_not is None:
                        runnable.append((app, rung))
                    else:
                        skipped = RungResult(rung.name, name, Status.SKIPPED, message=why_not)
                        self._record(app, skipped)
            servers: dict[ServerKey, Deployment] = {}
            number = 0
            while self._another_pass(number):
                number += 1
                self.observer.pass_starting(number, max(number, self.options.repeats))
                for app, rung in runnable:
                    key = server_key(app, rung)
                    if self._failed(app, rung) or key in self._ended:
                        continue
                    server = servers.get(key)
                    if server is None:
                        server = self._start(key, services, up, runnable)
                        if server is None:
                            continue
                        servers[key] = server
                    self._measure(server, app, rung, services, runnable)

    def _another_pass(self, made: int) -> bool:
        """Whether to make a pass after ``made``: up to ``repeats``; then, with ``enough``,
        until it says the result is enough (at most MAX_REPEATS passes)."""
        if made < self.options.repeats:
            return True
        return self.enough is not None and made < MAX_REPEATS and not self.enough(self.result, made)

    def _failed(self, app: Application, rung: Rung) -> bool:
        result = self._results.get((app.name, rung.name))
        return result is not None and result.status is not Status.OK

    def _server_name(self, stack: Stack) -> str:
        return self.static_server if stack is Stack.STATIC else self.options.server

    def _start(
        self, key: ServerKey, services: LadderServices, up: ExitStack, runnable: list[Place]
    ) -> Deployment | None:
        """The server, started; None when it could not be (its rungs then fail)."""
        app, stack = key
        name = self._server_name(stack)
        many = len(self.options.applications) > 1
        self.observer.stack_starting(f"{name} for {app.name}" if app and many else name)
        try:
            server = up.enter_context(self._server(key, services))
        except MissingPackageError as error:
            self._fail_server(key, runnable, Status.SKIPPED, str(error))
            return None
        except LayerbenchError as error:
            self._fail_server(key, runnable, Status.ERROR, str(error))
            return None
        add_entries(self.result.conditions, "server_versions", server.versions())
        return server

    def _fail_server(
        self, key: ServerKey, runnable: list[Place], status: Status, message: str
    ) -> None:
        """The server ends: a rung of it with no trial yet fails; one with trials keeps them,
        and says it has fewer than asked."""
        self._ended.add(key)
        for app, rung in runnable:
            if server_key(app, rung) != key or self._failed(app, rung):
                continue
            previous = self._results.get((app.name, rung.name))
            name = self._server_name(rung.stack)
            if previous is None or not previous.trials:
                self._record(app, RungResult(rung.name, name, status, None, message))
            elif len(previous.trials) < self.options.repeats:
                short = f"{len(previous.trials)} of {self.options.repeats} trials, then: {message}"
                self._record(app, replace(previous, message=short))

    def _unserved(self, rung: Rung) -> str | None:
        if rung.stack is Stack.STATIC or rung.name == "string":
            return None
        if find_adapter(self.options.server).serves is Serves.STRING:
            return f"{self.options.server} serves the string rung only"
        return None

    def _measure(
        self,
        server: Deployment,
        app: Application,
        rung: Rung,
        services: LadderServices,
        runnable: list[Place],
    ) -> None:
        name = self._server_name(rung.stack)
        key = server_key(app, rung)
        url = describe_url(server.base_url, rung)
        self.observer.rung_starting(rung, app.name)
        spec = load_spec_for(self.load_spec, rung, self.workdir, server.base_url)
        previous = self._results.get((app.name, rung.name))
        trials = previous.trials if previous else ()
        label = f"{app.name}-{rung.name}-{len(trials) + 1}"
        try:
            with self.placements.probe.entered():
                verify_rung(server.base_url, rung)
            speed = probe_cpu_speed(self.layout.server_cpus)
            # nginx's static file has no Python worker to sample.
            profiler = None if rung.stack is Stack.STATIC else self.profiler
            load, usage = self.trials.run(
                server, url, spec, label, services.sessions, profiler=profiler
            )
        except LayerbenchError as error:
            if self._check_alive(server, key, runnable):
                result = RungResult(rung.name, name, Status.ERROR, url, str(error), trials)
                self._record(app, replace(result, profile=previous.profile if previous else None))
            return
        argv = spec.argv(self.load_binary, url, Path("-"))
        command = rung.name if len(self.options.applications) == 1 else f"{app.name} {rung.name}"
        add_entries(self.result.conditions, "load_commands", {command: " ".join(argv)})
        # A server that died during the trial: the trial measured its death, not the rung.
        if self._check_alive(server, key, runnable):
            trial = Trial(load, usage, speed)
            # Requests that failed or answered other than 2xx: the rung failed (its req/s, the
            # successful responses', is shown beside the errors).
            status, message = (
                (Status.ERROR, errors_message(load)) if load.errors else (Status.OK, None)
            )
            profile = self._profiled(previous, profiler, load, usage)
            result = RungResult(rung.name, name, status, url, message, (*trials, trial))
            self._record(app, replace(result, profile=profile))

    def _profiled(
        self,
        previous: RungResult | None,
        profiler: PySpyRecorder | None,
        load: LoadResult,
        usage: Usage,
    ) -> RungProfile | None:
        """The rung's profile with the trial's samples and server CPU added; None when the
        trial was not profiled."""
        if profiler is None or self.layers is None:
            return None
        before = previous.profile if previous is not None else None
        if before is None:
            before = empty_profile(self.sampler, profiler.rate_hz)
        server = usage.roles.get(SERVER_ROLE)
        return before.with_trial(
            profiler.stacks,
            self.layers.layer_of,
            server_cpu_s=server.cpu_s if server is not None else 0.0,
            requests=load.requests_completed,
            failures=tuple(profiler.failures),
        )

    def _check_alive(self, server: Deployment, key: ServerKey, runnable: list[Place]) -> bool:
        """A server that died fails every rung of it left, saying how it died."""
        try:
            server.check_alive()
        except LayerbenchError as error:
            self._fail_server(key, runnable, Status.ERROR, str(error))
            return False
        return True

    def _record(self, app: Application, rung_result: RungResult) -> None:
        chain = self._chains.get(rung_result.rung, ())
        rung_result = replace(rung_result, app=app.name, chain=chain)
        self._results[(app.name, rung_result.rung)] = rung_result
        self.result.rungs = [self._results[key] for key in self._order if key in self._results]
        self.observer.rung_finished(rung_result)
        self.checkpoint()

    @contextmanager
    def _server(self, key: ServerKey, services: LadderServices) -> Iterator[Deployment]:
        app, stack = key
        cpus = self.layout.server_cpus
        server: Deployment
        placed = self.placements.started
        if app is None or stack is Stack.STATIC:
            placed = self.placements.started_in_front
            server = static_deployment(
                self.static_server,
                self.workdir / self.static_server,
                free_port(),
                self.options.settings,
                cpus,
                host=self.placements.front.address,
            )
        else:
            # The data is prepared once (the site seeded once): every application reads it.
            if self._data is None:
                site = site_url(self.options.settings, services.urls, services.missing)
                with self.placements.app.entered():  # seeding the site reads its database
                    self._data = prepare_app_data(
                        self.workdir / "data", services.service_urls(), site
                    )
            data = self._data
            first = app.name == self.options.apps[0]
            root = self.workdir / ("app" if first else f"app-{app.name}")
            port = self.options.port or free_port()

            def build(where: Placement, host_name: str) -> Deployment:
                plan = ServerPlan(
                    workdir=root / host_name,
                    port=port,
                    db_path=data.db_path,
                    static_files={},
                    book=self.options.settings,
                    cpus=cpus,
                    host=where.address,
                    app_environment={
                        **data.environment,
                        **app_environment(app),
                        **storage_environment(app, self.options.settings, services.urls),
                    },
                )
                built = find_adapter(self.options.server).build(plan)
                check_sections(self.options.settings, [*plan.used, *service_sections()])
                self.result.conditions["server_settings"] = plan.used
                return built

            server = self.placements.deployment(build, root)
        with placed(server):
            yield server


def errors_message(load: LoadResult) -> str:
    """What went wrong in a trial whose requests failed or answered other than 2xx."""
    kinds = ", ".join(f"{kind} {count:,}" for kind, count in load.errors_and_statuses.items())
    return (
        f"{load.errors:,} requests failed or answered an error ({kinds}); its req/s counts "
        "the 2xx responses only"
    )
