"""A run's tables as the terminal shows them when it ends: the ladder's (with what each
application costs over bare, the memory per worker, the instructions per request and the served
cost) or the matrix's (with its memory per worker and its served cost), under a header that
says how it was measured; what ``layerbench report RUN -o -`` reprints of a stored run."""

import textwrap

from layerbench.ladder.app_costs import format_app_costs
from layerbench.ladder.ladder_instructions import ladder_instructions_lines
from layerbench.ladder.ladder_result import LadderResult, ladder_memory_items
from layerbench.ladder.ladder_table import format_ladder_table
from layerbench.matrix.matrix_result import MatrixResult, matrix_memory_items
from layerbench.matrix.matrix_served_tables import matrix_served_tables
from layerbench.matrix.matrix_table import format_matrix_table
from layerbench.render.text_table import TERMINAL_WIDTH
from layerbench.render.worker_memory import (
    format_memory_table,
)
from layerbench.report.run_facts import facts_sentence, load_facts
from layerbench.served.served_ladder import services_note
from layerbench.served.served_table import format_served_document


def terminal_tables(
    result: LadderResult | MatrixResult, *, wide: bool = False, colour: bool | None = None
) -> str:
    """Every table of the run, with a header line of its load (wrapped to the terminal)."""
    kind = "matrix" if isinstance(result, MatrixResult) else "ladder"
    header = textwrap.wrap(
        f"layerbench {kind}: {facts_sentence(load_facts(result))}",
        TERMINAL_WIDTH,
        subsequent_indent="  ",
        break_on_hyphens=False,
    )
    return "\n\n".join(["\n".join(header), *run_tables(result, wide=wide, colour=colour)])


def run_tables(
    result: LadderResult | MatrixResult, *, wide: bool = False, colour: bool | None = None
) -> list[str]:
    """The tables a finished run prints, those it has (an empty one left out)."""
    if isinstance(result, MatrixResult):
        parts = [
            format_matrix_table(result, wide=wide, colour=colour),
            format_memory_table(matrix_memory_items(result), colour=colour),
            *matrix_served_tables(result),
        ]
    else:
        parts = [
            format_ladder_table(result, wide=wide, colour=colour),
            format_app_costs(result, colour=colour),
            format_memory_table(ladder_memory_items(result), colour=colour),
            "\n".join(ladder_instructions_lines(result)),
            format_served_document(result.served),
            services_note(result.served),
        ]
    return [part for part in parts if part]
