"""``as_of`` times: RFC 3339 date-times, as the OpenAPI document promises (``format:
date-time``), and any other ISO 8601 time Python reads."""

import re
from datetime import UTC, datetime, timedelta, timezone

# ASCII digits only: without re.ASCII, \d also takes '٣' and the other scripts' digits.
RFC3339 = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)",
    re.ASCII,
)
EARLIEST = datetime.min.replace(tzinfo=UTC)
LATEST = datetime.max.replace(tzinfo=UTC)


def parse_moment(text: str) -> datetime | None:
    """The time ``text`` names, or ``None`` if it names none."""
    match = RFC3339.fullmatch(text)
    try:
        return datetime.fromisoformat(text) if match is None else _rfc3339(match)
    except ValueError:
        return None


def _rfc3339(match: re.Match[str]) -> datetime:
    """A leap second is taken as the second before it; year 0, and times that fall outside
    Python's years once in UTC, as the earliest or latest time there is."""
    year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
    if year == 0:
        return EARLIEST
    microsecond = int((match.group(7) or "0")[:6].ljust(6, "0"))
    zone = _zone(match.group(8).upper())
    moment = datetime(year, month, day, hour, minute, min(second, 59), microsecond, zone)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        return EARLIEST if year == 1 else LATEST


def _zone(offset: str) -> timezone:
    if offset == "Z":
        return UTC
    minutes = int(offset[1:3]) * 60 + int(offset[4:6])
    if minutes >= 24 * 60:
        raise ValueError(f"offset {offset} is a day or more")
    return timezone((-1 if offset[0] == "-" else 1) * timedelta(minutes=minutes))
