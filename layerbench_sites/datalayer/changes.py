"""What the audit history says about a row: its changes, and the row as it was at a time."""

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from layerbench_sites.datalayer.entities import ColumnType, Table

Row = dict[str, Any]


@dataclass(frozen=True)
class Change:
    seq: int
    operation: str  # insert, update or delete
    changed_at: str  # UTC, ISO 8601 to the millisecond
    actor: str | None  # None: a write made behind the application's back
    old: Row | None
    new: Row | None


def history_timestamp(moment: datetime) -> str:
    """``moment`` in the history's own format (UTC, milliseconds), for comparisons."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def decode_values(
    table: Table, values: str | Row | None, from_stored: Callable[[int], int]
) -> Row | None:
    """A history row's values (JSON text, or already decoded by the driver), with numids
    back to their unsigned 64-bit form."""
    if values is None:
        return None
    row: Row = json.loads(values) if isinstance(values, str) else dict(values)
    numid_columns = {"numid"} if table.is_entity else set()
    numid_columns |= {c.name for c in table.columns if c.type is ColumnType.NUMID}
    for name in numid_columns:
        if row.get(name) is not None:
            row[name] = from_stored(row[name])
    return row


def state_at(changes: list[Change], moment: datetime) -> Row | None:
    """The row as the last change at or before ``moment`` left it; None if it did not exist."""
    cutoff = history_timestamp(moment)
    state: Row | None = None
    for change in changes:
        if change.changed_at > cutoff:
            break
        state = change.new
    return state
