"""A ladder run, and a mix run, as one job each: options and an observer in, results out.

A wrong setting or a taken --port is refused before anything starts; the run then works in a
temporary directory of its own, saves the results file after every rung and once more at the
end, however it ends (an interruption is recorded in the result, then raised on)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from layerbench.hosts.topology import Topology
from layerbench.lab.app_under_test import check_installed
from layerbench.lab.conditions import collect_conditions
from layerbench.lab.cpu_layout import CpuLayout, plan_cpu_layout
from layerbench.lab.loadgen import find_load_generator
from layerbench.lab.publish import ResultsFile, now
from layerbench.lab.server_check import check_server
from layerbench.lab.topology_run import (
    check_topology,
    placed_on,
    save_last_with_hosts,
    save_with_hosts,
    topology_record,
)
from layerbench.ladder.ladder import Enough, Ladder, LadderObserver, services_needed
from layerbench.ladder.mix import mix_outcome
from layerbench.ladder.options import LadderOptions
from layerbench.proc.work_dirs import work_directory
from layerbench.render.worker_memory import ladder_memory_items
from layerbench.results.ladder_result import LadderResult
from layerbench.stats.mix_prediction import MixOutcome


class LadderRunObserver(LadderObserver, Protocol):
    def begin(self, layout: CpuLayout) -> None:
        """The run is about to start, its CPUs planned."""


def run_ladder(
    options: LadderOptions,
    results: ResultsFile,
    observer: LadderRunObserver,
    conclude: Callable[[LadderResult], None] = lambda result: None,
    topology: Topology | None = None,
    *,
    enough: Enough | None = None,
) -> LadderResult:
    """Runs the ladder, telling ``observer`` as it goes. ``conclude`` adds to the result before
    the last save (after an interruption too). On ``topology``, each part runs on its hosts
    (:mod:`layerbench.lab.topology_run`). ``enough`` (``--until-decided``): passes go on
    after ``repeats`` until it says the result so far is enough."""
    if topology is not None:
        check_topology(topology, services_needed(options))
    check_server(options.server, options.settings, options.port)
    for app in options.applications:
        check_installed(app)
    layout = plan_cpu_layout(pin=options.pin)
    load_binary = find_load_generator()
    result = LadderResult(
        options=options.to_dict(),
        conditions=collect_conditions(layout),
        started_at=now(),
    )
    observer.begin(layout)

    def checkpoint() -> None:
        save_with_hosts(results, result.to_dict(), ladder_memory_items(result))

    finished = False
    try:
        with (
            work_directory("layerbench-") as workdir,
            placed_on(topology, services_needed(options)) as placements,
        ):
            if placements.network is not None:
                result.conditions["topology"] = topology_record(placements.network)
            Ladder(
                options=options,
                layout=layout,
                load_binary=load_binary,
                workdir=workdir,
                result=result,
                observer=observer,
                checkpoint=checkpoint,
                placements=placements,
                enough=enough,
            ).run()
        finished = True
    except KeyboardInterrupt:
        result.interrupted = True
        raise
    finally:
        result.finished_at = now()
        conclude(result)
        items = ladder_memory_items(result)
        save_last_with_hosts(results, result.to_dict(), items, finished=finished)
    return result


@dataclass(frozen=True)
class MixRun:
    ladder: LadderResult
    # The prediction against the measurement; None when a rung of the three was not measured.
    outcome: MixOutcome | None


def run_mix(
    options: LadderOptions,
    results: ResultsFile,
    observer: LadderRunObserver,
    topology: Topology | None = None,
) -> MixRun:
    """Runs ``options.mix``'s two rungs and their mix as a ladder (on ``topology``, each part
    on its hosts, as :func:`run_ladder`); the outcome is in the result (``mix``), and in every
    save from the last on."""
    mix = options.mix
    if mix is None:
        raise ValueError("run_mix needs options with a mix")
    outcomes: list[MixOutcome] = []

    def conclude(result: LadderResult) -> None:
        outcome = mix_outcome(mix, result)
        if outcome is not None:
            outcomes.append(outcome)
            result.mix = outcome

    ladder = run_ladder(options, results, observer, conclude, topology)
    return MixRun(ladder, outcomes[0] if outcomes else None)
