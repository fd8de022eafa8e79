"""What a cost pass collects: the requests (a rung's, or a smoke URL's GET), each with the rule
its answer must pass, and how many of each are warmed up, collected and repeated."""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError

DEFAULT_REQUESTS = 100
DEFAULT_WARMUP = 20
DEFAULT_REPEATS = 5


@dataclass(frozen=True)
class CostRequest:
    label: str
    method: str
    path: str
    # Whether an answer is right: its status code and its body.
    accepts: Callable[[int, bytes], bool]
    # What a right answer is, for the error when one is not.
    expected: str
    body: bytes | None = None
    content_type: str | None = None
    # The rungs its rung adds a layer to, nearest first (Rung.chain): what its "vs above" is
    # against. () for a smoke URL.
    chain: tuple[str, ...] = ()


@dataclass(frozen=True)
class CostPlan:
    requests: tuple[CostRequest, ...]
    # Makes the application's data in a directory of its own, once per repeat (a write
    # changes it), and returns the environment the application reads it from.
    prepare: Callable[[Path], dict[str, str]]
    count: int = DEFAULT_REQUESTS
    warmup: int = DEFAULT_WARMUP
    repeats: int = DEFAULT_REPEATS
    # Repeats run at once (each a process of its own; an instruction count is the same
    # whatever runs beside it).
    jobs: int = 1
    # The label of the request whose top functions are wanted.
    profile: str | None = None
    # `--by-layer`: each request's instructions by shared object and its layer, too.
    by_layer: bool = False
    # The caller's environment variables the application is given (`--env`): a counted child
    # gets none other (:mod:`layerbench.cost.cost_run`).
    passed_environment: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.count <= 100_000:
            raise ConfigError(f"--requests is 1 to 100000, not {self.count}")
        if not 0 <= self.warmup <= 100_000:
            raise ConfigError(f"--warmup is 0 to 100000, not {self.warmup}")
        if not 1 <= self.repeats <= 100:
            raise ConfigError(f"--repeats is 1 to 100, not {self.repeats}")
        if self.jobs < 1:
            raise ConfigError(f"--jobs is at least 1, not {self.jobs}")
        if not self.requests:
            raise ConfigError("nothing to measure: no request")
        labels = [request.label for request in self.requests]
        if self.profile is not None and self.profile not in labels:
            raise ConfigError(f"--profile {self.profile}: not measured here ({', '.join(labels)})")
