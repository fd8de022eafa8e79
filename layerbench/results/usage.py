"""What every process of a trial cost, by role: CPU seconds over the measured interval and
memory (RSS, PSS, USS) per process, as the sampler (:mod:`layerbench.lab.sampler`) measured
them; the whole machine's busy CPU and the hypervisor's steal beside them."""

from dataclasses import dataclass


@dataclass
class ProcessUsage:
    pid: int
    name: str
    role: str
    cpu_s: float = 0.0
    rss_bytes: int = 0
    pss_bytes: int = 0
    uss_bytes: int = 0
    # The lab host it ran on (a run on a topology); None on this machine's loopback.
    host: str | None = None


@dataclass(frozen=True)
class RoleUsage:
    role: str
    processes: tuple[ProcessUsage, ...]
    interval_s: float

    @property
    def cpu_s(self) -> float:
        return sum(p.cpu_s for p in self.processes)

    @property
    def cpu_percent(self) -> float:
        """Of one core, over the interval."""
        return 100 * self.cpu_s / self.interval_s if self.interval_s > 0 else 0.0

    def cpu_s_per_1000(self, requests: int) -> float | None:
        return 1000 * self.cpu_s / requests if requests else None

    @property
    def rss_bytes(self) -> int:
        return sum(p.rss_bytes for p in self.processes)

    @property
    def pss_bytes(self) -> int:
        return sum(p.pss_bytes for p in self.processes)

    @property
    def uss_bytes(self) -> int:
        return sum(p.uss_bytes for p in self.processes)


@dataclass(frozen=True)
class Usage:
    roles: dict[str, RoleUsage]
    interval_s: float
    samples: int
    # The sampler's own CPU over the interval, as a share of one core.
    sampler_cpu_percent: float
    # Every CPU of the machine busy over the interval (all processes, the kernel), in seconds.
    machine_cpu_s: float = 0.0
    # CPU time the hypervisor gave elsewhere while this machine had work (steal), in seconds.
    steal_s: float = 0.0

    @property
    def steal_percent(self) -> float:
        return 100 * self.steal_s / self.interval_s if self.interval_s > 0 else 0.0

    @property
    def other_cpu_percent(self) -> float:
        """What the rest of the machine used (no role's process, not the sampler), as a share of
        one core: another busy process makes a measurement noisy."""
        if self.interval_s <= 0:
            return 0.0
        ours = sum(role.cpu_s for role in self.roles.values())
        ours += self.sampler_cpu_percent * self.interval_s / 100
        return max(0.0, 100 * (self.machine_cpu_s - ours) / self.interval_s)
