"""Which CPUs the server and the client run on: apart whenever the machine allows it.

On two or more CPUs the client gets the last one and the servers the rest, so that client and
server never compete for a core; on one CPU nothing is pinned, and the results say so.
"""

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class CpuLayout:
    server_cpus: frozenset[int] | None
    client_cpus: frozenset[int] | None

    @property
    def pinned(self) -> bool:
        return self.server_cpus is not None

    def describe(self) -> str:
        if self.server_cpus is None or self.client_cpus is None:
            return "not pinned"
        server, client = _cpu_list(self.server_cpus), _cpu_list(self.client_cpus)
        return f"server on CPU {server}, client on CPU {client}"


def plan_cpu_layout(available: set[int] | None = None, pin: bool = True) -> CpuLayout:
    cpus = sorted(available if available is not None else os.sched_getaffinity(0))
    if not pin or len(cpus) < 2:
        return CpuLayout(None, None)
    return CpuLayout(frozenset(cpus[:-1]), frozenset(cpus[-1:]))


def _cpu_list(cpus: frozenset[int]) -> str:
    return ",".join(str(cpu) for cpu in sorted(cpus))
