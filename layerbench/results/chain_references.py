"""The row a rung's "vs above" is against, in a table of rungs (the ladder's, a cost pass's):
the first of its chain (``Rung.chain``: the rungs it adds a layer to, nearest first) measured
above it, of the same application; a row without a chain (a document from before chains, a
smoke URL) is against the nearest measured row above it. One rule for every table that says
"vs above", so that a ladder's req/s and its instructions compare the same rungs."""

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ChainRow:
    name: str
    # The rungs it adds a layer to, nearest first; () when not known.
    chain: tuple[str, ...]
    # Whether it has a figure to be compared with (a row without one is no reference).
    measured: bool
    # The application it belongs to: a row is compared within its own only.
    app: str = ""


def chain_references(rows: Sequence[ChainRow]) -> list[int | None]:
    """Per row, the index of the row it is against; None when there is none."""
    references: list[int | None] = []
    measured: dict[tuple[str, str], int] = {}
    nearest: dict[str, int] = {}
    for index, row in enumerate(rows):
        if row.chain:
            found = (measured.get((row.app, name)) for name in row.chain)
            references.append(next((above for above in found if above is not None), None))
        else:
            references.append(nearest.get(row.app))
        if row.measured:
            measured[(row.app, row.name)] = nearest[row.app] = index
    return references


def follows_the_rows(rows: Sequence[ChainRow]) -> bool:
    """Whether every row's reference is the measured row above it (one chain: a table need not
    name them)."""
    nearest: dict[str, int] = {}
    for index, (row, above) in enumerate(zip(rows, chain_references(rows), strict=True)):
        if above is not None and above != nearest.get(row.app):
            return False
        if row.measured:
            nearest[row.app] = index
    return True
