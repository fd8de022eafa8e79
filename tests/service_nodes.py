"""A service of several nodes for a test: handed out started, and once stopped nothing of it is
left (every node's process gone, its directory removed)."""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from layerbench.services.service import ManagedService

Service = TypeVar("Service", bound=ManagedService)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


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
