"""What a change added: two profiles of the same thing (a baseline's, then now's) compared layer
by layer and function by function, now minus the baseline.

Each layer's and each function's *own* cost (its self samples, :mod:`layerbench.profile.
layer_shares`'s rule) is its share of its profile's samples times that profile's server CPU per
request, in µs per request; both profiles normalised to their own totals, so their sample
counts need not match. When either profile has no CPU per request (its server's CPU was not
measured), the change is in share points instead, and says so. A function is its frame as the
sampler wrote it (``render (…/jinja2/environment.py:1290)``): the same function in both
profiles when its file and first line did not move.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from layerbench.profile.collapsed_stacks import Stack, parse_frame
from layerbench.profile.layer_shares import stack_layers
from layerbench.profile.rung_profile import RungProfile

# The changes a summary shows, the largest growths first.
SHOWN = 5


@dataclass(frozen=True)
class Change:
    name: str
    before: float
    now: float

    @property
    def added(self) -> float:
        return self.now - self.before


@dataclass(frozen=True)
class ProfileChange:
    # "µs/req" or "% of samples".
    unit: str
    # Most added first.
    layers: tuple[Change, ...]
    functions: tuple[Change, ...]


def profile_change(before: RungProfile, now: RungProfile) -> ProfileChange:
    per_request = (before.server_cpu_s_per_request, now.server_cpu_s_per_request)
    in_us = all(value is not None and value > 0 for value in per_request)
    unit = "µs/req" if in_us else "% of samples"

    def scale(profile: RungProfile) -> float:
        cost = profile.server_cpu_s_per_request
        return cost * 1e6 if in_us and cost is not None else 100.0

    old, new = _own(before), _own(now)
    layers = _changes(old[0], new[0], scale(before), scale(now))
    functions = _changes(old[1], new[1], scale(before), scale(now))
    return ProfileChange(unit, layers, functions)


def _own(profile: RungProfile) -> tuple[dict[str, float], dict[str, float]]:
    """Each layer's and each leaf function's fraction of the profile's samples."""
    total = profile.samples
    layers: dict[str, float] = {}
    functions: dict[str, float] = {}
    if not total:
        return layers, functions
    for stack, count in profile.stacks.items():
        if not stack:
            continue
        layer = stack_layers(stack, profile.layer_of)[-1]
        layers[layer] = layers.get(layer, 0.0) + count / total
        leaf = _function(stack)
        functions[leaf] = functions.get(leaf, 0.0) + count / total
    return layers, functions


def _function(stack: Stack) -> str:
    return stack[-1]


def _changes(
    before: Mapping[str, float], now: Mapping[str, float], before_scale: float, now_scale: float
) -> tuple[Change, ...]:
    changes = [
        Change(name, before.get(name, 0.0) * before_scale, now.get(name, 0.0) * now_scale)
        for name in {*before, *now}
    ]
    changes.sort(key=lambda change: (-change.added, change.name))
    return tuple(changes)


def change_lines(label: str, change: ProfileChange, shown: int = SHOWN) -> list[str]:
    """The layers and the functions that grew most (``shown`` of each), then the layer that
    shrank most: a short text for a terminal or a CI log."""
    lines = [f"{label}: what grew most since the baseline ({change.unit}, now - baseline)"]
    grown = [c for c in change.layers if c.added > 0][:shown]
    lines += [
        f"  layer {c.name}: {_signed(c.added)} ({_plain(c.before)} -> {_plain(c.now)})"
        for c in grown
    ] or ["  no layer grew"]
    for c in [c for c in change.functions if c.added > 0][:shown]:
        frame = parse_frame(c.name)
        where = f" ({frame.file.rsplit('/', 1)[-1]}:{frame.line})" if frame.line else ""
        lines.append(f"  function {frame.name}{where}: {_signed(c.added)}")
    shrunk = min(change.layers, key=lambda c: c.added, default=None)
    if shrunk is not None and shrunk.added < 0:
        lines.append(f"  most shrunk: layer {shrunk.name}: {_signed(shrunk.added)}")
    return lines


def _signed(value: float) -> str:
    return f"{value:+,.1f}"


def _plain(value: float) -> str:
    return f"{value:,.1f}"
