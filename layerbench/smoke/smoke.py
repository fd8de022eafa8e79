"""Performance smoke test of a user's WSGI application: run it under a server adapter, measure
each URL with interleaved repeats, or, against a reference's application, both side by side in
the same passes; the judgement is :mod:`layerbench.smoke.smoke_result`'s."""

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.errors import ConfigError, LayerbenchError, VerificationError
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.run_skeleton import RunStart
from layerbench.lab.trial import TrialRunner
from layerbench.proc.http_probe import http_get
from layerbench.proc.ports import free_port
from layerbench.profile.frame_layers import LayerMap
from layerbench.profile.pyspy_record import PySpyRecorder, find_py_spy, pyspy_version
from layerbench.profile.rung_profile import RungProfile, empty_profile
from layerbench.roles import SERVER_ROLE
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.adapters import WSGI, ServerPlan, Serves, find_adapter
from layerbench.servers.deployment import Deployment, FrontedServer
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.server_settings import SettingsBook, check_sections
from layerbench.site_contract import USER_APP_PATH_VARIABLE, USER_APP_VARIABLE, parse_spec
from layerbench.smoke.smoke_conditions import SmokeConditions, smoke_conditions


@dataclass(frozen=True)
class SmokeOptions:
    app: str
    urls: tuple[str, ...] = ("/",)
    server: str = "gunicorn"
    settings: SettingsBook = field(default_factory=dict)
    repeats: int = 5
    duration_s: float = 2.0
    warmup_s: float = 0.5
    concurrency: int = 10
    tolerance: float = 0.10
    app_path: tuple[str, ...] = ()
    # `--profile`: the server's Python workers sampled by py-spy during each trial.
    profile: bool = False

    def __post_init__(self) -> None:
        parse_spec(self.app)
        if find_adapter(self.server).serves is not Serves.APPLICATION:
            raise ConfigError(f"{self.server} cannot run an application")
        find_adapter(self.server).check_interface(f"{self.app} (WSGI)", WSGI)
        bad = [url for url in self.urls if not url.startswith("/")]
        if bad or not self.urls:
            raise ConfigError(
                f"a URL is a path that starts with '/', not {bad[0] if bad else ''!r}"
            )
        if not 2 <= self.repeats <= 100:
            raise ConfigError(f"repeats must be 2 to 100 (a spread needs two), not {self.repeats}")
        if not 0 <= self.tolerance < 1:
            raise ConfigError(f"the tolerance is a fraction from 0 to 1, not {self.tolerance:g}")


@dataclass(frozen=True)
class SmokeSetup:
    """A smoke run built and nothing started: its server's settings read and checked, and the
    conditions it measures under."""

    options: SmokeOptions
    deployment: Deployment
    trials: TrialRunner
    conditions: SmokeConditions
    # `--profile`: the sampler, what tells a frame's layer (the application's directories are
    # the site), and each URL's profile so far.
    profiler: PySpyRecorder | None = None
    layers: LayerMap | None = None
    sampler: str = ""
    profiles: dict[str, RungProfile] = field(default_factory=dict)


def prepare(options: SmokeOptions, start: RunStart, workdir: Path) -> SmokeSetup:
    """A ConfigError for a wrong setting, a MissingPackageError for a server not installed."""
    layout = start.layout
    (workdir / "data").mkdir(parents=True)
    paths = os.pathsep.join(str(Path(p).resolve()) for p in options.app_path)
    plan = ServerPlan(
        workdir=workdir / "server",
        port=free_port(),
        db_path=create_seeded_database(workdir / "data"),
        static_files={},
        book=options.settings,
        cpus=layout.server_cpus,
        app_environment={USER_APP_VARIABLE: options.app, USER_APP_PATH_VARIABLE: paths},
    )
    deployment = find_adapter(options.server).build(plan)
    check_sections(options.settings, plan.used)
    conditions = smoke_conditions(
        options.server, plan.used, options.concurrency, options.urls, start.conditions
    )
    trials = TrialRunner(start.load_binary, workdir, layout.client_cpus)
    if not options.profile:
        return SmokeSetup(options, deployment, trials, conditions)
    binary = find_py_spy()
    profiler = PySpyRecorder(binary, workdir, cpus=layout.client_cpus)
    layers = LayerMap.of_this_python([str(Path(p).resolve()) for p in options.app_path])
    return SmokeSetup(
        options, deployment, trials, conditions, profiler, layers, pyspy_version(binary)
    )


def verify(setup: SmokeSetup) -> None:
    """Every URL answers 2xx, on the started deployment; a VerificationError names the first
    that does not (with the server's last log lines for a 5xx)."""
    for url in setup.options.urls:
        full_url = setup.deployment.base_url + url
        try:
            response = http_get(full_url, timeout_s=10.0)
        except OSError as error:
            raise VerificationError(f"no answer from {full_url}: {error}") from None
        if response.status >= 500:
            raise VerificationError(
                f"{full_url} answered {response.status}; it is not measured; last lines of "
                f"the server's log:\n{server_log_tail(setup.deployment)}"
            )
        if not 200 <= response.status < 300:
            raise VerificationError(f"{full_url} answered {response.status}; it is not measured")


# Whether the rates measured so far (before, now) are enough: every URL decided, or the time up.
Enough = Callable[[dict[str, list[float]], dict[str, list[float]]], bool]
# --until-decided never makes more passes than this (SmokeOptions' largest --repeats).
MAX_PASSES = 100


def measure(setup: SmokeSetup) -> dict[str, list[float]]:
    """req/s of each URL, one per repeat (the URLs interleaved), on the started deployment."""
    options = setup.options
    rates: dict[str, list[float]] = {url: [] for url in options.urls}
    for repeat in range(options.repeats):
        for number, url in enumerate(options.urls):
            rates[url].append(_trial(setup, url, f"smoke-url{number}-{repeat}"))
    return rates


def measure_side_by_side(
    before: SmokeSetup, now: SmokeSetup, enough: Enough | None = None
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """req/s of each URL under ``before`` (the reference's application) and ``now`` (the
    candidate), both started: in each pass every URL is measured under both one after the
    other, so that pass i of each is a pair; which goes first alternates from pass to pass,
    so that neither always follows the other. With ``enough`` (``--until-decided``), passes go
    on after ``repeats`` until it says the rates so far are enough (up to MAX_PASSES)."""
    options = now.options
    rates: tuple[dict[str, list[float]], dict[str, list[float]]] = (
        {url: [] for url in options.urls},
        {url: [] for url in options.urls},
    )
    sides: list[tuple[int, SmokeSetup]] = [(0, before), (1, now)]
    for repeat in range(MAX_PASSES if enough else options.repeats):
        if enough and repeat >= options.repeats and enough(*rates):
            break
        for number, url in enumerate(options.urls):
            for side, setup in sides if repeat % 2 == 0 else sides[::-1]:
                label = f"smoke-{'before' if side == 0 else 'now'}-url{number}-{repeat}"
                rates[side][url].append(_trial(setup, url, label))
    return rates


def _trial(setup: SmokeSetup, url: str, label: str) -> float:
    options, deployment = setup.options, setup.deployment
    spec = LoadSpec(options.concurrency, options.duration_s, options.warmup_s)
    load, usage = setup.trials.run(
        deployment, deployment.base_url + url, spec, label, profiler=setup.profiler
    )
    deployment.check_alive()
    if load.errors:
        raise LayerbenchError(
            f"{url}: {load.errors:,} of {load.requests_completed:,} requests failed or were not 2xx"
        )
    if setup.profiler is not None and setup.layers is not None:
        before = setup.profiles.get(url) or empty_profile(setup.sampler, setup.profiler.rate_hz)
        server = usage.roles.get(SERVER_ROLE)
        setup.profiles[url] = before.with_trial(
            setup.profiler.stacks,
            setup.layers.layer_of,
            server_cpu_s=server.cpu_s if server is not None else 0.0,
            requests=load.requests_completed,
            failures=tuple(setup.profiler.failures),
        )
    return load.requests_per_s


def server_log_tail(deployment: Deployment) -> str:
    """The last lines of the log of the server that runs the application."""
    server = deployment.back if isinstance(deployment, FrontedServer) else deployment
    return server.log_tail() if isinstance(server, ManagedServer) else "(no log)"
