"""Plain text tables for the terminal: columns padded to their widest cell."""


def format_table(rows: list[list[str]], right_from: int) -> list[str]:
    """Columns from ``right_from`` on are right-aligned (figures), the others left-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(width) if i >= right_from else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
