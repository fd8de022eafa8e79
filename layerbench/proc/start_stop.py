"""What a `with` block does with anything that is started and stopped (a process, a server, a
service): it starts it on the way in and stops it on the way out, also when the block raises."""

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self


class StartStop(ABC):
    @abstractmethod
    def start(self) -> object:
        """Start it; returns once it is ready."""

    @abstractmethod
    def stop(self) -> None:
        """Stop it, and all it started."""

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
