"""A `with` block over what is started and stopped (processes, servers, services): started on
the way in, the block given the object itself, stopped on the way out, also when it raises."""

import pytest

from layerbench.proc.start_stop import StartStop


class Recorded(StartStop):
    def __init__(self) -> None:
        self.calls: list[str] = []

    def start(self) -> "Recorded":
        self.calls.append("start")
        return self

    def stop(self) -> None:
        self.calls.append("stop")


def test_the_block_runs_between_start_and_stop() -> None:
    thing = Recorded()
    with thing as entered:
        assert entered is thing
        thing.calls.append("block")
    assert thing.calls == ["start", "block", "stop"]


def test_a_block_that_raises_still_stops_it_and_the_error_goes_on() -> None:
    thing = Recorded()
    with pytest.raises(KeyError), thing:
        raise KeyError("in the block")
    assert thing.calls == ["start", "stop"]
