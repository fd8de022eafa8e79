"""Live progress of a ladder run on stderr: one line per trial, with how many are done and
about how long the rest will take (the time per trial so far, or the planned one before the
first has ended)."""

import textwrap
import time
from typing import TextIO

from layerbench.lab.cpu_layout import CpuLayout
from layerbench.ladder.ladder_result import RungResult
from layerbench.ladder.options import LadderOptions
from layerbench.render.text_table import TERMINAL_WIDTH
from layerbench.results.status import Status
from layerbench.rungs.applications import APPLICATIONS
from layerbench.rungs.definitions import Rung
from layerbench.words import counted


def layer_in(app: str, rung: Rung) -> str:
    """What ``rung`` measures in the application named ``app``: its framework's layer."""
    application = APPLICATIONS.get(app)
    return rung.layer if application is None else application.layer_of(rung.name, rung.layer)


class LadderProgress:
    def __init__(self, options: LadderOptions, stream: TextIO) -> None:
        self.options = options
        self.stream = stream
        self._rung_open = False
        self._total = len(options.ladder) * len(options.apps) * options.repeats
        self._done = 0
        self._began = time.monotonic()
        # A trial's warm-up and measurement, and about half a second around them.
        self._planned_s = options.warmup_s + options.duration_s + 0.5

    def begin(self, layout: CpuLayout) -> None:
        options = self.options
        keep_alive = "keep-alive" if options.keep_alive else "no keep-alive"
        self._say_wrapped(
            f"layerbench ladder{' --full' if options.full else ''}: "
            f"{counted(len(options.ladder), 'rung')}, "
            f"{counted(len(options.apps), 'application')} ({', '.join(options.apps)}), "
            f"{options.server}, c={options.concurrency}, {keep_alive}, "
            f"{counted(options.repeats, 'pass', 'passes')} of {options.warmup_s:g} s warm-up + "
            f"{options.duration_s:g} s measured per rung; {layout.describe()}"
        )

    def pass_starting(self, number: int, passes: int) -> None:
        if number > self.options.repeats:  # --until-decided: a pass more than planned
            self._total += len(self.options.ladder) * len(self.options.apps)
        if passes > 1:
            self._say(f"pass {number} of {passes}")

    def stack_starting(self, server: str) -> None:
        self._say(f"starting {server}")

    def rung_starting(self, rung: Rung, app: str) -> None:
        self.stream.write(f"  [{self._done + 1}/{self._total} {self._left()}] ")
        if len(self.options.apps) > 1:
            self.stream.write(f"{app:<8} ")
        self.stream.write(f"{rung.name:<12} {layer_in(app, rung)} … ")
        self.stream.flush()
        self._rung_open = True

    def rung_finished(self, result: RungResult) -> None:
        if not self._rung_open:
            if len(self.options.apps) > 1:
                self.stream.write(f"  {result.app:<8}")
            self.stream.write(f"  {result.rung:<12} ")
        self._rung_open = False
        if result.status is Status.OK:
            self._done += 1
        else:
            # The rung runs no more: its trials still to come will not be.
            self._total -= self.options.repeats - len(result.trials)
        if result.status is Status.OK and result.trials:
            self._say(f"{result.trials[-1].load.requests_per_s:,.0f} req/s")
        elif result.status is Status.NOT_APPLICABLE:
            self._say(result.message or result.status.value)  # "not applicable to django"
        else:
            self._say(f"{result.status.value}: {result.message}")

    def _left(self) -> str:
        """About how long the trials not yet done will take."""
        per_trial = (time.monotonic() - self._began) / self._done if self._done else None
        seconds = (self._total - self._done) * (per_trial or self._planned_s)
        return f"~{int(seconds) // 60}:{int(seconds) % 60:02d} left"

    def _say_wrapped(self, text: str) -> None:
        """``text`` in lines of at most the terminal's 120 columns, the next ones indented."""
        for line in textwrap.wrap(
            text, TERMINAL_WIDTH, subsequent_indent="  ", break_on_hyphens=False
        ):
            self._say(line)

    def _say(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()
