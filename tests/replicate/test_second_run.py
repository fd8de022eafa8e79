"""The second run's windows (layerbench/replicate/second_run.py): counted until two are within
the agreement of the least; a window that held a child's start or import is left out, and
said."""

import pytest

from layerbench.errors import LayerbenchError
from layerbench.replicate.second_run import MAX_WINDOWS, WindowTotal, compared_calls, warm_windows


def windows_of(totals: list[float]) -> tuple[WindowTotal, int, int]:
    def count(number: int) -> WindowTotal:
        total = totals[number - 1]
        return WindowTotal(total, {"read": total / 100}, 3)

    return warm_windows(count, 0.02)


def test_two_windows_that_agree_are_enough() -> None:
    mean, counted, left_out = windows_of([100.0, 101.0, 500.0])
    assert (mean.total, counted, left_out) == (100.5, 2, 0)
    assert mean.calls == {"read": 1.005}


def test_a_window_with_an_import_between_quiet_ones_is_left_out() -> None:
    """Apache ended a child and started another, which imported Django, every other window."""
    mean, counted, left_out = windows_of([100.0, 290.0, 101.0])
    assert (mean.total, counted, left_out) == (100.5, 3, 1)
    first_heavy = windows_of([290.0, 100.0, 300.0, 101.0])
    assert first_heavy[0].total == 100.5 and first_heavy[1:] == (4, 2)


def test_no_two_quiet_windows_is_not_warm() -> None:
    with pytest.raises(LayerbenchError, match="not warm"):
        windows_of([100.0 * 2**n for n in range(MAX_WINDOWS)])


def test_system_call_windows_are_compared_without_futex() -> None:
    """futex moves with the threads' timing, the other calls with the requests: windows of the
    same warm child whose futex differ by 75 % agree."""
    windows = [
        {"read": 1022, "writev": 1000, "newfstatat": 6046, "futex": 1574},
        {"read": 1002, "writev": 1000, "newfstatat": 6000, "futex": 2593},
    ]
    assert compared_calls(windows[0]) == 8068
    mean, counted, left_out = warm_windows(
        lambda number: WindowTotal(compared_calls(windows[number - 1]), {}, 2), 0.05
    )
    assert (counted, left_out) == (2, 0)
    assert mean.total == (8068 + 8002) / 2
