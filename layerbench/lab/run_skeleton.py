"""The skeleton every measured run shares, written once: refuse what cannot run before anything
starts, plan the CPUs, find the load generator, record the conditions and the start; then, in a
temporary directory of the run's own and on the hosts of its topology (loopback without one),
the run's own part, with a checkpoint that saves the results file after every step; and
however the run ends, its end time, what the run adds to its result (``conclude``) and the
last save (an interruption recorded in the result, then raised on).

A slice's run is what it measures inside :func:`measured_run`'s ``with`` block; the services
it starts, the servers, the warm-up and the interleaved passes are its own. How it saves is a
:class:`Saving`: with each host's rows (:class:`HostSaving`: the ladder, the matrix), the
document alone (:class:`DocumentSaving`: writes, cluster). A run that keeps nothing until it
has measured everything (a smoke baseline is whole or not written) uses :func:`run_space`
alone: the directory and the hosts, without a result to save."""

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

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
from layerbench.store.document_file import STDOUT, write_document
from layerbench.typed_documents import JsonObject


class RunResult(Protocol):
    """What a run's result has for the skeleton: its conditions (where the topology is
    recorded), its end, its document."""

    @property
    def conditions(self) -> JsonObject: ...

    finished_at: str | None
    interrupted: bool

    def to_dict(self) -> JsonObject: ...


Result = TypeVar("Result", bound=RunResult)
Kept_contra = TypeVar("Kept_contra", bound=RunResult, contravariant=True)


class Saving(Protocol[Kept_contra]):
    """How a run's result is kept: after every step, and once more however the run ends."""

    def checkpoint(self, result: Kept_contra) -> None: ...

    def last(self, result: Kept_contra, *, finished: bool) -> None: ...


@dataclass(frozen=True)
class HostSaving(Generic[Result]):
    """The results file with each host's rows of the measured ``items`` (on a topology), and
    the run in the results database when it is interrupted
    (:mod:`layerbench.lab.topology_run`)."""

    results: ResultsFile
    items: Callable[[Result], Items]

    def checkpoint(self, result: Result) -> None:
        save_with_hosts(self.results, result.to_dict(), self.items(result))

    def last(self, result: Result, *, finished: bool) -> None:
        save_last_with_hosts(self.results, result.to_dict(), self.items(result), finished=finished)


@dataclass(frozen=True)
class DocumentSaving:
    """The result's document alone, to ``path`` (atomically) after every step; to stdout
    (``-``) once, at the end; nowhere without a path."""

    path: Path | str | None

    def checkpoint(self, result: RunResult) -> None:
        if self.path is not None and str(self.path) != STDOUT:
            write_document(result.to_dict(), self.path)

    def last(self, result: RunResult, *, finished: bool) -> None:
        if self.path is not None:
            write_document(result.to_dict(), self.path)


# A run that keeps its result itself, or not at all.
NO_SAVING = DocumentSaving(None)


@dataclass(frozen=True)
class RunStart:
    """What every run plans and records before it starts anything."""

    layout: CpuLayout
    load_binary: Path
    conditions: JsonObject
    started_at: str


def start_run(
    *,
    pin: bool,
    applications: Iterable[Application] = (),
    topology: Topology | None = None,
    kinds: tuple[str, ...] = (),
    check: Callable[[], None] = lambda: None,
) -> RunStart:
    """Refuses a topology without the hosts the run needs, what ``check`` refuses (the
    run's own settings) and an application that is not installed, then plans the CPUs and finds
    the load generator (a LoadGeneratorError when it cannot)."""
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
def run_space(
    prefix: str, topology: Topology | None = None, kinds: tuple[str, ...] = ()
) -> Iterator[tuple[Path, Placements]]:
    """A temporary directory of the run's own (``prefix``), and each part's host: on
    ``topology``'s hosts, made for the run; both removed however it ends."""
    with work_directory(prefix) as workdir, placed_on(topology, kinds) as placements:
        yield workdir, placements


@contextmanager
def measured_run(
    result: Result,
    saving: Saving[Result],
    *,
    prefix: str,
    topology: Topology | None = None,
    kinds: tuple[str, ...] = (),
    conclude: Callable[[Result], None] = lambda result: None,
    keep_last: Callable[[Result], bool] = lambda result: True,
) -> Iterator[RunSpace]:
    """The ``with`` block a run measures in, in :func:`run_space`; its checkpoint is
    ``saving``'s; ``keep_last`` says whether the last save is written (a matrix that measured
    nothing and was not interrupted leaves no file)."""
    finished = False
    try:
        with run_space(prefix, topology, kinds) as (workdir, placements):
            if placements.network is not None:
                result.conditions["topology"] = topology_record(placements.network)
            yield RunSpace(workdir, placements, lambda: saving.checkpoint(result))
        finished = True
    except KeyboardInterrupt:
        result.interrupted = True
        raise
    finally:
        result.finished_at = now()
        conclude(result)
        if keep_last(result):
            saving.last(result, finished=finished)
