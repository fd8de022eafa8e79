"""What the lab runs a trial against: one server, or several that answer as one (nginx in front
of uWSGI). :class:`~layerbench.servers.managed_server.ManagedServer` is one; a
:class:`FrontedServer` is the other."""

from types import TracebackType
from typing import Protocol

from layerbench.proc.start_stop import StartStop
from layerbench.roles import FRONT_ROLE, SERVER_ROLE
from layerbench.servers.managed_server import ManagedServer


class Deployment(Protocol):
    name: str

    @property
    def base_url(self) -> str: ...

    def versions(self) -> dict[str, str]: ...

    def roles(self) -> dict[str, set[int]]: ...

    def check_alive(self) -> None: ...

    def start(self) -> "Deployment": ...

    def stop(self) -> None: ...

    def __enter__(self) -> "Deployment": ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...


class FrontedServer(StartStop):
    """``front`` (the one clients reach) before ``back``: started back first, stopped front
    first; either one's death is the deployment's."""

    def __init__(self, name: str, front: ManagedServer, back: ManagedServer) -> None:
        self.name = name
        self.front = front
        self.back = back

    @property
    def base_url(self) -> str:
        return self.front.base_url

    def versions(self) -> dict[str, str]:
        return {**self.back.versions(), **self.front.versions()}

    def roles(self) -> dict[str, set[int]]:
        return {FRONT_ROLE: {self.front.session}, SERVER_ROLE: {self.back.session}}

    def check_alive(self) -> None:
        self.back.check_alive()
        self.front.check_alive()

    def start(self) -> "FrontedServer":
        self.back.start()
        try:
            self.front.start()
        except BaseException:
            self.back.stop()
            raise
        return self

    def stop(self) -> None:
        try:
            self.front.stop()
        finally:
            self.back.stop()
