"""A matrix run as one job: options and an observer in, results out.

Every column's server is built first, in a temporary directory of the run's own (a wrong setting
or name stops the run before anything starts); the results file is saved after every cell and
once more at the end, however it ends (an interruption is recorded in the result, then raised
on)."""

from collections.abc import Callable
from typing import Protocol

from layerbench.errors import ConfigError
from layerbench.hosts.topology import Topology
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.ladder_services import LadderServices
from layerbench.lab.publish import ResultsFile
from layerbench.lab.run_skeleton import HostSaving, measured_run, start_run
from layerbench.matrix.matrix import Enough, Matrix, MatrixObserver
from layerbench.matrix.matrix_options import MatrixOptions
from layerbench.matrix.matrix_result import MatrixResult, matrix_memory_items
from layerbench.rungs.definitions import FULL_SERVICES


class MatrixRunObserver(MatrixObserver, Protocol):
    def begin(self, layout: CpuLayout) -> None:
        """The run is about to start: its CPUs planned, every column's server built."""


def run_matrix(
    options: MatrixOptions,
    results: ResultsFile,
    observer: MatrixRunObserver,
    topology: Topology | None = None,
    *,
    enough: Enough | None = None,
    conclude: Callable[[MatrixResult], None] = lambda result: None,
) -> MatrixResult:
    """Runs the matrix, telling ``observer`` as it goes; on ``topology``, each part on its
    hosts (:mod:`layerbench.lab.topology_run`). ``enough`` (``--until-decided``): passes go
    on after ``repeats`` until it says the result so far is enough; ``conclude`` adds to the
    result before the last save (after an interruption too)."""
    kinds = _services_of(options)
    if topology is not None and options.measure is not None:
        raise ConfigError(
            f"--measure {options.measure} counts servers on loopback: not with --topology"
        )
    start = start_run(
        pin=options.pin,
        applications=(column.application for column in options.columns),
        topology=topology,
        kinds=kinds,
    )
    result = MatrixResult(
        options=options.to_dict(), conditions=start.conditions, started_at=start.started_at
    )
    with (
        measured_run(
            result,
            HostSaving(results, matrix_memory_items),
            prefix="layerbench-matrix-",
            topology=topology,
            kinds=kinds,
            conclude=conclude,
            keep_last=lambda result: bool(result.cells) or result.interrupted,
        ) as run,
        # The services its rung reads (the upstream rung's delaying server), up first.
        LadderServices(kinds, start.layout.server_cpus, options.settings, run.placements) as up,
    ):
        result.conditions["services"] = dict(up.urls)
        matrix = Matrix(
            options=options,
            layout=start.layout,
            load_binary=start.load_binary,
            workdir=run.workdir,
            result=result,
            observer=observer,
            checkpoint=run.checkpoint,
            services=up.service_urls(),
            service_sessions=up.sessions,
            placements=run.placements,
            enough=enough,
        )
        planned = matrix.plan()  # refuses wrong settings before anything starts
        observer.begin(start.layout)
        matrix.run(planned)
    return result


def _services_of(options: MatrixOptions) -> tuple[str, ...]:
    """The services the matrix's rung reads, in the order a run starts them."""
    needs = options.named_rung().needs
    return tuple(kind for kind in FULL_SERVICES if kind in needs)
