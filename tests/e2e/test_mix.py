"""``layerbench mix``: the ratio as weights, the harmonic prediction, the mixed rung, and a
real run (gunicorn, the load generator's weighted URLs) end to end."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.ladder.mix import MixOptions, mix_outcome, mixed_rung
from layerbench.ladder.mix_result import mix_dict, read_mix
from layerbench.ladder.options import LadderOptions
from layerbench.report.exports import to_markdown
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from layerbench.results.load_result import LoadResult
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.results.usage import Usage
from layerbench.rungs.definitions import CACHED_PAGE, PAGE, STATIC, WRITE
from layerbench.stats.mix_prediction import predict_rate
from tests.cli_lines import said

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]


@pytest.mark.parametrize(
    ("ratio", "weights"),
    [(0.9, (9, 1)), (0.95, (19, 1)), (0.5, (1, 1)), (1 / 3, (1, 2)), (0.999, (999, 1))],
)
def test_a_ratio_is_whole_weights(ratio: float, weights: tuple[int, int]) -> None:
    assert MixOptions(ratio).weights == weights


@pytest.mark.parametrize("ratio", [0.0, 1.0, 1.5, -0.1, 0.0001, 0.9999])
def test_a_ratio_that_cannot_be_a_mix_is_refused(ratio: float) -> None:
    with pytest.raises(ConfigError, match="hit ratio"):
        MixOptions(ratio).weights  # noqa: B018


def test_the_prediction_adds_per_request_times() -> None:
    # 90 % at 1 ms and 10 % at 10 ms: 1.9 ms a request on average.
    assert predict_rate(0.9, 1000.0, 100.0) == pytest.approx(1000 / 1.9)
    # The seed's figures: page cache 4,400 req/s, the uncached page 256.
    assert predict_rate(0.9, 4400.0, 256.0) == pytest.approx(1 / (0.9 / 4400 + 0.1 / 256))
    assert predict_rate(0.5, 300.0, 300.0) == pytest.approx(300.0)


def test_the_mixed_rung_sends_both_rungs_by_weight() -> None:
    rung = mixed_rung(MixOptions(0.9), CACHED_PAGE, PAGE)
    assert rung.name == "mix-90"
    assert rung.mix == ((9, CACHED_PAGE), (1, PAGE))
    assert rung.layer == "90 % cached-page, the rest page (9:1)"
    with pytest.raises(ConfigError, match="served by nginx"):
        mixed_rung(MixOptions(0.9, hit="static"), STATIC, PAGE)
    with pytest.raises(ConfigError, match="GET rungs only"):
        mixed_rung(MixOptions(0.9, miss="write"), CACHED_PAGE, WRITE)


def test_a_mix_runs_its_two_rungs_then_the_mix() -> None:
    options = LadderOptions(mix=MixOptions(0.75, hit="cache", miss="orm"))
    assert [rung.name for rung in options.ladder] == ["cache", "orm", "mix-75"]
    with pytest.raises(ConfigError, match="unknown rung nope"):
        LadderOptions(mix=MixOptions(0.75, hit="nope"))
    with pytest.raises(ConfigError, match="served by nginx"):
        LadderOptions(mix=MixOptions(0.75, hit="static"))


def _trials(*rates: float, hit_share: int | None = None) -> tuple[Trial, ...]:
    def load(rate: float) -> LoadResult:
        by_url = () if hit_share is None else (hit_share, 100 - hit_share)
        return LoadResult(
            100, 0, 0, 1.0, rate, {}, 0.1, {"version": 1}, requests_completed_by_url=by_url
        )

    return tuple(Trial(load(rate), Usage({}, 1.0, 1, 0.0)) for rate in rates)


def _result(
    hits: tuple[float, ...], misses: tuple[float, ...], mixes: tuple[float, ...]
) -> LadderResult:
    def rung(name: str, trials: tuple[Trial, ...]) -> RungResult:
        return RungResult(name, "gunicorn", Status.OK, trials=trials)

    result = LadderResult(options={}, conditions={}, started_at="")
    result.rungs = [
        rung("cached-page", _trials(*hits)),
        rung("page", _trials(*misses)),
        rung("mix-90", _trials(*mixes, hit_share=90)),
    ]
    return result


def test_the_outcome_compares_prediction_and_measurement_with_intervals() -> None:
    options = MixOptions(0.9)
    # Predicted from the medians 1000 and 100: 526.3 req/s.
    outcome = mix_outcome(options, _result((990, 1000, 1010), (99, 100, 101), (400, 405, 410)))
    assert outcome is not None
    assert outcome.predicted_rate == pytest.approx(1000 / 1.9)
    assert outcome.measured_rate == 405
    assert outcome.error == pytest.approx(1000 / 1.9 / 405 - 1)
    low, high = outcome.error_interval
    assert 0 < low <= outcome.error <= high
    assert outcome.significant
    assert outcome.measured_hit_share == pytest.approx(0.9)
    assert mix_dict(outcome)["predicted_requests_per_s"] == outcome.predicted_rate
    assert read_mix(mix_dict(outcome)).error_interval == outcome.error_interval
    # A mix that measures what was predicted: the error's interval holds 0.
    close = mix_outcome(options, _result((900, 1000, 1100), (90, 100, 110), (500, 526, 550)))
    assert close is not None and not close.significant
    # Without the mix measured, nothing is predicted against it.
    missing = _result((1000,), (100,), ())
    assert mix_outcome(options, missing) is None


def test_layerbench_mix_measures_the_mix_and_prints_the_error(
    tmp_path: Path, load_binary: Path
) -> None:
    completed = subprocess.run(
        [*LAYERBENCH, "mix", "--hit", "0.9", "-d", "1", "--warmup", "0.3", "--repeats", "2",
         "--json", "mix.json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=180, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    table, block = completed.stdout.split("\n\nmix: ")
    rows = table.split("\n\n")[0].splitlines()[2:]  # under "CPU % of a core", the header
    assert [line.split()[0] for line in rows] == [
        "cached-page",
        "page",
        "mix-90",
    ]
    assert block.startswith("90 % cached-page, 10 % page\n"), block
    assert "  predicted  1 / (0.9 / " in block and "  error      " in block
    document = json.loads((tmp_path / "mix.json").read_text())
    mix = document["mix"]
    rates = {rung["rung"]: rung["requests_per_s"] for rung in document["rungs"]}
    assert mix["predicted_requests_per_s"] == pytest.approx(
        predict_rate(0.9, mix["hit_requests_per_s"], mix["miss_requests_per_s"])
    )
    assert mix["measured_requests_per_s"] == rates["mix-90"] > 0
    # The load generator sent 9 hits for each miss (within a cycle per connection).
    assert mix["measured_hit_share"] == pytest.approx(0.9, abs=0.01)
    mixed = document["rungs"][2]
    assert mixed["errors"] == 0
    assert [url["path"] for url in mixed["load"]["by_url"]] == ["/v/hello-world", "/ladder/page"]
    assert "--urls" in document["conditions"]["load_commands"]["mix-90"]
    # The reports show the prediction against the measurement.
    predicted = f"{mix['predicted_requests_per_s']:,.0f} req/s"
    page = html_report(read_result(document))
    assert "<h2>Mixed load</h2>" in page and f'<td class="n">{predicted}</td>' in page
    markdown = to_markdown(read_result(document)).splitlines()
    # The mix's table after the rungs', before the memory per worker and the run's conditions.
    mix_table = next(i for i, line in enumerate(markdown) if line.startswith("| 90 % cached-page"))
    assert markdown[mix_table].startswith("| 90 % cached-page, 10 % page | value | 95 % interval |")
    assert markdown[mix_table + 4].startswith("| error (predicted over measured; ")
    # Stored as a mix, and shown with its prediction.
    shown = subprocess.run(
        [*LAYERBENCH, "results", "show", "1"], capture_output=True, text=True, check=False
    )
    assert shown.stdout.startswith("run 1: mix, "), shown.stdout + shown.stderr
    assert "predicted: 1 / (0.9 / " in shown.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hit", "1.5"], "argument --hit: '1.5' is not a number from 0 to 1"),
        (["--hit", "0.9", "--hit-rung", "static"], "static is served by nginx"),
        (["--hit", "0.9", "--miss-rung", "write"], "write sends a request body"),
        (["--hit", "0.9", "--miss-rung", "nope"], "unknown rung nope"),
    ],
)
def test_wrong_mix_options_are_one_line_errors(
    tmp_path: Path, args: list[str], message: str
) -> None:
    completed = subprocess.run(
        [*LAYERBENCH, "mix", *args], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert completed.returncode == 2
    assert said(completed.stderr).startswith("layerbench: error: "), completed.stderr
    assert message in completed.stderr
    assert len(said(completed.stderr).splitlines()) == 1
