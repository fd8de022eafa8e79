"""The load generator's JSON read into its typed schema (results/load_result.py's
LoadDocument), every version: a figure of the wrong type is a one-line LoadGeneratorError
naming the field, where it was a TypeError (a string's "user") or, for a wrong count, no error
at all."""

from typing import Any

import pytest

from layerbench.errors import LoadGeneratorError
from layerbench.results.load_result import LoadResult

DOCUMENT: dict[str, Any] = {
    "version": 1,
    "requests_completed": 90,
    "requests_failed": 3,
    "non_2xx_responses": 7,
    "elapsed_s": 1.0,
    "requests_per_s": 90.0,
    "latency_us": {"p50": 1000},
    "client_cpu_s": {"user": 0.5, "system": 0.25},
}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"client_cpu_s": {"user": "0.5", "system": 0.25}},
            'client_cpu_s.user is a number, not "0.5"',
        ),
        ({"requests_completed": -1}, "requests_completed is at least 0, not -1"),
        ({"requests_completed": 9.5}, "requests_completed is a whole number, not 9.5"),
        ({"latency_us": {"p50": "fast"}}, 'latency_us.p50 is a number, not "fast"'),
        ({"by_url": [{"path": "/"}]}, "by_url[0].requests_completed is missing"),
        ({"status_counts": {"200": True}}, "status_counts.200 is a whole number, not true"),
    ],
)
def test_a_wrong_figure_is_one_line_naming_it(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(LoadGeneratorError) as refused:
        LoadResult.from_document(DOCUMENT | changes)
    assert str(refused.value) == f"layerbench-load's JSON: {message}"


def test_a_missing_figure_is_named() -> None:
    without = {key: value for key, value in DOCUMENT.items() if key != "elapsed_s"}
    with pytest.raises(LoadGeneratorError, match=r"^layerbench-load's JSON: elapsed_s is missing$"):
        LoadResult.from_document(without)


def test_null_for_a_later_field_is_nothing_seen_and_the_document_is_kept() -> None:
    read = LoadResult.from_document(DOCUMENT | {"errors_by_kind": None, "by_url": None})
    assert read.errors_by_kind == {} and read.requests_completed_by_url == ()
    assert read.requests_per_s == 83.0  # its 2xx responses only
    assert read.document == DOCUMENT | {"errors_by_kind": None, "by_url": None}
