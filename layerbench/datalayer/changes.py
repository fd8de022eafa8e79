"""What the audit history says about a row: its changes, and the row as it was at a time."""

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from layerbench.datalayer.entities import ColumnType, Table
from layerbench.datalayer.numids import from_signed

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


def decode_values(table: Table, text: str | None) -> Row | None:
    """A history row's JSON values, with numids back to their unsigned 64-bit form."""
    if text is None:
        return None
    row: Row = json.loads(text)
    numid_columns = {"numid"} if table.is_entity else set()
    numid_columns |= {c.name for c in table.columns if c.type is ColumnType.NUMID}
    for name in numid_columns:
        if row.get(name) is not None:
            row[name] = from_signed(row[name])
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
