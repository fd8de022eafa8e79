"""A matrix's served cost as text (``--measure``), the tables its run prints and
``layerbench report`` reprints: the served cost per column, its first requests after a start
and its settled counts, those it has."""

from layerbench.matrix.matrix_result import MatrixResult
from layerbench.replicate.counted_table import format_first_requests, format_settled
from layerbench.served.served_table import format_served_table, served_from_document


def matrix_served_tables(result: MatrixResult) -> list[str]:
    """Each table of the run's served counts; none without ``--measure``."""
    served = result.served
    if not served:
        return []
    tables = [
        format_served_table(*served_from_document(served)),
        format_first_requests(served),
        format_settled(served),
    ]
    return [table for table in tables if table]
