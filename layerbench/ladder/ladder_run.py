"""A ladder run, and a mix run, as one job each: options and an observer in, results out.

A wrong setting or a taken --port is refused before anything starts; the run then works in a
temporary directory of its own, saves the results file after every rung and once more at the
end, however it ends (an interruption is recorded in the result, then raised on)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from layerbench.hosts.topology import Topology
from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.publish import ResultsFile
from layerbench.lab.run_skeleton import HostSaving, measured_run, start_run
from layerbench.lab.server_check import check_server
from layerbench.ladder.ladder import Enough, Ladder, LadderObserver, services_needed
from layerbench.ladder.ladder_result import LadderResult, ladder_memory_items
from layerbench.ladder.mix import mix_outcome
from layerbench.ladder.options import LadderOptions
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
    kinds = services_needed(options)
    start = start_run(
        pin=options.pin,
        applications=options.applications,
        topology=topology,
        kinds=kinds,
        check=lambda: check_server(options.server, options.settings, options.port),
    )
    result = LadderResult(
        options=options.to_dict(), conditions=start.conditions, started_at=start.started_at
    )
    observer.begin(start.layout)
    with measured_run(
        result,
        HostSaving(results, ladder_memory_items),
        prefix="layerbench-",
        topology=topology,
        kinds=kinds,
        conclude=conclude,
    ) as run:
        Ladder(
            options=options,
            layout=start.layout,
            load_binary=start.load_binary,
            workdir=run.workdir,
            result=result,
            observer=observer,
            checkpoint=run.checkpoint,
            placements=run.placements,
            enough=enough,
        ).run()
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
