"""A smoke baseline records the conditions it was measured under (server, settings,
concurrency, URLs, machine); another run under other conditions is refused, exit 2 naming the
difference, before any server starts, unless told to compare anyway. An older baseline, which
recorded less, still loads, with a note."""

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from layerbench.lab.conditions import collect_conditions
from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.lab.run_skeleton import RunStart
from layerbench.smoke.smoke import SmokeOptions, prepare
from layerbench.smoke.smoke_baseline import baseline_document, read_baseline
from layerbench.smoke.smoke_conditions import SmokeConditions, differences
from tests.cli_lines import said
from tests.smoke_runs import BRIEF, SMOKE_APPS, shop, smoke_here

# A verdict needs 5 trials on each side (fewer: inconclusive, with a warning on stderr).
DECIDING_REPEATS = 5
DECIDING = [*BRIEF, "--repeats", str(DECIDING_REPEATS)]

APP = "shop.wsgi:application"


def conditions_now(workdir: Path, load_binary: Path) -> SmokeConditions:
    """The conditions ``smoke`` of the shop with its defaults measures under, on this machine."""
    options = SmokeOptions(APP, app_path=(str(SMOKE_APPS),))
    layout = plan_cpu_layout()
    start = RunStart(layout, load_binary, collect_conditions(layout), started_at="")
    return prepare(options, start, workdir).conditions


def write_baseline(path: Path, conditions: SmokeConditions, rates: list[float]) -> str:
    path.write_text(json.dumps(baseline_document(APP, conditions, {"/": rates})))
    return str(path)


def test_the_same_conditions_differ_in_nothing(tmp_path: Path, load_binary: Path) -> None:
    now = conditions_now(tmp_path / "work", load_binary)
    assert now.server == "gunicorn" and now.settings and now.settings["gunicorn"]["workers"] == 2
    assert now.concurrency == 10 and now.urls == ("/",)
    assert set(now.machine or {}) == {"cpu_model", "cpus_online", "cpus_usable"}
    assert differences(now, now) == []


def test_another_server_is_named_alone_not_with_every_setting() -> None:
    before = SmokeConditions("granian", {"granian": {"workers": 2}}, concurrency=10)
    now = SmokeConditions("gunicorn", {"gunicorn": {"workers": 2}}, concurrency=10)
    assert differences(before, now) == ["server granian in the baseline, gunicorn now"]


def test_urls_are_a_set_and_an_older_baseline_compares_what_it_recorded() -> None:
    now = SmokeConditions(urls=("/a", "/b"), machine={"cpu_model": "x"}, concurrency=10)
    assert differences(SmokeConditions(urls=("/b", "/a")), now) == []
    assert differences(SmokeConditions(urls=("/a",), concurrency=50), now) == [
        "concurrency 50 in the baseline, 10 now",
        "urls /a in the baseline, /a /b now",
    ]


def _server(c: SmokeConditions) -> SmokeConditions:
    return replace(c, server="granian")


def _workers(c: SmokeConditions) -> SmokeConditions:
    settings = c.settings or {}
    return replace(c, settings={**settings, "gunicorn": {**settings["gunicorn"], "workers": 4}})


def _concurrency(c: SmokeConditions) -> SmokeConditions:
    return replace(c, concurrency=50)


def _urls(c: SmokeConditions) -> SmokeConditions:
    return replace(c, urls=("/", "/api/items"))


def _cpu(c: SmokeConditions) -> SmokeConditions:
    return replace(c, machine={**(c.machine or {}), "cpu_model": "Another CPU @ 1.00GHz"})


@pytest.mark.parametrize(
    ("change", "difference"),
    [
        (_server, "server granian in the baseline, gunicorn now"),
        (_workers, "gunicorn.workers 4 in the baseline, 2 now"),
        (_concurrency, "concurrency 50 in the baseline, 10 now"),
        (_urls, "urls / /api/items in the baseline, / now"),
        (_cpu, "machine.cpu_model Another CPU @ 1.00GHz in the baseline, "),
    ],
)
def test_a_baseline_measured_under_other_conditions_is_refused_naming_the_difference(
    tmp_path: Path,
    load_binary: Path,
    change: Callable[[SmokeConditions], SmokeConditions],
    difference: str,
) -> None:
    conditions = change(conditions_now(tmp_path / "work", load_binary))
    baseline = write_baseline(tmp_path / "perf.json", conditions, [1000.0, 1000.0])
    completed = smoke_here(*shop("--baseline", baseline))
    assert completed.returncode == 2, completed.stderr
    assert said(completed.stderr).startswith(
        f"layerbench: error: {baseline} was measured under other conditions: {difference}"
    ), completed.stderr
    assert "compare anyway with --ignore-conditions" in completed.stderr
    assert len(said(completed.stderr).splitlines()) == 1, completed.stderr
    assert completed.stdout == ""


def test_compared_anyway_when_told_saying_how_the_conditions_differ(
    tmp_path: Path, load_binary: Path
) -> None:
    conditions = _server(conditions_now(tmp_path / "work", load_binary))
    # A baseline no machine is slower than: the verdict is "ok" whatever this one measures.
    baseline = write_baseline(tmp_path / "perf.json", conditions, [1.0] * DECIDING_REPEATS)
    completed = smoke_here(*shop("--baseline", baseline, "--ignore-conditions", *DECIDING))
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert said(completed.stderr) == (
        f"layerbench: note: compared anyway with {baseline}, measured under other conditions: "
        "server granian in the baseline, gunicorn now\n"
    )
    assert completed.stdout.splitlines()[1].split()[-1] == "ok"


def test_a_first_version_baseline_loads_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "perf.json"
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "app": APP,
                "server": "gunicorn",
                "concurrency": 10,
                "urls": {"/": {"requests_per_s": [900.0, 1100.0]}},
            }
        )
    )
    baseline = read_baseline(path)
    assert baseline.rates == {"/": [900.0, 1100.0]}
    assert baseline.conditions == SmokeConditions("gunicorn", concurrency=10, urls=("/",))
    assert "the settings and the machine it was measured on are unknown" in baseline.note


def test_a_first_version_baseline_of_another_server_is_refused_after_the_note(
    tmp_path: Path,
) -> None:
    """The issue's case: saved under granian, run under gunicorn, was "REGRESSED 76 %"."""
    path = tmp_path / "perf.json"
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "app": APP,
                "server": "granian",
                "concurrency": 10,
                "urls": {"/": {"requests_per_s": [1e9, 1e9]}},
            }
        )
    )
    completed = smoke_here(*shop("--baseline", str(path), *DECIDING))
    assert completed.returncode == 2, completed.stdout + completed.stderr
    note, error = said(completed.stderr).splitlines()
    assert note.startswith(f"layerbench: note: {path} is a baseline of an older layerbench")
    assert error.startswith(
        f"layerbench: error: {path} was measured under other conditions: "
        "server granian in the baseline, gunicorn now"
    )


def test_a_url_the_baseline_does_not_have_is_refused_before_any_server_starts(
    tmp_path: Path, load_binary: Path
) -> None:
    """Compared anyway or not, a URL with no baseline cannot be judged: said before measuring
    (here, before /missing would have answered 404 at verification)."""
    baseline = write_baseline(
        tmp_path / "perf.json", conditions_now(tmp_path / "work", load_binary), [1.0, 1.0]
    )
    completed = smoke_here(
        *shop("--url", "/missing", "--baseline", baseline, "--ignore-conditions")
    )
    assert completed.returncode == 2, completed.stderr
    assert said(completed.stderr) == (
        "layerbench: error: the baseline has no /missing: measure it with --save\n"
    )
