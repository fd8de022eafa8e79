"""What a request costs a deployment, served: started natively (``Windows.starts`` times), its
system calls per request counted by strace, those that move with the start told apart
(:mod:`layerbench.served.start_dependent_calls`); started again under callgrind, its
instructions per request counted; both by role, over the same two windows
(:mod:`layerbench.served.served_windows`)."""

import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.cost.shim_build import find_valgrind
from layerbench.errors import ConfigError
from layerbench.rungs.definitions import Rung
from layerbench.served.counted_launch import CACHE_SIZES, HASH_SEED, count_deployment, servers_of
from layerbench.served.fixed_load import FixedLoad
from layerbench.served.per_request import estimated_cycles
from layerbench.served.served_counting import Counting
from layerbench.served.served_roles import ROLE_ORDER, CountedProcesses
from layerbench.served.served_windows import (
    Windows,
    count_instructions,
    count_syscalls,
)
from layerbench.served.start_dependent_calls import CallsOverStarts, over_starts
from layerbench.served.steady_windows import SteadyCost
from layerbench.served.time_driven import shown
from layerbench.servers.deployment import Deployment
from layerbench.typed_documents import JsonObject, decode, encode

INSTRUCTIONS = "instructions"
CYCLES = "cycles"
MEASURES = (INSTRUCTIONS, CYCLES)


@dataclass(frozen=True)
class ServedConditions:
    """How a served cost was counted (a document written before rounds were counted has
    none: it counted one round)."""

    windows_requests: list[int]
    warmup_requests: int
    concurrency: int
    hash_seed: str
    address_randomisation: str
    valgrind: str
    # callgrind's cache simulation's sizes by level, with --measure cycles.
    cache_sizes: dict[str, str] | None = None
    # The least and most rounds of the two windows counted for the instructions.
    rounds: list[int] = field(default_factory=lambda: [1, 1])
    # The native starts the system calls were counted over (one before they were several).
    syscall_starts: int = 1


@dataclass
class ServedCost:
    """Per role (front, server, application), per request."""

    instructions_per_request: dict[str, float]
    syscalls_per_request: dict[str, dict[str, float]]
    # Estimated cycles (L1 + 5 LL + 35 RAM), with --measure cycles; else empty.
    cycles_per_request: dict[str, float] = field(default_factory=dict)
    # How many processes each role had.
    processes: dict[str, int] = field(default_factory=dict)
    conditions: ServedConditions | None = None
    # Per role, the instructions that came in bursts (windows that counted more than their
    # size's least), per request of every window counted: beside the steady figure, not in it.
    burst_instructions_per_request: dict[str, float] = field(default_factory=dict)
    # The windows counted for the instructions, and how many of them held a burst.
    windows_counted: int = 0
    burst_windows: int = 0
    # Per role, the uncertainty of its instructions per request and of its system calls per
    # request (what its timers' work may still add: :mod:`layerbench.served.time_driven`),
    # and what it did per second while idle: instructions, and system calls by call. Empty
    # in a document written before windows of equal duration.
    instruction_uncertainty: dict[str, float] = field(default_factory=dict)
    syscall_uncertainty: dict[str, float] = field(default_factory=dict)
    idle_instructions_per_second: dict[str, float] = field(default_factory=dict)
    idle_syscalls_per_second: dict[str, dict[str, float]] = field(default_factory=dict)
    # Each window's mean duration, in seconds (short, long), counting instructions.
    window_seconds: list[float] = field(default_factory=list)
    # Each native start's system calls per request, per role by call (syscalls_per_request
    # holds their mean), and each of its rounds'; per role, the calls that depend on timing
    # (futex, and those whose figure moved between the rounds of the starts), each with its
    # least and most figure over the starts. Empty in a document written before several
    # starts: futex alone was marked.
    syscalls_per_start: list[dict[str, dict[str, float]]] = field(default_factory=list)
    syscall_rounds_per_start: list[list[dict[str, dict[str, float]]]] = field(default_factory=list)
    timing_calls: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    # Per role whose instructions moved from window to window with something other than its
    # requests, why: its figure is not usable, and not in the total
    # (:func:`layerbench.served.steady_windows.unsteady_roles`).
    unsteady_roles: dict[str, str] = field(default_factory=dict)

    def shown_instructions(self, role: str) -> float:
        """Its instructions per request, 0 when within their uncertainty of zero or unsteady."""
        if role in self.unsteady_roles:
            return 0.0
        return shown(self.instructions_per_request[role], self.instruction_uncertainty.get(role))

    def within_uncertainty(self, role: str) -> bool:
        """Whether its instructions per request are within their uncertainty of zero."""
        within = self.instruction_uncertainty.get(role)
        return within is not None and abs(self.instructions_per_request[role]) <= within

    @property
    def total_instructions(self) -> float:
        """The roles' instructions per request as shown (one within its uncertainty of zero, or
        unsteady, adds nothing)."""
        return sum(self.shown_instructions(role) for role in self.instructions_per_request)

    @property
    def total_bursts(self) -> float:
        return sum(self.burst_instructions_per_request.values())

    @property
    def total_cycles(self) -> float | None:
        return sum(self.cycles_per_request.values()) if self.cycles_per_request else None

    def total_syscalls(self, role: str | None = None) -> float:
        roles = [role] if role is not None else list(self.syscalls_per_request)
        return sum(sum(self.syscalls_per_request.get(each, {}).values()) for each in roles)

    def to_dict(self) -> JsonObject:
        document: JsonObject = encode(self)
        return document

    @classmethod
    def from_dict(cls, document: Mapping[str, object]) -> "ServedCost":
        """A document :meth:`to_dict` wrote, of any version of it; a ConfigError naming the
        wrong field."""
        return decode(cls, document, "the served cost")


@contextmanager
def counted(
    deployment: Deployment,
    directory: Path,
    *,
    cache_sim: bool,
    server_arguments: tuple[str, ...] = (),
) -> Iterator[None]:
    """``deployment``'s servers start under callgrind while inside; natively again after."""
    servers = [server for _, server in servers_of(deployment)]
    count_deployment(deployment, directory, cache_sim=cache_sim, server_arguments=server_arguments)
    try:
        yield
    finally:
        for server in servers:
            for name in ("command", "environment", "prepare", "start_cap_s"):
                server.__dict__.pop(name, None)


def served_conditions(windows: Windows, cache_sim: bool) -> ServedConditions:
    valgrind = subprocess.run(
        [str(find_valgrind()), "--version"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return ServedConditions(
        windows_requests=list(windows.sizes),
        warmup_requests=windows.warmup,
        concurrency=windows.concurrency,
        hash_seed=HASH_SEED,
        address_randomisation="off (setarch -R)",
        valgrind=valgrind,
        cache_sizes=dict(CACHE_SIZES) if cache_sim else None,
        rounds=[windows.rounds, windows.max_rounds],
        syscall_starts=windows.starts,
    )


def measure_served(
    deployment: Deployment,
    counting: Counting,
    load: FixedLoad,
    directory: Path,
    windows: Windows,
    *,
    measure: str = INSTRUCTIONS,
) -> ServedCost:
    """Start ``deployment`` natively and count its system calls (``windows.starts`` times:
    :mod:`layerbench.served.start_dependent_calls`), then under callgrind and count its
    instructions (and, measuring cycles, its cache simulation's events); it is stopped after
    each."""
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
    counted in its own windows, one after the other, in the same starts."""
    cache_sim = measure == CYCLES
    starts = []
    for start in range(1, windows.starts + 1):
        with deployment:
            strace = directory / "strace" / f"start-{start}"
            starts.append(count_syscalls(deployment, counting, loads, strace, windows)[1])
    syscalls = {
        label: over_starts(
            [start[label] for start in starts], windows.long - windows.short, windows.min_seconds
        )
        for label in loads
    }
    with (
        counted(
            deployment,
            directory / "callgrind",
            cache_sim=cache_sim,
            server_arguments=counting.counted_arguments,
        ),
        deployment,
    ):
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
    syscalls: CallsOverStarts,
    processes: CountedProcesses,
    conditions: ServedConditions,
    cache_sim: bool,
) -> ServedCost:
    events = steady.per_request
    roles = [role for role in ROLE_ORDER if role in events]
    seconds = steady.seconds or {}
    return ServedCost(
        instructions_per_request={role: events[role]["Ir"] for role in roles},
        syscalls_per_request={role: syscalls.per_request.get(role, {}) for role in roles},
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
        instruction_uncertainty={role: (steady.uncertainty or {}).get(role, 0.0) for role in roles},
        syscall_uncertainty={role: syscalls.uncertainty.get(role, 0.0) for role in roles},
        idle_instructions_per_second={
            role: (steady.idle_per_second or {}).get(role, 0.0) for role in roles
        },
        idle_syscalls_per_second={role: syscalls.idle_per_second.get(role, {}) for role in roles},
        window_seconds=[seconds[size] for size in conditions.windows_requests if size in seconds],
        syscalls_per_start=[
            {role: start.get(role, {}) for role in roles} for start in syscalls.per_start
        ],
        syscall_rounds_per_start=[
            [{role: each.get(role, {}) for role in roles} for each in start]
            for start in syscalls.rounds_per_start
        ],
        timing_calls={role: syscalls.timing.get(role, {}) for role in roles},
        unsteady_roles={role: why for role, why in steady.unsteady.items() if role in roles},
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
