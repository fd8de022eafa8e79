"""What a stored run was measured under, as named values, so that two runs compared under
different conditions are said to be (a SQLite ladder against a ``--full`` PostgreSQL one,
gunicorn against uWSGI, four workers against two, another machine).

Read from the run's result, whatever version its document was: a value the document did not
have is left out rather than guessed, so an old run differs from a new one only where both say.
"""

from typing import Any

from layerbench.ladder.ladder_kind import summarize_ladder
from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_kind import summarize_matrix
from layerbench.matrix.matrix_result import MatrixResult


def run_conditions(result: LadderResult | MatrixResult) -> dict[str, str]:
    """Name → value of everything that decides a run's figures but its code."""
    summary = (
        summarize_matrix(result) if isinstance(result, MatrixResult) else summarize_ladder(result)
    )
    options = result.options
    conditions = result.conditions
    machine = conditions.get("machine") or {}
    found: dict[str, Any] = {
        "kind": summary.kind,
        "services": None if isinstance(result, MatrixResult) else _services(options),
        "server": summary.server,
        "application": _applications(result),
        "concurrency": options.get("concurrency"),
        "seconds measured": options.get("duration_s"),
        "warm-up seconds": options.get("warmup_s"),
        "keep-alive": options.get("keep_alive"),
        "mix hit ratio": (options.get("mix") or {}).get("hit_ratio"),
        "CPU": machine.get("cpu_model"),
        "CPUs usable": machine.get("cpus_usable"),
        "kernel": machine.get("kernel"),
        "Python": conditions.get("python"),
        "pinning": conditions.get("pinning"),
    }
    for section, values in (conditions.get("server_settings") or {}).items():
        for key, value in (values or {}).items():
            found[f"{section}.{key}"] = value
    for name, version in (conditions.get("server_versions") or {}).items():
        found[f"{name} version"] = version
    return {name: str(value) for name, value in found.items() if value is not None}


def _applications(result: LadderResult | MatrixResult) -> str:
    """The applications that answered the run (the bare one where the document names none)."""
    if isinstance(result, MatrixResult):
        names = {column.app for column in result.columns}
    else:
        names = set(result.apps)
    return ", ".join(sorted(names)) or "bare"


def _services(options: dict[str, Any]) -> str:
    if options.get("full"):
        return "--full (memcached, Redis, MariaDB, PostgreSQL)"
    return "embedded (SQLite, the in-process cache)"


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """``name: A's value vs B's`` of every condition both runs name with different values."""
    return [f"{name}: {a[name]} vs {b[name]}" for name in a if name in b and a[name] != b[name]]
