"""A rung's or a cell's trials read back from a saved document, whatever its version: what the
document holds of each trial (:class:`~layerbench.results.run_records.MeasuredRecord`, typed
and checked when read) becomes a :class:`Trial` again.

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

import dataclasses
from collections.abc import Mapping

from layerbench.errors import ConfigError
from layerbench.results.load_result import LoadResult
from layerbench.results.run_records import MeasuredRecord, RoleRecord, SavedItem, SavedLoad
from layerbench.results.trials import Trial
from layerbench.results.usage import ProcessUsage, RoleUsage, Usage
from layerbench.stats.median import representative_index
from layerbench.typed_documents import as_json, decode, decode_at

# What only the item holds of its representative trial: the whole load result, the sampler's
# own cost (and, in a document before repeats, the rest).
SHOWN = ("load", "client_cpu_s", "sampler_cpu_percent", "roles", "usage_interval_s")


def read_trials(item: Mapping[str, object]) -> tuple[Trial, ...]:
    """A ladder's rung's or a matrix's cell's trials (the item as its document holds it, JSON
    just parsed), in the order they ran: its ``repeats``, else (before repeats, or with one)
    the item itself as its one trial; none when the item was not measured. A field of the wrong
    type is a ConfigError naming the item and the field."""
    where = str(item.get("rung") or item.get("column") or "a rung")
    try:
        saved = decode(SavedItem, item, where)
    except ConfigError as error:
        raise ValueError(str(error)) from None  # a wrong field, as the reader says of each
    repeats: list[MeasuredRecord] = list(saved.repeats or ())
    if not repeats:
        if saved.requests_per_s is None:
            return ()
        repeats = [saved]
    rates = [_rate(trial) for trial in repeats]
    shown = representative_index(rates)
    own = {key: getattr(saved, key) for key in SHOWN if getattr(saved, key) is not None}
    return tuple(
        _trial(dataclasses.replace(trial, **own) if i == shown else trial, where)
        for i, trial in enumerate(repeats)
    )


def _rate(trial: MeasuredRecord) -> float:
    assert trial.requests_per_s is not None  # a repeat's is required; an item's was checked
    return trial.requests_per_s


def _trial(trial: MeasuredRecord, where: str) -> Trial:
    try:
        saved = decode_at(SavedLoad, trial.load or {}, f"{where}: load")
    except ConfigError as error:
        raise ValueError(str(error)) from None
    return Trial(_load(trial, saved), _usage(trial, saved.elapsed_s or 0.0), trial.cpu_speed)


def _load(trial: MeasuredRecord, saved: SavedLoad) -> LoadResult:
    """The load generator's result as saved with the trial; the figures of ``repeats`` where
    it was not (a trial other than the representative one, a document edited by hand)."""
    whole = trial.load or {}
    errors = trial.errors or 0
    failed = saved.requests_failed
    cpu = saved.client_cpu_s
    return LoadResult(
        requests_completed=saved.requests_completed or _completed(trial),
        requests_failed=errors if failed is None else failed,
        non_2xx_responses=0 if failed is None else saved.non_2xx_responses or 0,
        elapsed_s=saved.elapsed_s or 0.0,
        requests_per_s=_rate(trial),
        latency_us=dict(saved.latency_us or trial.latency_us or {}),
        client_cpu_s=cpu.user + cpu.system if cpu else trial.client_cpu_s or 0.0,
        document=as_json(whole),
        errors_by_kind=dict(saved.errors_by_kind or {}),
        status_counts=dict(saved.status_counts or {}),
        client_busiest_thread_cpu_fraction=saved.client_busiest_thread_cpu_fraction or 0.0,
        requests_completed_by_url=tuple(url.requests_completed for url in saved.by_url or ()),
    )


def _completed(trial: MeasuredRecord) -> int:
    """A trial's completed requests, from a role's CPU seconds and its CPU per 1,000 requests
    (a whole number: rounding undoes the division); 0 when no role says."""
    for role in (trial.roles or {}).values():
        if role.cpu_s_per_1000_requests:
            return round(1000 * role.cpu_s / role.cpu_s_per_1000_requests)
    return 0


def _usage(trial: MeasuredRecord, elapsed_s: float) -> Usage:
    saved = trial.roles or {}
    interval = _interval(trial, saved, elapsed_s)
    roles = {
        name: RoleUsage(
            name,
            tuple(
                ProcessUsage(
                    process.pid,
                    process.name,
                    name,
                    process.cpu_s,
                    process.rss_bytes,
                    process.pss_bytes,
                    process.uss_bytes,
                    process.host,
                )
                for process in role.processes or ()
            ),
            interval,
        )
        for name, role in saved.items()
    }
    sampler = trial.sampler_cpu_percent or 0.0
    ours = sum(role.cpu_s for role in roles.values()) + sampler * interval / 100
    other = trial.other_cpu_percent or 0.0
    steal = trial.steal_percent or 0.0
    return Usage(
        roles,
        interval,
        0,
        sampler,
        machine_cpu_s=ours + other * interval / 100,
        steal_s=steal * interval / 100,
    )


def _interval(trial: MeasuredRecord, roles: dict[str, RoleRecord], elapsed_s: float) -> float:
    """The sampled interval: saved, else a role's CPU seconds over its share of a core, else
    the load's elapsed time."""
    if trial.usage_interval_s is not None:
        return trial.usage_interval_s
    for role in roles.values():
        if role.cpu_percent:
            return 100 * role.cpu_s / role.cpu_percent
    return elapsed_s
