"""What --measure instructions refuses before anything starts, and what it passes on: a matrix
column whose processes are not declared, a baseline counted otherwise than this run, the
replicated experiment's command; and the names its windows' files get."""

import pytest

from layerbench.cli.main import build_parser
from layerbench.cost.instructions_baseline import CountedUnder
from layerbench.errors import ConfigError
from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.replicate.published import published_named
from layerbench.replicate.replicate_cmd import replicate_argv
from layerbench.served.served_counting import COUNTED
from layerbench.served.served_windows import _tags
from layerbench.smoke.smoke_served import check_same_serving


def _matrix(servers: str, measure: str | None = "instructions") -> MatrixOptions:
    columns = tuple(Column.parse(name, {}) for name in servers.split(","))
    return MatrixOptions(columns=columns, measure=measure)


def test_matrix_columns_counted_only_where_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _matrix("gunicorn,uwsgi,mod_wsgi-daemon,waitress").measure == "instructions"
    assert _matrix("nginx-static,gunicorn,puma:app=rails").measure == "instructions"
    monkeypatch.delitem(COUNTED, "waitress")
    with pytest.raises(ConfigError, match="cannot count waitress"):
        _matrix("gunicorn,waitress")
    _matrix("waitress", measure=None)  # without --measure, any server


def test_a_baseline_counted_otherwise_is_refused() -> None:
    check_same_serving(CountedUnder(served_by="gunicorn"), "gunicorn")
    check_same_serving(CountedUnder(), None)
    with pytest.raises(ConfigError, match="counted in-process and this run counts served by"):
        check_same_serving(CountedUnder(), "gunicorn")
    with pytest.raises(ConfigError, match="served by uwsgi and this run counts in-process"):
        check_same_serving(CountedUnder(served_by="uwsgi"), None)


def test_replicate_passes_measure_to_the_experiment() -> None:
    experiment = published_named("mod_wsgi-daemon-modes")
    plain = build_parser().parse_args(["replicate", experiment.name])
    assert "--measure" not in replicate_argv(experiment, plain)
    counted = build_parser().parse_args(["replicate", experiment.name, "--measure", "cycles"])
    argv = replicate_argv(experiment, counted)
    assert argv[0] == "matrix"
    assert argv[argv.index("--measure") + 1] == "cycles"


def test_window_files_named_safely_and_apart() -> None:
    assert _tags(["/", "/api/items?x=1", "string"]) == {
        "/": "0-_",
        "/api/items?x=1": "1-_api_items_x_1",
        "string": "2-string",
    }
