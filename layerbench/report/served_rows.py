"""A run's served cost (``--measure instructions``) as one flat table, for the exporters that
draw their own tables (Markdown, HTML): the terminal's rows, each with its column's label in
front of its first row; a column counted not at all has its reason as its one row."""

from collections.abc import Mapping
from dataclasses import dataclass

from layerbench.served.served_table import served_blocks, served_caption, served_from_document

TITLE = "Served cost per request"


@dataclass(frozen=True)
class ServedRows:
    # How it was counted, after the title.
    caption: str
    header: list[str]
    rows: list[list[str]]
    # The columns holding figures (right-aligned).
    numeric: range


def served_rows(document: Mapping[str, object]) -> ServedRows | None:
    """The run's ``served`` document's table; None without one."""
    if not document or not document.get("costs"):
        return None
    costs, anchors = served_from_document(document)
    header, blocks = served_blocks(costs, anchors)
    width = len(header) + 1
    rows = []
    for label, block in blocks:
        for index, row in enumerate(block):
            cells = row if len(row) > 1 else ["-", *[""] * (width - 3), row[0]]
            rows.append([label if index == 0 else "", *cells])
    caption = served_caption(costs).removeprefix(f"{TITLE}: ")
    return ServedRows(caption, ["column", *header], rows, range(2, width - 1))
