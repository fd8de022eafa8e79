"""Memory per worker, as the seeds read it and beside it what it shares: for the server's
processes that served during a measurement (those that used CPU; all of them when none did),
the mean RSS (resident set, what ``top`` shows as RES: the seeds' "10 MB per process"), PSS
(its shared pages divided among the processes that share them) and USS (its own pages only).
A forked worker's RSS counts the pages it shares with its parent and siblings in full, so RSS
per worker times the workers overstates the whole; PSS adds up to it."""

from collections.abc import Sequence
from dataclasses import dataclass

from layerbench.render.text_table import format_table
from layerbench.results.trials import Repeated
from layerbench.results.usage import RoleUsage
from layerbench.roles import SERVER_ROLE

MIB = 1024 * 1024
HEADER = ["", "workers", "RSS MiB", "PSS MiB", "USS MiB", "server PSS MiB"]
TITLE = (
    "memory per worker of the server (mean of those that served; RSS: top's RES; PSS: share of "
    "shared pages; USS: its own):"
)


@dataclass(frozen=True)
class WorkerMemory:
    workers: int
    rss_bytes: float
    pss_bytes: float
    uss_bytes: float
    # Every process of the role, the idle ones included: PSS adds up to what it holds.
    role_pss_bytes: int

    @classmethod
    def of(cls, role: RoleUsage | None) -> "WorkerMemory | None":
        if role is None or not role.processes:
            return None
        workers = [p for p in role.processes if p.cpu_s > 0] or list(role.processes)
        count = len(workers)
        return cls(
            count,
            sum(p.rss_bytes for p in workers) / count,
            sum(p.pss_bytes for p in workers) / count,
            sum(p.uss_bytes for p in workers) / count,
            role.pss_bytes,
        )


def server_memory(item: Repeated) -> WorkerMemory | None:
    """Of the server during an item's representative trial (stats/median.py)."""
    usage = item.usage
    return WorkerMemory.of(usage.roles.get(SERVER_ROLE) if usage else None)


def memory_rows(items: Sequence[tuple[str, Repeated]]) -> list[list[str]]:
    """The header, then a row per measured item (its name first)."""
    rows = [HEADER]
    for name, item in items:
        memory = server_memory(item)
        if memory is None:
            continue
        rows.append(
            [
                name,
                str(memory.workers),
                f"{memory.rss_bytes / MIB:.1f}",
                f"{memory.pss_bytes / MIB:.1f}",
                f"{memory.uss_bytes / MIB:.1f}",
                f"{memory.role_pss_bytes / MIB:.1f}",
            ]
        )
    return rows


def format_memory_table(
    items: Sequence[tuple[str, Repeated]], *, colour: bool | None = None
) -> str:
    """Empty when nothing was measured."""
    rows = memory_rows(items)
    if len(rows) < 2:
        return ""
    return "\n".join([TITLE, *format_table(rows, 1, colour=colour)])
