"""A service of several nodes for a test: handed out started, and once stopped nothing of it is
left (every node's process gone, its directory removed)."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from layerbench.services.service import ManagedService

Service = TypeVar("Service", bound=ManagedService)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@contextmanager
def leaving_nothing(service: Service) -> Iterator[Service]:
    """``service`` (started) while inside; stopped after, and nothing of it left."""
    pids, directory = service.pids, service.directory
    try:
        yield service
    finally:
        service.stop()
    assert directory is not None and not directory.exists()
    assert [pid for pid in pids if alive(pid)] == []
