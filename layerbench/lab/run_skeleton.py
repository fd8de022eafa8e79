"""The skeleton every measured run shares, written once: refuse what cannot run before anything
starts, plan the CPUs, find the load generator, record the conditions and the start; then, in a
temporary directory of the run's own and on the hosts of its topology (loopback without one),
the run's own part, with a checkpoint that saves the results file after every step; and
however the run ends, its end time, what the run adds to its result (``conclude``) and the
last save (an interruption recorded in the result, then raised on).

A slice's run (the ladder's, the matrix's) is what it measures inside :func:`measured_run`'s
``with`` block; the services it starts, the servers, the warm-up and the interleaved passes are
its own."""

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from layerbench.hosts.topology import Topology
from layerbench.lab.app_under_test import check_installed
from layerbench.lab.conditions import collect_conditions
from layerbench.lab.cpu_layout import CpuLayout, plan_cpu_layout
from layerbench.lab.loadgen import find_load_generator
from layerbench.lab.publish import ResultsFile, now
from layerbench.lab.topology_run import (
    Placements,
    check_topology,
    placed_on,
    save_last_with_hosts,
    save_with_hosts,
    topology_record,
)
from layerbench.proc.work_dirs import work_directory
from layerbench.render.host_table import Items
from layerbench.rungs.applications import Application


class RunResult(Protocol):
    """What a run's result has for the skeleton: its conditions, its end, its document."""

    conditions: dict[str, Any]
    finished_at: str | None
    interrupted: bool

    def to_dict(self) -> dict[str, Any]: ...


Result = TypeVar("Result", bound=RunResult)


@dataclass(frozen=True)
class RunStart:
    """What every run plans and records before it starts anything."""

    layout: CpuLayout
    load_binary: Path
    conditions: dict[str, Any]
    started_at: str


def start_run(
    *,
    pin: bool,
    applications: Iterable[Application],
    topology: Topology | None = None,
    kinds: tuple[str, ...] = (),
    check: Callable[[], None] = lambda: None,
) -> RunStart:
    """Refuses a topology without the hosts the run needs, what ``check`` refuses (the
    run's own settings) and an application that is not installed, then plans the CPUs and finds
    the load generator."""
    if topology is not None:
        check_topology(topology, kinds)
    check()
    for app in dict.fromkeys(applications):
        check_installed(app)
    layout = plan_cpu_layout(pin=pin)
    load_binary = find_load_generator()
    return RunStart(layout, load_binary, collect_conditions(layout), now())


@dataclass(frozen=True)
class RunSpace:
    """Where the run's own part works: its directory, its hosts, and the checkpoint that saves
    the results so far."""

    workdir: Path
    placements: Placements
    checkpoint: Callable[[], None]


@contextmanager
def measured_run(
    result: Result,
    results: ResultsFile,
    items: Callable[[Result], Items],
    *,
    prefix: str,
    topology: Topology | None,
    kinds: tuple[str, ...],
    conclude: Callable[[Result], None],
    keep_last: Callable[[Result], bool] = lambda result: True,
) -> Iterator[RunSpace]:
    """The ``with`` block a run measures in. ``items`` are the result's measured items, for
    the per-host rows of every save; ``keep_last`` says whether the last save is written (a
    matrix that measured nothing and was not interrupted leaves no file)."""

    def checkpoint() -> None:
        save_with_hosts(results, result.to_dict(), items(result))

    finished = False
    try:
        with work_directory(prefix) as workdir, placed_on(topology, kinds) as placements:
            if placements.network is not None:
                result.conditions["topology"] = topology_record(placements.network)
            yield RunSpace(workdir, placements, checkpoint)
        finished = True
    except KeyboardInterrupt:
        result.interrupted = True
        raise
    finally:
        result.finished_at = now()
        conclude(result)
        if keep_last(result):
            save_last_with_hosts(results, result.to_dict(), items(result), finished=finished)
