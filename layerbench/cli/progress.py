"""Live progress of a ladder run on stderr, one line per rung."""

from typing import TextIO

from layerbench.lab.cpu_layout import CpuLayout
from layerbench.lab.options import LadderOptions
from layerbench.lab.results import RungResult, RungStatus
from layerbench.lab.rungs import Rung, Stack


class LadderProgress:
    def __init__(self, options: LadderOptions, layout: CpuLayout, stream: TextIO) -> None:
        self.options = options
        self.layout = layout
        self.stream = stream
        self._rung_open = False

    def begin(self) -> None:
        options = self.options
        keep_alive = "keep-alive" if options.keep_alive else "no keep-alive"
        self._say(
            f"layerbench ladder{' --full' if options.full else ''}: {len(options.ladder)} rungs, "
            f"{options.server}, c={options.concurrency}, {keep_alive}, "
            f"{options.repeats} passes of {options.warmup_s:g} s warm-up + "
            f"{options.duration_s:g} s measured per rung; {self.layout.describe()}"
        )

    def pass_starting(self, number: int, passes: int) -> None:
        if passes > 1:
            self._say(f"pass {number} of {passes}")

    def stack_starting(self, stack: Stack) -> None:
        server = "nginx" if stack is Stack.STATIC else self.options.server
        self._say(f"starting {server}")

    def rung_starting(self, rung: Rung) -> None:
        self.stream.write(f"  {rung.name:<12} {rung.layer} … ")
        self.stream.flush()
        self._rung_open = True

    def rung_finished(self, result: RungResult) -> None:
        if not self._rung_open:
            self.stream.write(f"  {result.rung:<12} ")
        self._rung_open = False
        if result.status is RungStatus.OK and result.trials:
            self._say(f"{result.trials[-1].load.requests_per_s:,.0f} req/s")
        else:
            self._say(f"{result.status.value}: {result.message}")

    def _say(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()
