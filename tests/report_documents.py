"""Results of the shapes the README's experiments produce, built with the project's own result
structures (the renderers are under test, not the servers): the ``--full`` ladder (12 rungs,
four service roles, three repeats), seed 000's matrix (mod_wsgi embedded against three daemon
configurations with long labels, c = 100, 200, 500) and seed 002's (seven columns at c=1, one
of them not installed, one failed)."""

from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.matrix.matrix_result import Cell, ColumnInfo, MatrixResult
from layerbench.results.load_result import LoadResult
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.results.usage import ProcessUsage, RoleUsage, Usage
from layerbench.rungs.definitions import FULL_LADDER

MIB = 1024 * 1024
INTERVAL_S = 3.0
CONDITIONS = {
    "machine": {"cpu_model": "Test CPU", "cpus_online": 2, "kernel": "6.1", "cpu_governor": None},
    "server_versions": {"gunicorn": "23.0.0"},
}
SEED_000_COLUMNS = (
    "mod_wsgi-embedded",
    "mod_wsgi-daemon:processes=2:threads=10",
    "mod_wsgi-daemon:processes=2:threads=100",
    "mod_wsgi-daemon:processes=20:threads=10",
)
SEED_002_COLUMNS = (
    "mod_python",
    "mod_python-wsgi",
    "mod_wsgi-embedded",
    "uwsgi",
    "uwsgi-nginx",
    "apache-static",
    "nginx-static",
)
NOT_INSTALLED = "mod_python is not installed (apt install libapache2-mod-python)"
DIED = "uwsgi-nginx died: nginx: [emerg] bind() to unix:/tmp/u.sock failed (98)"


def load(rate: float, *, errors: int = 0, p50_us: float = 1000.0) -> LoadResult:
    """A load generator's result at ``rate`` req/s, its latency percentiles from ``p50_us``."""
    latency = {
        "p50": p50_us,
        "p75": 1.3 * p50_us,
        "p90": 1.8 * p50_us,
        "p95": 2.4 * p50_us,
        "p99": 4.0 * p50_us,
        "p99_9": 9.0 * p50_us,
        "mean": 1.1 * p50_us,
    }
    kinds = {"reset": errors} if errors else {}
    return LoadResult(
        requests_completed=int(rate * INTERVAL_S),
        requests_failed=errors,
        non_2xx_responses=0,
        elapsed_s=INTERVAL_S,
        requests_per_s=rate,
        latency_us=latency,
        client_cpu_s=0.4,
        document={
            "version": 1,
            "requests_completed": int(rate * INTERVAL_S),
            "requests_failed": errors,
            "non_2xx_responses": 0,
            "elapsed_s": INTERVAL_S,
            "requests_per_s": rate,
            "latency_us": latency,
            "client_cpu_s": {"user": 0.3, "system": 0.1},
            "errors_by_kind": kinds,
        },
        errors_by_kind=kinds,
    )


def usage(role_processes: dict[str, list[tuple[str, float, float]]]) -> Usage:
    """Per role, its processes as (name, CPU seconds, PSS MiB); PIDs counted from 1000."""
    roles = {}
    pid = 1000
    for role, processes in role_processes.items():
        usages = []
        for name, cpu_s, pss_mib in processes:
            pid += 1
            pss = int(pss_mib * MIB)
            usages.append(ProcessUsage(pid, name, role, cpu_s, 2 * pss, pss, pss // 2))
        roles[role] = RoleUsage(role, tuple(usages), INTERVAL_S)
    return Usage(roles, INTERVAL_S, 30, 0.3)


def full_ladder() -> LadderResult:
    """The ``--full`` ladder: static under nginx, the rest under gunicorn on the services."""
    services = {
        "database": [("postgres", 0.9, 12.0), ("postgres", 0.1, 8.0), ("mariadbd", 0.05, 90.0)],
        "cache": [("memcached", 0.05, 2.5), ("redis-server", 0.05, 4.0)],
    }
    client = {"client": [("layerbench-load", 0.4, 3.0)]}
    result = LadderResult(
        options={"full": True, "server": "gunicorn", "concurrency": 10, "repeats": 3},
        conditions=CONDITIONS,
        started_at="2026-01-02T03:04:05+00:00",
        finished_at="2026-01-02T03:09:05+00:00",
    )
    rate = 36574.0
    for i, rung in enumerate(FULL_LADDER):
        name = rung.name
        server = "nginx" if name == "static" else "gunicorn"
        workers = [("nginx", 0.8, 1.5)] * 2 if name == "static" else [("gunicorn", 0.1, 20.0)]
        workers += [] if name == "static" else [("gunicorn", 1.4, 28.0)] * 2
        roles = {"server": workers, **({} if name == "static" else services), **client}
        trials = tuple(
            Trial(load(rate * factor, p50_us=10_000_000 / rate), usage(roles))
            for factor in (1.0, 0.93, 1.04)  # a noisy rung: CV over 3 %
        )
        result.rungs.append(RungResult(name, server, Status.OK, trials=trials, chain=rung.chain))
        rate *= 0.62 if i < 2 else 0.85
    return result


def _matrix(columns: tuple[str, ...], levels: tuple[int, ...]) -> MatrixResult:
    result = MatrixResult(
        options={"concurrency": list(levels), "rung": "string"},
        conditions=CONDITIONS,
        started_at="2026-01-02T03:04:05+00:00",
        finished_at="2026-01-02T03:19:05+00:00",
    )
    for label in columns:
        server = label.split(":")[0]
        result.columns.append(ColumnInfo(label, server, "string"))
    return result


def _measured(column: str, row: int, level: int, rate: float, errors: int = 0) -> Cell:
    roles = {
        "server": [("apache2", 1.2, 9.0), ("apache2", 0.9, 9.5)],
        "client": [("layerbench-load", 0.5, 3.0)],
    }
    if column == "uwsgi-nginx":
        roles["front"] = [("nginx", 0.3, 1.2)]
    p50_us = 1_000_000 * level / rate
    return Cell(
        column,
        row,
        level,
        Status.OK,
        trials=(Trial(load(rate, errors=errors, p50_us=p50_us), usage(roles)),),
    )


def seed_000_matrix() -> MatrixResult:
    levels = (100, 200, 500)
    result = _matrix(SEED_000_COLUMNS, levels)
    for k, label in enumerate(SEED_000_COLUMNS):
        for row, level in enumerate(levels):
            rate = 2400.0 - 300 * k - 1.5 * level
            errors = 1234 if (k, level) == (1, 500) else 0
            result.cells.append(_measured(label, row, level, rate, errors))
    return result


def seed_002_matrix() -> MatrixResult:
    result = _matrix(SEED_002_COLUMNS, (1,))
    for k, label in enumerate(SEED_002_COLUMNS):
        if label == "mod_python":
            result.cells.append(Cell(label, 0, 1, Status.SKIPPED, NOT_INSTALLED))
        elif label == "uwsgi-nginx":
            result.cells.append(Cell(label, 0, 1, Status.ERROR, DIED))
        else:
            result.cells.append(_measured(label, 0, 1, 1800.0 + 900 * k))
    return result
