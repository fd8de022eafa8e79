"""What the user asked a ladder run to do."""

from dataclasses import asdict, dataclass
from typing import Any

from layerbench.errors import ConfigError
from layerbench.lab.rungs import RUNG_NAMES


@dataclass(frozen=True)
class LadderOptions:
    concurrency: int = 10
    duration_s: float = 8.0
    warmup_s: float = 2.0
    keep_alive: bool = True
    workers: int = 2
    rungs: tuple[str, ...] = RUNG_NAMES
    pin: bool = True
    port: int | None = None

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, not {self.concurrency}")
        if self.duration_s <= 0:
            raise ConfigError(f"the duration must be positive, not {self.duration_s:g} s")
        if self.warmup_s < 0:
            raise ConfigError(f"the warm-up cannot be negative ({self.warmup_s:g} s)")
        if self.workers < 1:
            raise ConfigError(f"workers must be at least 1, not {self.workers}")
        if self.port is not None and not 1 <= self.port <= 65535:
            raise ConfigError(f"port must be between 1 and 65535, not {self.port}")
        unknown = [name for name in self.rungs if name not in RUNG_NAMES]
        if unknown:
            raise ConfigError(
                f"unknown rung {', '.join(unknown)}; the rungs are: {', '.join(RUNG_NAMES)}"
            )
        if not self.rungs:
            raise ConfigError("no rungs to run")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
