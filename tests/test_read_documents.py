"""Every document layerbench reads is read the one way (layerbench/documents.py): a regular
file of a bounded size, JSON without NaN, Infinity, unbounded integers or nesting deep enough to
exhaust the stack, its fields checked by their schema when read. Each way it is wrong is one
line (a ConfigError, exit 2) before anything starts: the smoke gate's baseline first, which a
``[NaN, NaN]`` switched off."""

import json
import os
from pathlib import Path
from typing import Any

import pytest

from layerbench.cost.instructions_baseline import read_instructions_baseline
from layerbench.documents import parse_json, parse_toml, read_json, read_text
from layerbench.errors import ConfigError
from layerbench.smoke.smoke_baseline import read_baseline
from layerbench.typed_documents import encode
from tests.cli_lines import said
from tests.smoke_runs import smoke_here

GOOD = {
    "version": 2,
    "app": "perfapp:fast",
    "conditions": {
        "server": "gunicorn",
        "settings": {"gunicorn": {"workers": 2, "worker_class": "sync"}},
        "concurrency": 10,
        "urls": ["/"],
        "machine": {"cpu_model": "x", "cpus_online": 2, "cpus_usable": 2},
    },
    "urls": {"/": {"requests_per_s": [900.0, 1100.0]}},
}
DEEP = "[" * 100_000 + "]" * 100_000


def _with(**changes: Any) -> str:
    document = json.loads(json.dumps(GOOD))
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        target = document
        for parent in parents:
            target = target[parent]
        target[last] = value
    return json.dumps(document)


def test_a_good_baseline_is_read(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(GOOD))
    assert read_baseline(path).rates == {"/": [900.0, 1100.0]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version": 2, "urls": {"/": {"requests_per_s": [NaN, NaN]}}}', "NaN"),
        ('{"version": 2, "urls": {"/": {"requests_per_s": [Infinity, 1]}}}', "Infinity"),
        ('{"version": 2, "urls": {"/": {"requests_per_s": [1e999, 1]}}}', "finite"),
        ('{"version": 2, "urls": {"/": {"requests_per_s": [' + "9" * 401 + "]}}}", "digits"),
        (_with(urls={"/": {"requests_per_s": [0, 0]}}), "more than 0"),
        (_with(urls={"/": {"requests_per_s": [-5, 10]}}), "more than 0"),
        (_with(urls={"/": {"requests_per_s": [True, False]}}), "a number, not true"),
        (_with(urls={"/": {"requests_per_s": []}}), "1 to 100 items, not 0"),
        (_with(urls={"/": {"requests_per_s": [1.0] * 2_000_000}}), "not 2,000,000"),
        (_with(urls={"/": {"requests_per_s": "fast"}}), "a list"),
        (_with(urls={}), "b.json: urls holds 1 to 1,000 items, not 0"),
        (_with(urls=[1]), "urls is an object"),
        (_with(conditions__machine=[1, 2]), "conditions.machine is an object"),
        (_with(conditions__machine={"cpus_online": [1]}), "conditions.machine.cpus_online"),
        (_with(conditions__urls=[1, 2]), "conditions.urls[0] is a string"),
        (_with(conditions__concurrency=0), "conditions.concurrency is at least 1"),
        (_with(conditions__settings={"gunicorn": [1]}), "conditions.settings.gunicorn"),
        (_with(conditions__colour="red"), "conditions: unknown keys ['colour'] (server, settings"),
        (_with(conditions=[]), "conditions is an object"),
        (DEEP, "nested too deeply"),
    ],
)
def test_a_wrong_baseline_is_refused_when_read(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "b.json"
    path.write_text(text)
    with pytest.raises(ConfigError) as refused:
        read_baseline(path)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_a_first_version_baseline_has_its_fields_checked(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(
        json.dumps({"version": 1, "server": ["x"], "urls": {"/": {"requests_per_s": [1.0]}}})
    )
    with pytest.raises(ConfigError, match=r"b\.json: server is a string, not a list"):
        read_baseline(path)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"urls": {"/": {"instructions_per_request": [float("nan")]}}}, "NaN"),
        ({"urls": {"/": {"instructions_per_request": [0]}}}, "more than 0"),
        ({"conditions": {"python": [1, 2]}}, "conditions.python"),
        ({"conditions": {"packages": {"x": 1}}}, "conditions.packages.x is a string"),
    ],
)
def test_a_wrong_instructions_baseline_is_refused_when_read(
    tmp_path: Path, changes: dict[str, Any], message: str
) -> None:
    document = {
        "version": 1,
        "kind": "smoke-instructions",
        "conditions": {"python": "3.11", "packages": {}},
        "urls": {"/": {"instructions_per_request": [1000.0]}},
        **changes,
    }
    path = tmp_path / "b.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ConfigError, match=message):
        read_instructions_baseline(path)


def test_smoke_refuses_a_nan_baseline_before_it_measures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: ``[NaN, NaN]`` passed every run, ``nan ... ok``, exit 0."""
    (tmp_path / "perfapp.py").write_text("def fast(environ, start_response):\n    pass\n")
    (tmp_path / "b.json").write_text(
        '{"version": 2, "conditions": {}, "urls": {"/": {"requests_per_s": [NaN, NaN]}}}'
    )
    monkeypatch.chdir(tmp_path)
    # A server never started: the refusal is before it (none is installed under this name).
    completed = smoke_here("perfapp:fast", "--baseline", "b.json", "--server", "gunicorn")
    assert completed.returncode == 2, completed.stderr
    assert completed.stdout == ""
    assert said(completed.stderr).count("\n") == 1 and "NaN" in completed.stderr


def test_dev_zero_and_a_fifo_are_refused_without_reading(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a regular file"):
        read_text(Path("/dev/zero"), "/dev/zero")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="not a regular file"):
        read_text(fifo, str(fifo))  # no writer: opened without blocking, then refused


def test_a_directory_is_refused_and_its_descriptor_closed(tmp_path: Path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(ConfigError, match=f"cannot read {tmp_path}: it is not a regular file"):
        read_text(tmp_path, str(tmp_path))
    assert len(os.listdir("/proc/self/fd")) == before


def test_a_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048 + b"{}")
    with pytest.raises(ConfigError, match="larger than"):
        read_json(path, "big.json", limit=2048)
    assert read_json(path, "big.json", limit=4096) == {}


def test_json_and_toml_refuse_what_is_not_a_finite_number_or_too_deep() -> None:
    for text in ("NaN", "-Infinity", "[1e400]", "1" * 21):
        with pytest.raises(ConfigError):
            parse_json(text, "x")
    assert parse_json("-" + "9" * 20, "x") == -int("9" * 20)
    with pytest.raises(ConfigError, match="nested too deeply"):
        parse_json(DEEP, "x")
    for text in ("a = nan", "a = inf", "a = " + "[" * 100_000):
        with pytest.raises(ConfigError):
            parse_toml(text, "x")


def test_an_instructions_baseline_keeps_what_it_was_counted_under(tmp_path: Path) -> None:
    conditions = {"python": "3.11", "packages": {"x": "1"}, "served_by": "gunicorn"}
    document = {
        "version": 1,
        "kind": "smoke-instructions",
        "conditions": conditions,
        "urls": {"/": {"instructions_per_request": [1000.0]}},
    }
    path = tmp_path / "b.json"
    path.write_text(json.dumps(document))
    assert encode(read_instructions_baseline(path).conditions) == conditions
