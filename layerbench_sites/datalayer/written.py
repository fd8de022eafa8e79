"""What a write transaction changed, as the repository tells its observers once it has committed
(Rails' ``after_commit``, with ``belongs_to touch: true``): every entity it inserted, updated or
deleted, and every entity a row it wrote refers to (a comment's video, a link's video and tag:
what is shown with them changed too), each by its names (short id, pretty id).

The repository's write primitives declare each row as they write it; the names an update leaves
are read inside the transaction just before it commits, and a deleted row's before it goes, so
that an observer needs no database of its own.
"""

from collections.abc import Callable
from dataclasses import dataclass

from layerbench_sites.datalayer.changes import Row
from layerbench_sites.datalayer.entities import TABLES_BY_NAME, Table
from layerbench_sites.ids.codec import encode


@dataclass(frozen=True)
class Written:
    """An entity a committed transaction changed (or one a row it wrote refers to)."""

    table: str
    id: str
    prettyid: str | None


# Told, after a write transaction commits, what it changed (never told of a rolled-back one).
WriteObserver = Callable[[frozenset[Written]], None]
# Reads an entity's row inside the transaction; None when there is none.
RowReader = Callable[[Table, int], Row | None]


class WriteLog:
    """The entities the open transaction has written so far, and their names."""

    def __init__(self) -> None:
        self._prettyids: dict[tuple[str, int], str | None] = {}
        self._unread: set[tuple[str, int]] = set()

    def wrote(self, table: Table, numid: int | None, row: Row | None) -> None:
        """The transaction wrote ``table``'s row ``numid`` (None: a link row, which has no id):
        ``row`` is the row as the write leaves it, or as it was before a delete; None when the
        write does not know it whole (an update), to be read before the commit."""
        if numid is not None:
            key = (table.name, numid)
            if row is None:
                self._prettyids.setdefault(key, None)
                self._unread.add(key)
                return
            self._prettyids[key] = row.get("prettyid")
            self._unread.discard(key)
        for column in table.columns:
            referred = None if row is None else row.get(column.name)
            if column.references is not None and referred is not None:
                self._touched(TABLES_BY_NAME[column.references], referred)

    def _touched(self, table: Table, numid: int) -> None:
        """A row the transaction wrote refers to this entity: its names are read unless known."""
        key = (table.name, numid)
        if key not in self._prettyids:
            self._prettyids[key] = None
            self._unread.add(key)

    def read_names(self, read: RowReader) -> None:
        """Reads, inside the transaction, the rows whose names the writes did not give (and so
        the entities they refer to). A row that is gone keeps the names last known."""
        while self._unread:
            table_name, numid = self._unread.pop()
            table = TABLES_BY_NAME[table_name]
            row = read(table, numid)
            if row is not None:
                self.wrote(table, numid, row)

    def written(self) -> frozenset[Written]:
        return frozenset(
            Written(table, encode(numid), prettyid)
            for (table, numid), prettyid in self._prettyids.items()
        )
