"""A stored run's rungs and cells read through their typed records (results/run_records.py):
every field the trials are rebuilt from is checked when read, and a wrong one is a line naming
the rung and the field, where it was a TypeError or an AttributeError of no field."""

import copy
from typing import Any

import pytest

from layerbench.errors import ConfigError
from layerbench.ladder.mix_result import mix_dict, read_mix
from layerbench.report.stored_result import read_result
from tests.report_documents import full_ladder, seed_000_matrix


def stored() -> dict[str, Any]:
    return copy.deepcopy(full_ladder().to_dict())


def edited(path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    document = stored()
    place: Any = document
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    return document


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("rungs", 0, "roles"), "edited", 'static: roles is an object, not "edited"'),
        (
            ("rungs", 0, "roles", "server", "processes", 0, "pid"),
            "x",
            'static: roles.server.processes[0].pid is a whole number, not "x"',
        ),
        (
            ("rungs", 1, "repeats", 2, "roles", "client", "processes", 0, "pss_bytes"),
            -1,
            "string: repeats[2].roles.client.processes[0].pss_bytes is at least 0, not -1",
        ),
        (
            ("rungs", 1, "repeats", 0, "latency_us"),
            [1],
            "string: repeats[0].latency_us is an object",
        ),
        (("rungs", 1, "load", "client_cpu_s"), 0.5, "string: load.client_cpu_s is an object"),
        (
            ("rungs", 1, "load", "requests_completed"),
            2.5,
            "string: load.requests_completed is a whole",
        ),
    ],
)
def test_a_wrong_field_of_a_rung_is_named(
    path: tuple[str | int, ...], value: object, message: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        read_result(edited(path, value))
    assert str(refused.value).startswith(f"a layerbench document with a wrong field: {message}"), (
        refused.value
    )
    assert "\n" not in str(refused.value)


def test_a_stored_ladder_reads_back_into_the_same_figures() -> None:
    written = full_ladder()
    read = read_result(stored())
    assert [rung.requests_per_s for rung in read.rungs] == [
        rung.requests_per_s for rung in written.rungs
    ]
    assert read.to_dict()["rungs"] == written.to_dict()["rungs"]


def test_a_mix_reads_back_and_a_wrong_one_names_its_field() -> None:
    outcome = {
        "hit_ratio": 0.9, "hit_rung": "cache", "miss_rung": "db", "hit_requests_per_s": 900.0,
        "miss_requests_per_s": 100.0, "predicted_requests_per_s": 500.0,
        "predicted_ci95": [450.0, 550.0], "measured_requests_per_s": 480.0,
        "measured_ci95": [470.0, 490.0], "measured_cv": 0.01, "error": 0.04,
        "error_ci95": [0.01, 0.07], "significant": True, "measured_hit_share": None,
    }  # fmt: skip
    assert mix_dict(read_mix(outcome)) | {"significant": True} == outcome | {"significant": True}
    with pytest.raises(ValueError, match=r"^mix: predicted_ci95 holds 2 to 2 items, not 3$"):
        read_mix(outcome | {"predicted_ci95": [1.0, 2.0, 3.0]})


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["cells"][0].update(row="first"),
            'the matrix: cells[0].row is a whole number, not "first"',
        ),
        (
            lambda d: d["cells"][1].update(status="fine"),
            'the matrix: cells[1].status is one of "ok", ',
        ),
        (
            lambda d: d["columns"][0].update(settings=[1]),
            "the matrix: columns[0].settings is an object",
        ),
        (lambda d: d.update(cells={}), "the matrix: cells is a list, not an object"),
    ],
)
def test_a_wrong_field_of_a_matrix_is_named(edit: Any, message: str) -> None:
    document = copy.deepcopy(seed_000_matrix().to_dict())
    edit(document)
    with pytest.raises(ConfigError) as refused:
        read_result(document)
    assert f"a layerbench document with a wrong field: {message}" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_wrong_field_of_the_instructions_is_named() -> None:
    document = stored()
    document["instructions"] = {
        "requests": [{"label": "string", "instructions_per_request": ["many"]}]
    }
    with pytest.raises(ConfigError) as refused:
        read_result(document)
    assert str(refused.value) == (
        "a layerbench document with a wrong field: "
        'instructions: requests[0].instructions_per_request[0] is a number, not "many"'
    )


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("rungs", 2, "status"), "fine", 'the ladder: rungs[2].status is one of "ok", '),
        (("rungs", 2, "chain"), "static", 'the ladder: rungs[2].chain is a list, not "static"'),
        (("rungs", 2, "rung"), None, "the ladder: rungs[2].rung is a string, not null"),
        (("interrupted",), "no", 'the ladder: interrupted is true or false, not "no"'),
    ],
)
def test_a_wrong_field_of_a_ladder_is_named(
    path: tuple[str | int, ...], value: object, message: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        read_result(edited(path, value))
    assert f"a layerbench document with a wrong field: {message}" in str(refused.value)


@pytest.mark.parametrize(
    ("document", "path", "value", "message"),
    [
        ("ladder", ("options", "concurrency"), "ten", "the ladder: options.concurrency is a whole"),
        ("ladder", ("options", "full"), 1, "the ladder: options.full is true or false, not 1"),
        (
            "ladder",
            ("conditions", "machine", "cpus_online"),
            "two",
            "the ladder: conditions.machine.cpus_online is a whole",
        ),
        ("matrix", ("options", "concurrency"), [100, "x"], "the matrix: options.concurrency[1]"),
        ("matrix", ("conditions", "pinning"), 3, "the matrix: conditions.pinning is a string"),
    ],
)
def test_a_wrong_option_or_condition_is_named_when_read(
    document: str, path: tuple[str, ...], value: object, message: str
) -> None:
    """The options and conditions are kept as the run wrote them, and checked when read,
    as every report then reads them (result.asked, result.measured_under)."""
    written = copy.deepcopy(
        (full_ladder() if document == "ladder" else seed_000_matrix()).to_dict()
    )
    place: Any = written
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    with pytest.raises(ConfigError) as refused:
        read_result(written)
    assert str(refused.value).startswith(f"a layerbench document with a wrong field: {message}")


def test_options_and_conditions_read_as_the_run_wrote_them() -> None:
    ladder = read_result(stored())
    assert ladder.asked.concurrency == full_ladder().options["concurrency"]
    assert ladder.measured_under.machine is not None
    assert ladder.measured_under.machine.cpu_model == "Test CPU"
    assert ladder.measured_under.server_versions == {"gunicorn": "23.0.0"}
    # A key no record names stays in the document as written.
    document = stored()
    document["conditions"]["written_by_a_later_layerbench"] = {"any": ["thing"]}
    assert read_result(document).to_dict()["conditions"] == document["conditions"]
