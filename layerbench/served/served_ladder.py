"""``ladder --measure instructions``: after the ladder, its server (the adapter of ``--server``,
with its settings) started again, alone, on the ladder's data, and each of the application's
rungs counted served (:func:`~layerbench.served.served_cost.measure_served_requests`); refused
before the ladder runs when it cannot be done.

On the full ladder the backing services its rungs need (MariaDB, memcached, …) are started
again too, natively and beside the counted server: only the stack's own processes (its front,
its server, its workers) are counted, never a service's; the document says which were not
(``services_not_counted``). A rung whose service could not start is not counted, and says why."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from layerbench.cost.cost_result import CostResult
from layerbench.cost.shim_build import find_valgrind
from layerbench.errors import ConfigError
from layerbench.lab.app_storage import storage_environment, storage_services
from layerbench.lab.app_under_test import app_environment
from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.lab.ladder_services import LadderServices
from layerbench.lab.site_database import site_url
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import free_port
from layerbench.proc.work_dirs import work_directory
from layerbench.rungs.applications import find_application
from layerbench.rungs.definitions import Rung, Stack
from layerbench.served.served_cost import MEASURES, measure_served_requests, rung_load
from layerbench.served.served_counting import counting_for
from layerbench.served.served_table import Costs, served_document
from layerbench.served.served_windows import Windows
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.server_settings import SettingsBook
from layerbench.sites import prepare_app_data
from layerbench.typed_documents import JsonObject


@dataclass(frozen=True)
class LadderServed:
    server: str
    app: str
    rungs: tuple[Rung, ...]
    book: SettingsBook
    measure: str
    windows: Windows = field(default_factory=Windows)
    # The backing services the rungs need, started again for the count (not counted).
    services: tuple[str, ...] = ()


def ladder_served(
    *,
    measure: str,
    apps: tuple[str, ...],
    rungs: tuple[Rung, ...],
    server: str,
    book: SettingsBook,
    services: tuple[str, ...] = (),
    topology: bool = False,
) -> LadderServed:
    """What ``ladder --measure MEASURE`` counts (``services``: those its rungs need, started
    again beside it); a ConfigError before the ladder runs when it cannot: on a topology, with
    several applications, with a server whose processes are not declared, or with no
    application rung chosen."""
    if measure not in MEASURES:
        raise ConfigError(f"--measure is one of {', '.join(MEASURES)}, not {measure}")
    if topology:
        raise ConfigError(f"--measure {measure} counts a server on loopback: not with --topology")
    if len(apps) != 1:
        raise ConfigError(f"--measure {measure} counts one application's rungs; not with --apps")
    counting_for(server)
    counted = tuple(rung for rung in rungs if rung.stack is Stack.PYTHON and not rung.mix)
    if not counted:
        raise ConfigError(f"--measure {measure} counts the application's rungs; none is chosen")
    find_valgrind()
    find_program("strace", "strace")
    find_program("setarch", "util-linux")
    return LadderServed(server, apps[0], counted, book, measure, services=services)


def run_ladder_served(
    plan: LadderServed,
    server_cpus: frozenset[int] | None,
    client_cpus: frozenset[int] | None,
) -> Costs:
    """Each rung's served cost, by rung (a rung whose service is missing: why); a failure is
    every rung's message."""
    application = find_application(plan.app)
    with (
        work_directory("layerbench-served-") as workdir,
        LadderServices(plan.services, server_cpus, plan.book) as services,
    ):
        site = site_url(plan.book, services.urls, services.missing)
        data = prepare_app_data(workdir / "data", services.service_urls(), site)
        storage = storage_environment(application, plan.book, services.urls)
        server_plan = ServerPlan(
            workdir=workdir / "server",
            port=free_port(),
            db_path=data.db_path,
            static_files={},
            book=plan.book,
            cpus=server_cpus,
            app_environment={**data.environment, **app_environment(application), **storage},
        )
        deployment = find_adapter(plan.server).build(server_plan)
        missing: Costs = {}
        loads = {}
        storage_needs = storage_services((application,), plan.book)
        for rung in plan.rungs:
            why = services.why_not((*rung.needs, *storage_needs))
            if why is not None:
                missing[rung.name] = f"not counted: {why}"
                continue
            loads[rung.name] = rung_load(
                rung, deployment.base_url, workdir, plan.windows, client_cpus
            )
        costs: Costs = {}
        if loads:
            costs |= measure_served_requests(
                deployment,
                counting_for(plan.server),
                loads,
                workdir / "served",
                plan.windows,
                measure=plan.measure,
            )
    return {rung.name: costs.get(rung.name) or missing[rung.name] for rung in plan.rungs}


def served_after_ladder(
    plan: LadderServed, pin: bool, instructions: CostResult | None
) -> JsonObject:
    """The document the ladder's result keeps: each rung's served cost, the cost pass's counts
    (``--instructions``) as the anchors where it ran."""
    layout = plan_cpu_layout(pin=pin)
    costs = run_ladder_served(plan, layout.server_cpus, layout.client_cpus)
    anchors = {cost.label: cost.median for cost in instructions.requests} if instructions else {}
    document = served_document(costs, anchors)
    if plan.services:
        document["services_not_counted"] = list(plan.services)
    return document


def services_note(document: Mapping[str, object]) -> str:
    """Under the served table: the services started beside the counted stack, not counted."""
    services = document.get("services_not_counted")
    if not isinstance(services, list) or not services:
        return ""
    names = ", ".join(str(each) for each in services)
    return (
        f"only the stack's processes are counted: not {names}, started beside it (a database's "
        "work for a query is not in the rung's figure)"
    )
