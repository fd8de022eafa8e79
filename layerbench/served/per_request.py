"""The arithmetic of two windows: what a window of more requests counted beyond one of fewer,
divided by the requests it served beyond them. Whatever does not depend on the requests (the
window's opening and closing, a heartbeat in both) cancels; only what the extra requests cost is
left. And callgrind's estimate of cycles from its cache simulation."""

from collections.abc import Mapping
from typing import TypeVar

K = TypeVar("K")
# The estimate continuous-benchmarking tools use: an access served by L1 costs 1 cycle, by the
# last-level cache 5, by memory 35.
LL_HIT_CYCLES = 5
RAM_CYCLES = 35


def per_request(
    short: Mapping[K, float], short_requests: int, long: Mapping[K, float], long_requests: int
) -> dict[K, float]:
    """Per key, (long - short) / (long_requests - short_requests); a key missing from a window
    counted nothing there."""
    if long_requests <= short_requests:
        raise ValueError(f"the long window ({long_requests}) must serve more than {short_requests}")
    extra = long_requests - short_requests
    keys = list(dict.fromkeys([*short, *long]))
    return {key: (long.get(key, 0) - short.get(key, 0)) / extra for key in keys}


def estimated_cycles(events: Mapping[str, float]) -> float:
    """L1 hits + 5 x LL hits + 35 x RAM accesses, from callgrind's events with
    ``--cache-sim=yes`` (Ir, Dr, Dw; I1mr, D1mr, D1mw; ILmr, DLmr, DLmw)."""
    accesses = events["Ir"] + events["Dr"] + events["Dw"]
    l1_misses = events["I1mr"] + events["D1mr"] + events["D1mw"]
    ll_misses = events["ILmr"] + events["DLmr"] + events["DLmw"]
    return (accesses - l1_misses) + LL_HIT_CYCLES * (l1_misses - ll_misses) + RAM_CYCLES * ll_misses


def summed(
    by_process: Mapping[int, Mapping[str, float]], roles: Mapping[int, str]
) -> dict[str, dict[str, float]]:
    """Per role, each event summed over its processes."""
    sums: dict[str, dict[str, float]] = {}
    for pid, events in by_process.items():
        role = sums.setdefault(roles[pid], {})
        for event, value in events.items():
            role[event] = role.get(event, 0) + value
    return sums
