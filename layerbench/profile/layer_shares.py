"""Each layer's share of a profile's samples, and what that is in CPU per request.

The rule: a sample is charged to the layer of its **leaf** frame, the code that was running
when it was taken (its "self" share). The shares of all layers therefore add up to the whole
profile, and a layer's share is the CPU its own code used: SQLAlchemy's is the time in
SQLAlchemy's functions, not in the sqlite3 module or the standard library it calls. A frame
whose layer cannot be told (:mod:`layerbench.profile.frame_layers`) takes its caller's, and a
sample none of whose frames can be told is ``unattributed``.

Beside it, each layer's **inclusive** share: the samples with at least one frame of that layer
anywhere on the stack, the layer with everything it called (inclusive shares add up to more
than the whole: the server's is nearly all of it).

Each share comes with its Wilson 95 % interval (:mod:`layerbench.stats.proportion`), the
sampling uncertainty of ``k`` of ``n`` samples. CPU per request is the share times the server's
CPU per request as the lab's sampler measured it over the same trials (``/proc``): the profile
says how the CPU divides, the lab's measurement how much there is.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from layerbench.profile.collapsed_stacks import Stack
from layerbench.profile.frame_layers import UNATTRIBUTED
from layerbench.stats.proportion import Proportion, wilson


@dataclass(frozen=True)
class LayerShare:
    layer: str
    # The leaf's: the layer's own code.
    self_share: Proportion
    # Anywhere on the stack: the layer and what it called.
    inclusive_share: Proportion
    # self_share times the server's CPU per request; None when that was not measured.
    cpu_us_per_request: float | None


@dataclass(frozen=True)
class LayerBreakdown:
    samples: int
    # Most self samples first.
    layers: tuple[LayerShare, ...]
    server_cpu_us_per_request: float | None

    def share_of(self, layer: str) -> LayerShare | None:
        return next((share for share in self.layers if share.layer == layer), None)


# A frame's layer; None when it cannot be told (LayerMap.layer_of, or a stored profile's).
LayerOf = Callable[[str], str | None]


def stack_layers(stack: Stack, layer_of: LayerOf) -> list[str]:
    """The layer of each frame, root first: one that cannot be told takes its caller's."""
    resolved: list[str] = []
    current = UNATTRIBUTED
    for frame in stack:
        current = layer_of(frame) or current
        resolved.append(current)
    return resolved


def attribute(
    stacks: Mapping[Stack, int], layer_of: LayerOf, server_cpu_s_per_request: float | None
) -> LayerBreakdown:
    """Each layer's self and inclusive share of ``stacks``' samples (see the module's rule)."""
    own: dict[str, int] = {}
    anywhere: dict[str, int] = {}
    for stack, count in stacks.items():
        resolved = stack_layers(stack, layer_of)
        leaf = resolved[-1] if resolved else UNATTRIBUTED
        own[leaf] = own.get(leaf, 0) + count
        for layer in set(resolved):
            anywhere[layer] = anywhere.get(layer, 0) + count
    total = sum(stacks.values())
    per_request_us = None if server_cpu_s_per_request is None else server_cpu_s_per_request * 1e6
    shares = [
        LayerShare(
            layer=layer,
            self_share=wilson(own.get(layer, 0), total),
            inclusive_share=wilson(anywhere[layer], total),
            cpu_us_per_request=(
                None if per_request_us is None else per_request_us * own.get(layer, 0) / total
            ),
        )
        for layer in anywhere
    ]
    shares.sort(key=lambda share: (-share.self_share.count, -share.inclusive_share.count))
    return LayerBreakdown(total, tuple(shares), per_request_us)
