"""Every ``--set`` setting has a type, and a range or an allowed set, checked when it is read,
before anything starts; every numeric option is finite and in range when the command line is
parsed. The issue's cases had started servers (``gunicorn.backlog=-1``), imported what a setting
named (``gunicorn.worker_class=os.system``), forked until the start timed out
(``gunicorn.workers=100000``), hung (``apache.max_connections_per_child=-1``), or raised a
traceback after the server had started (``ladder -d nan``), each stored as a run."""

import dataclasses
import importlib
import pkgutil
import typing
from pathlib import Path
from typing import Any

import pytest

import layerbench.servers
from layerbench.cli.main import run
from layerbench.errors import ConfigError
from layerbench.lab.service_settings import SERVICE_SETTINGS, service_arguments
from layerbench.servers.apache import ApacheSettings
from layerbench.servers.gunicorn import GunicornSettings
from layerbench.servers.server_settings import read_section, setting_range
from layerbench.servers.uwsgi import UwsgiSettings
from layerbench.store.results_db import ResultsDatabase, default_path


def settings_types() -> list[type[Any]]:
    """Every settings dataclass a server adapter or a service reads ``--set`` into."""
    found: dict[str, type[Any]] = {}
    for module_info in pkgutil.iter_modules(layerbench.servers.__path__):
        if module_info.name.startswith("mod_python_"):
            continue  # run inside Apache's interpreter, not importable here
        module = importlib.import_module(f"layerbench.servers.{module_info.name}")
        for name, value in vars(module).items():
            if (
                name.endswith("Settings")
                and dataclasses.is_dataclass(value)
                and isinstance(value, type)
                and value.__module__ == module.__name__
            ):
                found[f"{module.__name__}.{name}"] = value
    for kind in SERVICE_SETTINGS.values():
        found[f"{kind.__module__}.{kind.__name__}"] = kind
    return [found[name] for name in sorted(found)]


def test_every_setting_has_a_range_or_an_allowed_set() -> None:
    types = settings_types()
    assert GunicornSettings in types and ApacheSettings in types and len(types) > 20
    unbounded = []
    for settings_type in types:
        hints = typing.get_type_hints(settings_type, include_extras=True)
        for field in dataclasses.fields(settings_type):
            kind, bounds = setting_range(hints[field.name])
            if kind in (int, float) and bounds is None:
                unbounded.append(f"{settings_type.__name__}.{field.name}: no Range")
            if kind is str:
                unbounded.append(f"{settings_type.__name__}.{field.name}: any string")
            if (
                kind not in (int, float, bool, str)
                and typing.get_origin(kind) is not typing.Literal
            ):
                unbounded.append(f"{settings_type.__name__}.{field.name}: {kind}")
    assert unbounded == []


@pytest.mark.parametrize(
    ("settings_type", "section", "key", "value", "message"),
    [
        (GunicornSettings, "gunicorn", "keep_alive_s", "-5", "is 0 to 3,600, not -5"),
        (GunicornSettings, "gunicorn", "backlog", "-1", "is 1 to 65,535, not -1"),
        (GunicornSettings, "gunicorn", "worker_class", "os.system", "is one of sync, gthread"),
        (GunicornSettings, "gunicorn", "workers", "100000", "is 1 to 1,024, not 100,000"),
        (GunicornSettings, "gunicorn", "workers", "1" * 5000, "is a whole number"),
        (ApacheSettings, "apache", "keep_alive_timeout", "-1", "is 0 to 3,600, not -1"),
        (ApacheSettings, "apache", "threads_per_child", "100000", "is 1 to 1,024"),
        (ApacheSettings, "apache", "max_connections_per_child", "-1", "is 0 to"),
        (UwsgiSettings, "uwsgi", "listen", "-1", "is 1 to 65,535, not -1"),
    ],
)
def test_a_setting_out_of_its_range_is_refused_when_read(
    settings_type: type[Any], section: str, key: str, value: str, message: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        read_section(settings_type, {section: {key: value}}, section)
    assert f"{section}.{key} " in str(refused.value) and message in str(refused.value)


def test_a_service_setting_out_of_its_range_is_refused_when_read() -> None:
    with pytest.raises(ConfigError, match=r"upstream\.ms is 0 to 10,000 milliseconds, not -1"):
        service_arguments({"upstream": {"ms": "-1"}}, "upstream")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ladder", "-d", "nan"], "argument -d/--duration: 'nan' is not a number of seconds"),
        (["ladder", "-d", "inf"], "argument -d/--duration: 'inf' is not a number of seconds"),
        (["ladder", "--warmup", "nan"], "argument --warmup: 'nan' is not a number of seconds"),
        (["ladder", "-c", "99999999999"], "'99999999999' is not a whole number from 1 to 20,000"),
        (["ladder", "--port", "70000"], "argument --port: '70000' is not a whole number"),
        (["matrix", "--servers", "gunicorn", "-d", "nan"], "'nan' is not a number of seconds"),
        (["mix", "--hit", "nan"], "argument --hit: 'nan' is not a number from 0 to 1"),
        (["smoke", "a:b", "--baseline", "b.json", "--tolerance", "inf"], "--tolerance: 'inf'"),
        (["cost", "--requests", "1e9"], "argument --requests: '1e9' is not a whole number"),
        (["results", "show", "-1"], "argument run: '-1' is not a whole number"),
        (["app", "serve", "--workers", "100000"], "'100000' is not a whole number from 1 to"),
        (["writes", "--writers", "1,5000"], "--writers: at most 1,024, not 5,000"),
        (["ladder", "--set", "gunicorn.worker_class=os.system"], "worker_class is one of"),
        (["ladder", "--set", "gunicorn.workers=100000"], "gunicorn.workers is 1 to 1,024"),
        (["ladder", "--set", "gunicorn.backlog=-1"], "gunicorn.backlog is 1 to 65,535, not -1"),
        (["matrix", "--servers", "gunicorn", "--set", "gunicorn.keep_alive_s=-5"], "0 to 3,600"),
    ],
)
def test_a_wrong_number_is_refused_before_anything_starts(
    tmp_path: Path,
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = [*args, "--json", "out.json"] if args[0] in ("ladder", "matrix") else args
    try:
        status = run(argv)
    except SystemExit as exited:  # argparse's usage error
        status = exited.code  # type: ignore[assignment]
    assert status == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith("layerbench: error: ") and message in error, error
    assert list(tmp_path.iterdir()) == []  # no results file
    with ResultsDatabase(default_path()) as database:
        assert database.runs() == []  # and no run stored
