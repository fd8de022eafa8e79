"""``layerbench cost``: the ladder's rungs (those the application answers) as cost requests,
on the data the ladder prepares (the embedded defaults: SQLite, the in-process cache), or on
the databases the ladder's settings choose (``site.database``, ``zope.storage``:
:mod:`layerbench.cost.cost_services`)."""

import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from layerbench.cost.cost_conditions import cost_conditions
from layerbench.cost.cost_plan import (
    DEFAULT_REPEATS,
    DEFAULT_REQUESTS,
    DEFAULT_WARMUP,
    CostPlan,
    CostRequest,
)
from layerbench.cost.cost_result import CostResult, RequestCost
from layerbench.cost.cost_run import run_cost_pass
from layerbench.cost.cost_services import RepeatDatabases, cost_settings
from layerbench.cost.shim_build import find_valgrind, shim_library
from layerbench.errors import ConfigError
from layerbench.lab.app_under_test import app_environment, check_installed
from layerbench.proc.work_dirs import work_directory
from layerbench.rungs.applications import Application, find_application
from layerbench.rungs.definitions import LADDER, Rung, Stack
from layerbench.servers.server_settings import SettingsBook
from layerbench.site_contract import DB_PATH_VARIABLE
from layerbench.sites import prepare_app_data
from layerbench.typed_documents import JsonObject
from layerbench.words import did_you_mean


@dataclass(frozen=True)
class CostOptions:
    app: str = "bare"
    rungs: tuple[str, ...] | None = None
    requests: int = DEFAULT_REQUESTS
    warmup: int = DEFAULT_WARMUP
    repeats: int = DEFAULT_REPEATS
    jobs: int = 0  # 0: as many as there are CPUs
    profile: str | None = None
    # `--by-layer`: each rung's instructions by shared object and its layer, too.
    by_layer: bool = False
    # The data's settings, the ladder's (site.database, zope.storage, their services').
    settings: SettingsBook = field(default_factory=dict)

    def __post_init__(self) -> None:
        application = find_application(self.app)
        if application.interface != "wsgi":
            raise ConfigError(
                f"cost calls a WSGI application in-process; {self.app} is {application.interface}"
            )
        names = [rung.name for rung in LADDER if rung.stack is Stack.PYTHON]
        unknown = [name for name in self.rungs or () if name not in names]
        if unknown:
            raise ConfigError(
                did_you_mean(
                    f"unknown rung {', '.join(unknown)}",
                    unknown[0],
                    names,
                    "the rungs cost measures are: " + ", ".join(names),
                )
            )
        if self.rungs is not None and not self.rungs:
            raise ConfigError("no rungs to measure")

    @property
    def application(self) -> Application:
        return find_application(self.app)

    def chosen_rungs(self) -> tuple[Rung, ...]:
        """The default ladder's application rungs (not nginx's), those chosen and answered."""
        return tuple(
            rung
            for rung in LADDER
            if rung.stack is Stack.PYTHON
            and (self.rungs is None or rung.name in self.rungs)
            and self.application.answers_rung(rung.name)
        )


def rung_request(rung: Rung) -> CostRequest:
    expected = f"{rung.expected_status}" + (
        f" with {(rung.expected_body or rung.expected_text or b'')[:60]!r}"
    )
    return CostRequest(
        label=rung.name,
        method=rung.method,
        path=rung.path,
        accepts=rung.accepts,
        expected=expected,
        body=rung.body,
        content_type=rung.content_type,
        chain=rung.chain,
    )


def cost_plan(options: CostOptions, databases: RepeatDatabases) -> CostPlan:
    """``databases``: where each repeat's data goes when the settings put it on a service."""
    rungs = options.chosen_rungs()
    if not rungs:
        raise ConfigError(
            f"{options.app} answers none of the rungs {', '.join(options.rungs or ())}"
        )
    application = options.application

    def prepare(directory: Path) -> dict[str, str]:
        site, storage = databases.next_repeat()
        data = prepare_app_data(directory, site_url=site)
        return {
            **data.environment,
            DB_PATH_VARIABLE: str(data.db_path),
            **app_environment(application),
            **storage,
        }

    return CostPlan(
        requests=tuple(rung_request(rung) for rung in rungs),
        prepare=prepare,
        count=options.requests,
        warmup=options.warmup,
        repeats=options.repeats,
        jobs=options.jobs or len(os.sched_getaffinity(0)),
        profile=options.profile,
        by_layer=options.by_layer,
    )


def run_cost(options: CostOptions) -> CostResult:
    databases = RepeatDatabases(options.application, options.settings)
    plan = cost_plan(options, databases)
    valgrind = find_valgrind()
    check_installed(options.application)
    started = time.monotonic()
    with work_directory("layerbench-cost-") as workdir, databases:
        measurement = run_cost_pass(plan, workdir)
    result = CostResult(
        options=_options_document(options, plan),
        conditions=cost_conditions(valgrind),
        requests=[
            RequestCost(
                request.label, measurement.per_request[request.label], options.app, request.chain
            )
            for request in plan.requests
        ],
        harness_instructions_per_request=measurement.harness,
        profile=measurement.profile,
        by_layer=measurement.by_layer,
    )
    result.elapsed_s = time.monotonic() - started
    return result


def _options_document(options: CostOptions, plan: CostPlan) -> JsonObject:
    return {**asdict(options), "jobs": plan.jobs}


def ladder_cost_options(
    full: bool, apps: tuple[str, ...], rungs: tuple[str, ...], settings: SettingsBook
) -> CostOptions:
    """``ladder --instructions``: the cost pass of the ladder's own rungs (those of them it
    counts: the application's) on the data its settings choose (``site.database``,
    ``zope.storage``; its server's are not read: the pass runs under none), refused before the
    ladder runs when it cannot be made: on the full ladder (the pass runs on the embedded data
    only), with several applications, or without valgrind or gcc."""
    if full:
        raise ConfigError("--instructions counts the default ladder's rungs; not with --full")
    if len(apps) != 1:
        raise ConfigError("--instructions counts one application's rungs; not with --apps")
    counted = {rung.name for rung in LADDER if rung.stack is Stack.PYTHON}
    chosen = tuple(name for name in rungs if name in counted)
    if not chosen:
        raise ConfigError("--instructions counts the application's rungs; none is chosen")
    options = CostOptions(app=apps[0], rungs=chosen, settings=cost_settings(settings))
    find_valgrind()
    shim_library()
    return options
