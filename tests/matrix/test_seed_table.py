"""Published vs here (replicate/seed_table.py): a published experiment's figures placed in a
matrix run's cells, our ratios with their bootstrap intervals, and whether each of the post's
conclusions holds; a run that holds none of the experiments named is refused in one line.
Results are built with the project's own structures (the table is under test, not the
servers)."""

import subprocess
import sys

import pytest

from layerbench.errors import ConfigError
from layerbench.matrix.matrix_result import Cell, ColumnInfo, MatrixResult
from layerbench.matrix.seed_table import RunColumn, RunShape, check_seed, format_seed_table
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.stats.comparison import compare_paired
from tests.cli_lines import said
from tests.report_documents import CONDITIONS, load, usage
from tests.verdict_lines import unwrapped

PASTE = "paste:app=zope"
DAEMON = "mod_wsgi-daemon:processes=4:threads=1:app=zope"
DAEMON_USED = {"mod_wsgi-daemon": {"processes": 4, "threads": 1, "preload": True}}
COMMAND = (sys.executable, "-m", "layerbench.cli")
LAZY = "mod_wsgi-embedded:preload=off:app=django"
PRELOADED = "mod_wsgi-embedded:preload=on:app=django"


def matrix(
    rung: str,
    levels: tuple[int, ...],
    columns: list[tuple[str, str, dict[str, dict[str, object]]]],
    rates: dict[tuple[str, int], list[float]],
) -> MatrixResult:
    """``columns``: (label, app, settings used); ``rates``: per (label, row) each trial's
    req/s. Each server process (RSS twice its PSS, tests/report_documents.py) used CPU."""
    result = MatrixResult(
        options={"concurrency": list(levels), "rung": rung},
        conditions=CONDITIONS,
        started_at="2026-01-02T03:04:05+00:00",
    )
    for label, app, used in columns:
        result.columns.append(ColumnInfo(label, label.split(":")[0], rung, app, settings=used))
    for (label, row), trial_rates in rates.items():
        roles = {"server": [("apache2", 1.0, 20.0), ("apache2", 0.5, 30.0)]}
        trials = tuple(Trial(load(rate), usage(roles)) for rate in trial_rates)
        result.cells.append(Cell(label, row, levels[row], Status.OK, trials=trials))
    return result


TEMPLATE = "mod_python-django-template"


def seed_003(c8_daemon: list[float]) -> MatrixResult:
    return matrix(
        "page",
        (1, 8),
        [(PASTE, "zope", {"paste": {"threads": 10}}), (DAEMON, "zope", DAEMON_USED)],
        {
            (PASTE, 0): [400.0, 410.0, 395.0],
            (DAEMON, 0): [405.0, 398.0, 402.0],
            (PASTE, 1): [280.0, 275.0, 290.0],
            (DAEMON, 1): c8_daemon,
        },
    )


def test_seed_003_holds_with_the_ratio_and_its_interval() -> None:
    daemon = [1400.0, 1450.0, 1480.0]
    text = format_seed_table(seed_003(daemon), "zope-paste")
    expected = compare_paired("c8", [280.0, 275.0, 290.0], daemon)
    assert expected is not None and expected.ci_low is not None and expected.ci_high is not None
    lines = unwrapped(text)
    row = next(line for line in lines if line.startswith("mod_wsgi 4 x 1 c=8"))
    # The seed's 1476 and its ratio to paste's 276; ours, its interval, our ratio and its own.
    assert row.split()[-9:] == [
        "1,476",
        "5.35",
        "1,450",
        "[1,400,",
        "1,480]",
        f"{expected.ratio:.2f}",
        f"[{expected.ci_low:.2f},",
        f"{expected.ci_high:.2f}]",
        "50.0",  # RSS per worker: the mean of the two workers' (no RES from seed 003)
    ]
    claim = "  at c=8, 4 processes 1476 against one process's threads 276: 5.3x (the GIL)"
    c8 = lines[lines.index(claim) + 1]
    assert c8.endswith(": holds"), c8
    c1 = next(line for line in lines if "c=1 = " in line)
    assert c1.endswith("holds (within ±10 %)"), c1


def test_a_conclusion_the_run_contradicts_does_not_hold() -> None:
    text = format_seed_table(seed_003([200.0, 210.0, 190.0]), "zope-paste")
    verdict = next(line for line in unwrapped(text) if "c=8 / paste (threads) c=8" in line)
    assert verdict.endswith("does not hold (slower here)"), verdict


def test_one_trial_has_no_interval_and_says_so() -> None:
    result = matrix(
        "page",
        (1, 8),
        [(PASTE, "zope", {}), (DAEMON, "zope", DAEMON_USED)],
        {(PASTE, 0): [400.0], (DAEMON, 0): [404.0], (PASTE, 1): [276.0], (DAEMON, 1): [1476.0]},
    )
    text = format_seed_table(result, "zope-paste")
    assert "= 5.35, claimed +435 %, here +435 %: inconclusive (no interval)" in text, text


def test_preload_places_the_first_and_the_second_measurement() -> None:
    off = {"mod_wsgi-embedded": {"preload": False}}
    on = {"mod_wsgi-embedded": {"preload": True}}
    result = matrix(
        "string",
        (100, 100),
        [(LAZY, "django", off), (PRELOADED, "django", on)],
        {
            (LAZY, 0): [600.0, 610.0, 620.0],
            (PRELOADED, 0): [700.0, 720.0, 710.0],
            (LAZY, 1): [880.0, 870.0, 875.0],
            (PRELOADED, 1): [881.0, 872.0, 879.0],
        },
    )
    text = format_seed_table(result, "django-pylons,django-preload")
    lines = unwrapped(text)
    second = next(line for line in lines if line.startswith("preloaded, second run"))
    assert f"{PRELOADED} c=100 (second)" in second and " 879 " in second, second
    first = next(line for line in lines if line.startswith("preloaded, first run"))
    assert " 710 " in first, first
    assert first.rstrip().endswith("50.0"), first
    verdicts = [line for line in lines if line.startswith("    here:")]
    assert verdicts[0].endswith(": holds") and verdicts[1].endswith("holds (within ±10 %)")


def test_a_run_without_the_posts_configurations_is_refused() -> None:
    result = seed_003([1400.0, 1450.0, 1480.0])
    django = "mod_python-django-template,mod_python-django-orm"
    with pytest.raises(ConfigError, match=f"holds none of {django}: mod_python-django-template "):
        format_seed_table(result, django)
    with pytest.raises(ConfigError, match="no published experiment 'zope-pasta'; did you mean "):
        format_seed_table(result, "zope-pasta")
    with pytest.raises(ConfigError, match="rails-passenger is a ladder experiment, not a matrix"):
        format_seed_table(result, "rails-passenger")


def test_before_the_run_a_default_may_be_the_seeds_setting_and_a_given_one_decides() -> None:
    def daemon(book: dict[str, dict[str, str]]) -> RunShape:
        columns = (
            RunColumn("p", "paste", "zope", "page", {}, {}),
            RunColumn("d", "mod_wsgi-daemon", "zope", "page", book, {}),
        )
        return RunShape(columns, (1, 8))

    given = {"mod_wsgi-daemon": {"processes": "4", "threads": "1"}}
    assert [e.name for e in check_seed("zope-paste", daemon(given))] == ["zope-paste"]
    # Not given: its default is not known before the run, and may be the seed's.
    assert [e.name for e in check_seed("zope-paste", daemon({}))] == ["zope-paste"]
    with pytest.raises(ConfigError, match="lacks mod_wsgi-daemon:app=zope:mod_wsgi-daemon"):
        check_seed("zope-paste", daemon({"mod_wsgi-daemon": {"processes": "2", "threads": "1"}}))


def test_the_matrix_command_refuses_an_experiment_it_cannot_hold_before_anything_starts() -> None:
    done = subprocess.run(
        [*COMMAND, "matrix", "--servers", "gunicorn", "-c", "1", "--published", TEMPLATE],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    lines = said(done.stderr).strip().splitlines()
    assert len(lines) == 1 and f"holds none of {TEMPLATE}" in lines[0], lines
    assert "Traceback" not in done.stderr


def test_the_hidden_seed_option_says_in_one_line_what_replaced_it() -> None:
    done = subprocess.run(
        [*COMMAND, "matrix", "--servers", "gunicorn", "-c", "1", "--seed", "002"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    replaced, refused = said(done.stderr).strip().splitlines()
    names = "mod_python-django-orm,mod_python-django-template,mod_python-lineup"
    assert replaced == f"layerbench: --seed 002 is now --published {names}", replaced
    assert f"holds none of {names}" in refused, refused
    helped = subprocess.run(
        [*COMMAND, "matrix", "--help"], capture_output=True, text=True, timeout=60, check=True
    )
    assert "--seed" not in helped.stdout and "--published" in helped.stdout


def seed_000(c500_embedded: list[float]) -> MatrixResult:
    """The README's seed 000 matrix: mod_wsgi embedded against three daemon configurations at
    c = 100, 200, 500; daemon mode 3,000 req/s everywhere, embedded 4,400 but at c=500."""
    levels = (100, 200, 500)
    daemons = [(2, 10), (2, 100), (20, 10)]
    columns: list[tuple[str, str, dict[str, dict[str, object]]]] = [
        ("mod_wsgi-embedded", "bare", {"mod_wsgi-embedded": {"preload": True}})
    ]
    for p, t in daemons:
        used: dict[str, dict[str, object]] = {"mod_wsgi-daemon": {"processes": p, "threads": t}}
        columns.append((f"mod_wsgi-daemon:processes={p}:threads={t}", "bare", used))
    rates: dict[tuple[str, int], list[float]] = {}
    for row in range(len(levels)):
        embedded = c500_embedded if levels[row] == 500 else [4400.0, 4300.0, 4500.0]
        rates[(columns[0][0], row)] = embedded
        for label, _, _ in columns[1:]:
            rates[(label, row)] = [3000.0 + 10 * row, 3050.0, 2950.0]
    return matrix("string", levels, columns, rates)


def test_seed_000_in_process_against_daemon_mode_at_each_level() -> None:
    text = format_seed_table(seed_000([2000.0, 2100.0, 1900.0]), "mod_wsgi-daemon-modes")
    lines = unwrapped(text)
    # Each daemon configuration in its own column, against in-process at the same level.
    row = next(line for line in lines if line.startswith("p=2,t=100 c=200"))
    assert "mod_wsgi-daemon:processes=2:threads=100 c=200" in row, row
    assert row.split()[4:7] == ["2,988", "0.67", "3,010"], row
    verdicts = [line for line in lines if line.startswith("    here:")]
    assert [v.split(" = ")[0] for v in verdicts] == [
        f"    here: in-process c={c} / p=2,t=100 c={c}" for c in (100, 200, 500)
    ]
    assert verdicts[0].endswith(": holds") and verdicts[1].endswith(": holds"), verdicts
    assert verdicts[2].endswith("does not hold (slower here)"), verdicts[2]


def test_seed_000_needs_every_daemon_configuration_before_the_run() -> None:
    def planned(daemons: list[str]) -> RunShape:
        columns = [RunColumn("e", "mod_wsgi-embedded", "bare", "string", {}, {})]
        for label in daemons:
            p, t = (part.split("=")[1] for part in label.split(":")[1:])
            book = {"mod_wsgi-daemon": {"processes": p, "threads": t}}
            columns.append(RunColumn(label, "mod_wsgi-daemon", "bare", "string", book, {}))
        return RunShape(tuple(columns), (100, 200, 500))

    every = ["d:processes=2:threads=10", "d:processes=2:threads=100", "d:processes=20:threads=10"]
    assert [e.name for e in check_seed("mod_wsgi-daemon-modes", planned(every))] == [
        "mod_wsgi-daemon-modes"
    ]
    with pytest.raises(ConfigError, match="lacks mod_wsgi-daemon:app=bare:mod_wsgi-daemon"):
        check_seed("mod_wsgi-daemon-modes", planned(every[:2]))


def test_a_static_servers_column_holds_the_posts_static_figure() -> None:
    """mod_python-lineup: the static file is the apache-static column's, on its static rung."""
    servers = ["uwsgi-nginx", "mod_python", "apache-static", "mod_wsgi-embedded"]
    servers += ["mod_python-wsgi", "uwsgi"]
    columns = tuple(
        RunColumn(s, s, "bare", "static" if s == "apache-static" else "string", {}, {})
        for s in servers
    )
    assert [e.name for e in check_seed("mod_python-lineup", RunShape(columns, (1,)))] == [
        "mod_python-lineup"
    ]
    without_static = RunShape(tuple(c for c in columns if c.server != "apache-static"), (1,))
    with pytest.raises(ConfigError, match="lacks apache-static:app=bare at c=1"):
        check_seed("mod_python-lineup", without_static)
