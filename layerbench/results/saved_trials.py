"""A rung's or a cell's trials read back from a saved document, whatever its version: what the
document holds of each trial becomes a :class:`Trial` again.

The representative trial (the one whose latency and costs the rung shows, by the rule of
:mod:`layerbench.stats.median`) has the whole load generator's result (the item's ``load``) and
the rung's roles; the others have what ``repeats`` holds of them:
req/s, latency, errors, each role's CPU and memory, the rest of the machine's CPU, the steal,
the CPU speed; a trial's completed requests are its roles' CPU seconds over their CPU per
1,000 requests. A figure a document does not hold reads as not seen: a load with no count of
completed requests, a usage with no role. The sampled interval (``usage_interval_s``, added
without a version change) is derived from a role's CPU seconds and percent in documents from
before it.
"""

from typing import Any

from layerbench.documents import number, sequence
from layerbench.errors import ConfigError
from layerbench.results.load_result import LoadResult
from layerbench.results.trials import MAX_REPEATS, Trial
from layerbench.results.usage import ProcessUsage, RoleUsage, Usage
from layerbench.stats.median import representative_index


def read_trials(item: dict[str, Any]) -> tuple[Trial, ...]:
    """A ladder's rung's or a matrix's cell's trials, in the order they ran: its ``repeats``,
    else (before repeats, or with one) the item itself as its one trial; none when the item
    was not measured."""
    where = f"{item.get('rung') or item.get('column') or 'a rung'}: repeats"
    try:
        given = sequence(item.get("repeats") or [], where, most=MAX_REPEATS)
        repeats = [trial for trial in given if isinstance(trial, dict)]
        if not repeats:
            if item.get("requests_per_s") is None:
                return ()
            repeats = [item]
        # A rate is a finite number of 0 or more: true, -5 or a string is not one.
        rates = [
            float(number(trial.get("requests_per_s"), f"{where}[{i}].requests_per_s", low=0))
            for i, trial in enumerate(repeats)
        ]
    except ConfigError as error:
        raise ValueError(str(error)) from None  # a wrong field, as the reader says of each
    shown = representative_index(rates)
    return tuple(
        _trial({**trial, **_shown(item)} if i == shown else trial)
        for i, trial in enumerate(repeats)
    )


def _shown(item: dict[str, Any]) -> dict[str, Any]:
    """What only the item holds of its representative trial: the whole load result, the sampler's
    own cost (and, in a document before repeats, the rest)."""
    return {
        key: item[key]
        for key in (
            "load",
            "client_cpu_s",
            "sampler_cpu_percent",
            "roles",
            "usage_interval_s",
        )
        if item.get(key) is not None
    }


def _trial(trial: dict[str, Any]) -> Trial:
    cpu_speed = trial.get("cpu_speed")
    return Trial(
        _load(trial),
        _usage(trial),
        None if cpu_speed is None else float(cpu_speed),
    )


def _load(trial: dict[str, Any]) -> LoadResult:
    """The load generator's result as saved with the trial; the figures of ``repeats`` where
    it was not (a trial other than the representative one, a document edited by hand)."""
    whole = trial.get("load") or {}
    rate = float(trial["requests_per_s"])
    latency = whole.get("latency_us") or trial.get("latency_us") or {}
    errors = int(trial.get("errors") or 0)
    failed = whole.get("requests_failed")
    by_url = whole.get("by_url") or ()
    cpu = whole.get("client_cpu_s")
    return LoadResult(
        requests_completed=int(whole.get("requests_completed") or _completed(trial)),
        requests_failed=errors if failed is None else int(failed),
        non_2xx_responses=0 if failed is None else int(whole.get("non_2xx_responses") or 0),
        elapsed_s=float(whole.get("elapsed_s") or 0.0),
        requests_per_s=rate,
        latency_us={key: float(value) for key, value in latency.items()},
        client_cpu_s=(
            float(cpu["user"]) + float(cpu["system"])
            if isinstance(cpu, dict)
            else float(trial.get("client_cpu_s") or 0.0)
        ),
        document=whole,
        errors_by_kind=dict(whole.get("errors_by_kind") or {}),
        status_counts=dict(whole.get("status_counts") or {}),
        client_busiest_thread_cpu_fraction=float(
            whole.get("client_busiest_thread_cpu_fraction") or 0.0
        ),
        requests_completed_by_url=tuple(int(url["requests_completed"]) for url in by_url),
    )


def _completed(trial: dict[str, Any]) -> int:
    """A trial's completed requests, from a role's CPU seconds and its CPU per 1,000 requests
    (a whole number: rounding undoes the division); 0 when no role says."""
    for role in (trial.get("roles") or {}).values():
        per_1000 = role.get("cpu_s_per_1000_requests")
        if per_1000:
            return round(1000 * float(role["cpu_s"]) / float(per_1000))
    return 0


def _usage(trial: dict[str, Any]) -> Usage:
    roles_saved: dict[str, Any] = trial.get("roles") or {}
    interval = _interval(trial, roles_saved)
    roles = {
        name: RoleUsage(
            name,
            tuple(
                ProcessUsage(
                    int(process["pid"]),
                    str(process["name"]),
                    name,
                    float(process["cpu_s"]),
                    int(process["rss_bytes"]),
                    int(process["pss_bytes"]),
                    int(process["uss_bytes"]),
                    process.get("host"),
                )
                for process in role.get("processes") or ()
            ),
            interval,
        )
        for name, role in roles_saved.items()
    }
    sampler = float(trial.get("sampler_cpu_percent") or 0.0)
    ours = sum(role.cpu_s for role in roles.values()) + sampler * interval / 100
    other = float(trial.get("other_cpu_percent") or 0.0)
    steal = float(trial.get("steal_percent") or 0.0)
    return Usage(
        roles,
        interval,
        0,
        sampler,
        machine_cpu_s=ours + other * interval / 100,
        steal_s=steal * interval / 100,
    )


def _interval(trial: dict[str, Any], roles: dict[str, Any]) -> float:
    """The sampled interval: saved, else a role's CPU seconds over its share of a core."""
    if trial.get("usage_interval_s") is not None:
        return float(trial["usage_interval_s"])
    for role in roles.values():
        if role.get("cpu_percent"):
            return 100 * float(role["cpu_s"]) / float(role["cpu_percent"])
    load = trial.get("load") or {}
    return float(load.get("elapsed_s") or 0.0)
