"""``as_of`` accepts every RFC 3339 date-time (the OpenAPI document says ``date-time``)."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from layerbench_sites.app.api.moments import EARLIEST, LATEST, parse_moment


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-23T10:00:00Z", datetime(2026, 11, 23, 10, tzinfo=UTC)),
        ("2026-11-23t10:00:00.1234567z", datetime(2026, 11, 23, 10, 0, 0, 123456, UTC)),
        ("2026-11-23 11:30:00+01:30", datetime(2026, 11, 23, 10, tzinfo=UTC)),
        ("2016-12-31T23:59:60Z", datetime(2016, 12, 31, 23, 59, 59, tzinfo=UTC)),
        ("0000-01-01T00:00:00Z", EARLIEST),
        ("0001-01-01T00:00:00+01:00", EARLIEST),
        ("9999-12-31T23:59:59-01:00", LATEST),
        ("2026-11-23", datetime(2026, 11, 23)),
        ("2026-11-23T10:00:00", datetime(2026, 11, 23, 10)),
    ],
)
def test_times_that_are_read(text: str, expected: datetime) -> None:
    assert parse_moment(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "yesterday",
        "2026-13-01T00:00:00Z",
        "2026-11-23T10:00:00+24:00",
        "2026-02-30",
        "٢٠٢٦-11-23T10:00:00Z",  # Arabic-Indic digits: \d, and int(), take them
    ],
)
def test_times_that_are_not(text: str) -> None:
    assert parse_moment(text) is None


def test_offsets_keep_their_sign() -> None:
    moment = parse_moment("2026-11-23T10:00:00-05:00")
    assert moment == datetime(2026, 11, 23, 10, tzinfo=timezone(-timedelta(hours=5)))
