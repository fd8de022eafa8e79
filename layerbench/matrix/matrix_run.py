"""A matrix run as one job: options and an observer in, results out.

Every column's server is built first, in a temporary directory of the run's own (a wrong setting
or name stops the run before anything starts); the results file is saved after every cell and
once more at the end, however it ends (an interruption is recorded in the result, then raised
on)."""

from collections.abc import Callable
from typing import Protocol

from layerbench.errors import ConfigError
from layerbench.hosts.topology import Topology
from layerbench.lab.app_under_test import check_installed
from layerbench.lab.conditions import collect_conditions
from layerbench.lab.cpu_layout import CpuLayout, plan_cpu_layout
from layerbench.lab.ladder_services import LadderServices
from layerbench.lab.loadgen import find_load_generator
from layerbench.lab.publish import ResultsFile, now
from layerbench.lab.topology_run import (
    check_topology,
    placed_on,
    save_last_with_hosts,
    save_with_hosts,
    topology_record,
)
from layerbench.matrix.matrix import Enough, Matrix, MatrixObserver
from layerbench.matrix.matrix_options import MatrixOptions
from layerbench.proc.work_dirs import work_directory
from layerbench.render.worker_memory import matrix_memory_items
from layerbench.results.matrix_result import MatrixResult
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
    if topology is not None:
        check_topology(topology, kinds)
    for app in dict.fromkeys(column.application for column in options.columns):
        check_installed(app)
    layout = plan_cpu_layout(pin=options.pin)
    load_binary = find_load_generator()
    result = MatrixResult(
        options=options.to_dict(), conditions=collect_conditions(layout), started_at=now()
    )

    def checkpoint() -> None:
        save_with_hosts(results, result.to_dict(), matrix_memory_items(result))

    finished = False
    try:
        with (
            work_directory("layerbench-matrix-") as workdir,
            placed_on(topology, kinds) as placements,
            # The services its rung reads (the upstream rung's delaying server), up first.
            LadderServices(kinds, layout.server_cpus, options.settings, placements) as up,
        ):
            if placements.network is not None:
                result.conditions["topology"] = topology_record(placements.network)
            result.conditions["services"] = dict(up.urls)
            matrix = Matrix(
                options=options,
                layout=layout,
                load_binary=load_binary,
                workdir=workdir,
                result=result,
                observer=observer,
                checkpoint=checkpoint,
                services=up.service_urls(),
                service_sessions=up.sessions,
                placements=placements,
                enough=enough,
            )
            planned = matrix.plan()  # refuses wrong settings before anything starts
            observer.begin(layout)
            matrix.run(planned)
        finished = True
    except KeyboardInterrupt:
        result.interrupted = True
        raise
    finally:
        result.finished_at = now()
        conclude(result)
        if result.cells or result.interrupted:
            items = matrix_memory_items(result)
            save_last_with_hosts(results, result.to_dict(), items, finished=finished)
    return result


def _services_of(options: MatrixOptions) -> tuple[str, ...]:
    """The services the matrix's rung reads, in the order a run starts them."""
    needs = options.named_rung().needs
    return tuple(kind for kind in FULL_SERVICES if kind in needs)
