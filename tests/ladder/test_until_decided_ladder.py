"""--until-decided's passes on a real ladder (gunicorn, the load generator): after --repeats,
the ladder asks after each pass whether the result so far is enough, and goes on until it says
so; the passes stay interleaved (string, db-raw, string, db-raw, ...)."""

from pathlib import Path

from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.ladder.ladder import Ladder
from layerbench.ladder.ladder_result import LadderResult
from layerbench.ladder.options import LadderOptions
from tests.ladder_runs import Recorder


def test_passes_go_on_after_repeats_until_enough_says_so(workdir: Path, load_binary: Path) -> None:
    asked: list[tuple[int, int]] = []

    def enough(result: LadderResult, passes: int) -> bool:
        asked.append((passes, min(len(rung.trials) for rung in result.rungs)))
        return passes >= 4

    options = LadderOptions(duration_s=0.3, warmup_s=0.1, repeats=2, rungs=("string", "db-raw"))
    result = LadderResult(
        options={}, conditions={"server_versions": {}, "load_commands": {}}, started_at=""
    )
    recorder = Recorder()
    Ladder(
        options=options,
        layout=plan_cpu_layout(),
        load_binary=load_binary,
        workdir=workdir,
        result=result,
        observer=recorder,
        enough=enough,
    ).run()
    # Asked after the 2nd pass (the last of --repeats), the 3rd and the 4th, each time with
    # every rung measured that many times; no pass after the answer was yes.
    assert asked == [(2, 2), (3, 3), (4, 4)]
    assert recorder.started == ["string", "db-raw"] * 4
    assert result.passes == 4
    assert [len(rung.trials) for rung in result.rungs] == [4, 4]
