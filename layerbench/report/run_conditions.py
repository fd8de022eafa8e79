"""What a stored run was measured under, as named values, so that two runs compared under
different conditions are said to be (a SQLite ladder against a ``--full`` PostgreSQL one,
gunicorn against uWSGI, four workers against two, another machine).

Read from the run's result, whatever version its document was: a value the document did not
have is left out rather than guessed, so an old run differs from a new one only where both say.
"""

from layerbench.ladder.ladder_kind import summarize_ladder
from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_kind import summarize_matrix
from layerbench.matrix.matrix_result import MatrixResult
from layerbench.results.measured_under import Machine


def run_conditions(result: LadderResult | MatrixResult) -> dict[str, str]:
    """Name → value of everything that decides a run's figures but its code."""
    if isinstance(result, MatrixResult):
        summary, services, hit_ratio = summarize_matrix(result), None, None
    else:
        summary, services = summarize_ladder(result), _services(result.asked.full)
        hit_ratio = result.asked.mix.hit_ratio if result.asked.mix else None
    asked = result.asked
    conditions = result.measured_under
    machine = conditions.machine or Machine()
    found: dict[str, object] = {
        "kind": summary.kind,
        "services": services,
        "server": summary.server,
        "application": _applications(result),
        "concurrency": asked.concurrency,
        "seconds measured": asked.duration_s,
        "warm-up seconds": asked.warmup_s,
        "keep-alive": asked.keep_alive,
        "mix hit ratio": hit_ratio,
        "CPU": machine.cpu_model,
        "CPUs usable": machine.cpus_usable,
        "kernel": machine.kernel,
        "Python": conditions.python,
        "pinning": conditions.pinning,
    }
    for section, values in (conditions.server_settings or {}).items():
        for key, value in values.items():
            found[f"{section}.{key}"] = value
    for name, version in (conditions.server_versions or {}).items():
        found[f"{name} version"] = version
    return {name: _value(value) for name, value in found.items() if value is not None}


def _value(value: object) -> str:
    """A value in words, a list (a matrix's levels) as its JSON shows it: ``[10, 100]``."""
    return str(list(value)) if isinstance(value, tuple) else str(value)


def _applications(result: LadderResult | MatrixResult) -> str:
    """The applications that answered the run (the bare one where the document names none)."""
    if isinstance(result, MatrixResult):
        names = {column.app for column in result.columns}
    else:
        names = set(result.apps)
    return ", ".join(sorted(names)) or "bare"


def _services(full: bool | None) -> str:
    if full:
        return "--full (memcached, Redis, MariaDB, PostgreSQL)"
    return "embedded (SQLite, the in-process cache)"


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """``name: A's value vs B's`` of every condition both runs name with different values."""
    return [f"{name}: {a[name]} vs {b[name]}" for name in a if name in b and a[name] != b[name]]
