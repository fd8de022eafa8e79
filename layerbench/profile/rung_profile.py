"""A rung's profile: the stack samples of its server's workers over its measured trials, each
frame's layer as it was told on the machine that measured it, and the server's CPU over the
same trials, from which each layer's CPU per request follows
(:mod:`layerbench.profile.layer_shares`).

Its document (a rung's ``profile`` in a ladder's results)::

    {"sampler": "py-spy 0.4.3", "mode": "gil", "rate_hz": 100,
     "samples": 2950, "server_cpu_s": 31.2, "requests": 30114,
     "sampled_cpu_fraction": 0.94,
     "frames": ["run (/…/gunicorn/arbiter.py:60)", …], "frame_layers": ["gunicorn", …],
     "stacks": [[0, 3, 7, 12], …],            # frame indices, root first, then the count
     "layers": [{"layer": "SQLAlchemy", "self_samples": 1290, "self_share": 0.437,
                 "self_share_low": 0.419, "self_share_high": 0.455,
                 "inclusive_samples": 1800, "inclusive_share": 0.61,
                 "cpu_us_per_request": 452.7}, …],
     "failures": []}

``layers`` is derived (what the tables show); the rest reads back into the same profile.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated

from layerbench.errors import ConfigError
from layerbench.profile.collapsed_stacks import Stacks, merged, to_document
from layerbench.profile.layer_shares import LayerBreakdown, attribute
from layerbench.typed_documents import Bounds, JsonObject, decode_at

# The samples are those in which a worker held the GIL (py-spy --gil): its CPU, Python's and
# what C code Python calls without releasing the GIL.
GIL_MODE = "gil"


@dataclass(frozen=True)
class RungProfile:
    sampler: str
    rate_hz: int
    stacks: Stacks
    # Each frame's layer (None: its caller's), told when it was measured.
    frame_layers: Mapping[str, str | None]
    # The server's CPU seconds and the requests completed over the profiled trials.
    server_cpu_s: float
    requests: int
    mode: str = GIL_MODE
    failures: tuple[str, ...] = ()
    _breakdown: list[LayerBreakdown] = field(default_factory=list, compare=False, repr=False)

    @property
    def samples(self) -> int:
        return sum(self.stacks.values())

    @property
    def server_cpu_s_per_request(self) -> float | None:
        return self.server_cpu_s / self.requests if self.requests else None

    @property
    def sampled_cpu_fraction(self) -> float | None:
        """The CPU the samples stand for (samples over the rate) over the server's measured
        CPU: near 1 when the samples see all of it; below, the CPU they miss (C code that
        releases the GIL, a master process), above, sampling noise."""
        if not self.server_cpu_s:
            return None
        return self.samples / self.rate_hz / self.server_cpu_s

    def layer_of(self, frame: str) -> str | None:
        return self.frame_layers.get(frame)

    def breakdown(self) -> LayerBreakdown:
        if not self._breakdown:
            self._breakdown.append(
                attribute(self.stacks, self.layer_of, self.server_cpu_s_per_request)
            )
        return self._breakdown[0]

    def with_trial(
        self,
        stacks: Stacks,
        layer_of: Callable[[str], str | None],
        server_cpu_s: float,
        requests: int,
        failures: tuple[str, ...] = (),
    ) -> "RungProfile":
        """This profile with one more trial's samples and CPU added."""
        layers = dict(self.frame_layers)
        for stack in stacks:
            for frame in stack:
                if frame not in layers:
                    layers[frame] = layer_of(frame)
        return RungProfile(
            sampler=self.sampler,
            rate_hz=self.rate_hz,
            stacks=merged([self.stacks, stacks]),
            frame_layers=layers,
            server_cpu_s=self.server_cpu_s + server_cpu_s,
            requests=self.requests + requests,
            mode=self.mode,
            failures=(*self.failures, *failures),
        )

    def to_dict(self) -> JsonObject:
        table = to_document(self.stacks)
        breakdown = self.breakdown()
        return {
            "sampler": self.sampler,
            "mode": self.mode,
            "rate_hz": self.rate_hz,
            "samples": self.samples,
            "server_cpu_s": self.server_cpu_s,
            "requests": self.requests,
            "sampled_cpu_fraction": self.sampled_cpu_fraction,
            "frames": table["frames"],
            "frame_layers": [self.frame_layers.get(frame) for frame in table["frames"]],
            "stacks": table["stacks"],
            "layers": [
                {
                    "layer": share.layer,
                    "self_samples": share.self_share.count,
                    "self_share": share.self_share.value,
                    "self_share_low": share.self_share.low,
                    "self_share_high": share.self_share.high,
                    "inclusive_samples": share.inclusive_share.count,
                    "inclusive_share": share.inclusive_share.value,
                    "cpu_us_per_request": share.cpu_us_per_request,
                }
                for share in breakdown.layers
            ],
            "failures": list(self.failures),
        }

    @classmethod
    def from_dict(cls, document: object, where: str = "profile") -> "RungProfile":
        """A stored profile; a malformed one is a one-line ConfigError naming ``where``
        (``ladder.json: rungs[2].profile``) and the field."""
        read = decode_at(ProfileDocument, document, where)
        frames = read.frames
        if len(read.frame_layers) != len(frames):
            raise ConfigError(
                f"{where}: frame_layers has {len(read.frame_layers)} entries, frames {len(frames)}"
            )
        stacks: Stacks = {}
        for i, row in enumerate(read.stacks):
            if any(index >= len(frames) for index in row[:-1]):
                raise ConfigError(f"{where}: stacks[{i}] names a frame past the {len(frames)}")
            stack = tuple(frames[index] for index in row[:-1])
            stacks[stack] = stacks.get(stack, 0) + row[-1]
        return cls(
            sampler=read.sampler,
            rate_hz=read.rate_hz,
            stacks=stacks,
            frame_layers=dict(zip(frames, read.frame_layers, strict=True)),
            server_cpu_s=read.server_cpu_s,
            requests=read.requests,
            mode=read.mode,
            failures=read.failures,
        )


@dataclass(frozen=True)
class ProfileDocument:
    """What :meth:`RungProfile.from_dict` reads (``layers`` and the other derived figures are
    not read back: they follow from these)."""

    sampler: str
    rate_hz: Annotated[int, Bounds(low=1)]
    server_cpu_s: Annotated[float, Bounds(low=0)]
    requests: Annotated[int, Bounds(low=0)]
    frames: list[str]
    frame_layers: list[str | None]
    # Frame indices, root first, then the count.
    stacks: list[Annotated[list[Annotated[int, Bounds(low=0)]], Bounds(least=2)]]
    mode: str = GIL_MODE
    failures: tuple[str, ...] = ()


def empty_profile(sampler: str, rate_hz: int) -> RungProfile:
    return RungProfile(sampler, rate_hz, {}, {}, 0.0, 0)
