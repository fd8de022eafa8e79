"""Running the ladder in a test: an observer that records the order of the trials, and one
call that runs it with given options on this machine's CPU layout."""

from pathlib import Path

from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.ladder.ladder import Ladder, LadderObserver
from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.ladder.options import LadderOptions
from layerbench.rungs.definitions import Rung


class Recorder:
    def __init__(self) -> None:
        self.started: list[str] = []

    def stack_starting(self, server: str) -> None:
        pass

    def rung_starting(self, rung: Rung, app: str) -> None:
        self.started.append(rung.name)

    def rung_finished(self, result: RungResult) -> None:
        pass

    def pass_starting(self, number: int, passes: int) -> None:
        pass


def run_ladder(
    workdir: Path,
    load_binary: Path,
    options: LadderOptions,
    observer: LadderObserver | None = None,
) -> LadderResult:
    result = LadderResult(
        options={}, conditions={"server_versions": {}, "load_commands": {}}, started_at=""
    )
    Ladder(
        options=options,
        layout=plan_cpu_layout(),
        load_binary=load_binary,
        workdir=workdir,
        result=result,
        observer=observer or Recorder(),
    ).run()
    return result
