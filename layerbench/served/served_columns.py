"""``--measure instructions`` over a run's deployments (a matrix's columns, a ladder's stacks):
each counted in turn (:func:`~layerbench.served.served_cost.measure_served`), a failure kept
as that one's message rather than ending the others; and the application's own in-process count
of the rung, the anchor shown beside (``layerbench cost``'s pass, one repeat)."""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from layerbench.cost.ladder_cost import CostOptions, run_cost
from layerbench.errors import LayerbenchError
from layerbench.rungs.applications import find_application
from layerbench.rungs.definitions import Rung, Stack
from layerbench.served.served_cost import ServedCost, measure_served, rung_load
from layerbench.served.served_counting import counting_for
from layerbench.served.served_windows import Windows
from layerbench.servers.adapters import Serves, find_adapter
from layerbench.servers.deployment import Deployment

ANCHOR_REQUESTS = 100


@dataclass(frozen=True)
class CountedTarget:
    label: str
    adapter: str
    # None: not counted (its server could not be built here; ``skipped`` says why).
    deployment: Deployment | None
    rung: Rung
    app: str
    skipped: str | None = None


def measure_targets(
    targets: list[CountedTarget],
    workdir: Path,
    windows: Windows,
    *,
    measure: str,
    client_cpus: frozenset[int] | None,
    told: Callable[[str], None] = lambda label: None,
) -> dict[str, ServedCost | str]:
    """Each target's served cost, or why it has none; ``told`` hears each label as it starts."""
    costs: dict[str, ServedCost | str] = {}
    for index, target in enumerate(targets):
        if target.deployment is None:
            costs[target.label] = target.skipped or "not counted"
            continue
        told(target.label)
        directory = workdir / f"served-{index}"
        directory.mkdir(parents=True, exist_ok=True)
        directory.chmod(0o755)
        try:
            url = target.deployment.base_url
            load = rung_load(target.rung, url, directory, windows, client_cpus)
            costs[target.label] = measure_served(
                target.deployment,
                counting_for(target.adapter),
                load,
                directory,
                windows,
                measure=measure,
            )
        except LayerbenchError as error:
            costs[target.label] = f"not counted: {error}"
    return costs


def in_process_anchors(targets: list[CountedTarget]) -> dict[str, float]:
    """Per target, its application's own instructions per request on its rung, counted
    in-process (one pass per application and rung); none where the server does not run the
    application (the static file, mod_python's own handler) or its application is not called
    in-process (Rails, a Rack application)."""
    counted: dict[tuple[str, str], float] = {}
    anchors = {}
    for target in targets:
        key = (target.app, target.rung.name)
        if target.rung.stack is not Stack.PYTHON or not _runs_application(target.adapter):
            continue  # the static file, mod_python's own handler: not the application
        if find_application(target.app).interface != "wsgi":
            continue  # layerbench cost calls only a WSGI application
        if key not in counted:
            options = CostOptions(app=target.app, rungs=(target.rung.name,), repeats=1)
            result = run_cost(options)
            if not result.requests:
                continue
            counted[key] = result.requests[0].median
        anchors[target.label] = counted[key]
    return anchors


def _runs_application(adapter: str) -> bool:
    return find_adapter(adapter).serves is Serves.APPLICATION
