"""What a request costs a deployment, served: started natively, its system calls per request
counted by strace; started again under callgrind, its instructions per request counted; both by
role, over the same two windows (:mod:`layerbench.served.served_windows`)."""

import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from layerbench.cost.shim_build import find_valgrind
from layerbench.errors import ConfigError
from layerbench.rungs.definitions import Rung
from layerbench.served.counted_launch import CACHE_SIZES, HASH_SEED, count_deployment, servers_of
from layerbench.served.fixed_load import FixedLoad
from layerbench.served.per_request import estimated_cycles
from layerbench.served.served_counting import Counting
from layerbench.served.served_roles import ROLE_ORDER, CountedProcesses
from layerbench.served.served_windows import Windows, count_instructions, count_syscalls
from layerbench.served.steady_windows import SteadyCost
from layerbench.servers.deployment import Deployment

INSTRUCTIONS = "instructions"
CYCLES = "cycles"
MEASURES = (INSTRUCTIONS, CYCLES)


@dataclass
class ServedCost:
    """Per role (front, server, application), per request."""

    instructions_per_request: dict[str, float]
    syscalls_per_request: dict[str, dict[str, float]]
    # Estimated cycles (L1 + 5 LL + 35 RAM), with --measure cycles; else empty.
    cycles_per_request: dict[str, float] = field(default_factory=dict)
    # How many processes each role had.
    processes: dict[str, int] = field(default_factory=dict)
    conditions: dict[str, Any] = field(default_factory=dict)
    # Per role, the instructions that came in bursts (windows that counted more than their
    # size's least), per request of every window counted: beside the steady figure, not in it.
    burst_instructions_per_request: dict[str, float] = field(default_factory=dict)
    # The windows counted for the instructions, and how many of them held a burst.
    windows_counted: int = 0
    burst_windows: int = 0

    @property
    def total_instructions(self) -> float:
        return sum(self.instructions_per_request.values())

    @property
    def total_bursts(self) -> float:
        return sum(self.burst_instructions_per_request.values())

    @property
    def total_cycles(self) -> float | None:
        return sum(self.cycles_per_request.values()) if self.cycles_per_request else None

    def total_syscalls(self, role: str | None = None) -> float:
        roles = [role] if role is not None else list(self.syscalls_per_request)
        return sum(sum(self.syscalls_per_request.get(each, {}).values()) for each in roles)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> "ServedCost":
        return cls(
            instructions_per_request=dict(document["instructions_per_request"]),
            syscalls_per_request={k: dict(v) for k, v in document["syscalls_per_request"].items()},
            cycles_per_request=dict(document.get("cycles_per_request", {})),
            processes=dict(document.get("processes", {})),
            conditions=dict(document.get("conditions", {})),
            burst_instructions_per_request=dict(document.get("burst_instructions_per_request", {})),
            windows_counted=int(document.get("windows_counted", 0)),
            burst_windows=int(document.get("burst_windows", 0)),
        )


@contextmanager
def counted(deployment: Deployment, directory: Path, *, cache_sim: bool) -> Iterator[None]:
    """``deployment``'s servers start under callgrind while inside; natively again after."""
    servers = [server for _, server in servers_of(deployment)]
    count_deployment(deployment, directory, cache_sim=cache_sim)
    try:
        yield
    finally:
        for server in servers:
            for name in ("command", "environment", "prepare"):
                server.__dict__.pop(name, None)


def served_conditions(windows: Windows, cache_sim: bool) -> dict[str, Any]:
    valgrind = subprocess.run(
        [str(find_valgrind()), "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return {
        "windows_requests": list(windows.sizes),
        "warmup_requests": windows.warmup,
        "rounds": [windows.rounds, windows.max_rounds],
        "concurrency": windows.concurrency,
        "hash_seed": HASH_SEED,
        "address_randomisation": "off (setarch -R)",
        "valgrind": valgrind,
        "cache_sizes": dict(CACHE_SIZES) if cache_sim else None,
    }


def measure_served(
    deployment: Deployment,
    counting: Counting,
    load: FixedLoad,
    directory: Path,
    windows: Windows,
    *,
    measure: str = INSTRUCTIONS,
) -> ServedCost:
    """Start ``deployment`` natively and count its system calls, then under callgrind and
    count its instructions (and, measuring cycles, its cache simulation's events); it is
    stopped after each."""
    label = "request"
    costs = measure_served_requests(
        deployment, counting, {label: load}, directory, windows, measure=measure
    )
    return costs[label]


def measure_served_requests(
    deployment: Deployment,
    counting: Counting,
    loads: Mapping[str, FixedLoad],
    directory: Path,
    windows: Windows,
    *,
    measure: str = INSTRUCTIONS,
) -> dict[str, ServedCost]:
    """:func:`measure_served` for several requests (a ladder's rungs) on one deployment: each
    counted in its own windows, one after the other, in the same two starts."""
    cache_sim = measure == CYCLES
    with deployment:
        _, syscalls = count_syscalls(deployment, counting, loads, directory / "strace", windows)
    with counted(deployment, directory / "callgrind", cache_sim=cache_sim), deployment:
        processes, events = count_instructions(
            deployment, counting, loads, directory / "callgrind", windows
        )
    conditions = served_conditions(windows, cache_sim)
    return {
        label: _served_cost(events[label], syscalls[label], processes, conditions, cache_sim)
        for label in loads
    }


def _served_cost(
    steady: SteadyCost,
    syscalls: dict[str, dict[str, float]],
    processes: CountedProcesses,
    conditions: dict[str, Any],
    cache_sim: bool,
) -> ServedCost:
    events = steady.per_request
    roles = [role for role in ROLE_ORDER if role in events]
    return ServedCost(
        instructions_per_request={role: events[role]["Ir"] for role in roles},
        syscalls_per_request={role: syscalls.get(role, {}) for role in roles},
        cycles_per_request=(
            {role: estimated_cycles(events[role]) for role in roles} if cache_sim else {}
        ),
        processes={role: len(processes.pids(role)) for role in roles},
        conditions=conditions,
        burst_instructions_per_request={
            role: steady.bursts_per_request.get(role, 0.0) for role in roles
        },
        windows_counted=steady.windows,
        burst_windows=steady.burst_windows,
    )


def rung_load(
    rung: Rung, base_url: str, workdir: Path, windows: Windows, cpus: frozenset[int] | None
) -> FixedLoad:
    """The load of ``rung``'s request on ``base_url``: its body, if it has one, from a file in
    ``workdir``. A mixed rung (several URLs) is refused."""
    if rung.mix:
        raise ConfigError(f"--measure instructions counts one request; {rung.name} mixes several")
    body_file = None
    if rung.body is not None:
        body_file = workdir / f"body-{rung.name}"
        body_file.write_bytes(rung.body)
    return FixedLoad(
        base_url + rung.path,
        workdir,
        concurrency=windows.concurrency,
        body_file=body_file,
        content_type=rung.content_type,
        cpus=cpus,
    )
