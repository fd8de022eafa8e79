"""Live progress of a matrix run on stderr: a line per pass (with repeats) and per column,
then one per trial of a cell: its req/s, and from the second pass on the cell's median so far."""

import textwrap
from typing import TextIO

from layerbench.lab.cpu_layout import CpuLayout
from layerbench.matrix.matrix_options import MatrixOptions
from layerbench.matrix.matrix_result import Cell, ColumnInfo
from layerbench.render.text_table import TERMINAL_WIDTH
from layerbench.results.status import Status
from layerbench.words import counted


class MatrixProgress:
    def __init__(self, options: MatrixOptions, stream: TextIO) -> None:
        self.options = options
        self.stream = stream
        self._cell_open = False

    def begin(self, layout: CpuLayout) -> None:
        options = self.options
        keep_alive = "keep-alive" if options.keep_alive else "no keep-alive"
        levels = ",".join(str(c) for c in options.concurrency)
        self._say_wrapped(
            f"layerbench matrix: {counted(len(options.columns), 'server')} x c={levels}, rung "
            f"{options.rung}, {keep_alive}, {counted(options.repeats, 'pass', 'passes')} of "
            f"{options.warmup_s:g} s warm-up + {options.duration_s:g} s measured per cell; "
            f"{layout.describe()}"
        )

    def pass_starting(self, number: int, passes: int) -> None:
        if passes > 1:
            self._say(f"pass {number} of {passes}")

    def column_starting(self, column: ColumnInfo) -> None:
        self._say(f"{column.label} ({column.rung} rung)")

    def cell_starting(self, column: ColumnInfo, concurrency: int) -> None:
        self.stream.write(f"  c={concurrency:<6} … ")
        self.stream.flush()
        self._cell_open = True

    def cell_finished(self, cell: Cell) -> None:
        if not self._cell_open:
            self.stream.write(f"  c={cell.concurrency:<6} ")
        self._cell_open = False
        if cell.status is Status.OK and cell.trials:
            # This pass's trial, not the cell's median so far, which repeats a pass's figure.
            load = cell.trials[-1].load
            errors = f", {counted(load.errors, 'error')}" if load.errors else ""
            median = (
                f" (median of {len(cell.trials)}: {cell.requests_per_s:,.0f})"
                if len(cell.trials) > 1 and cell.requests_per_s is not None
                else ""
            )
            self._say(f"{load.requests_per_s:,.0f} req/s{errors}{median}")
        else:
            # Its first line: the whole message (a server's log, say) is in the notes under
            # the table, once.
            first_line = cell.message.splitlines()[0] if cell.message else ""
            self._say(f"{cell.status.value}: {first_line}")

    def served_starting(self, label: str) -> None:
        self._say(
            f"{label}: served cost, system calls on native starts (strace), then instructions "
            "under callgrind"
        )

    def _say_wrapped(self, text: str) -> None:
        """``text`` in lines of at most the terminal's 120 columns, the next ones indented."""
        for line in textwrap.wrap(
            text, TERMINAL_WIDTH, subsequent_indent="  ", break_on_hyphens=False
        ):
            self._say(line)

    def _say(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()
