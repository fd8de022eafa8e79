"""What a stored ladder's or matrix's document holds of a rung's or a cell's trials, of a
mix's outcome, every version of them, as typed records read by
:func:`layerbench.typed_documents.decode` before they become results again
(:mod:`layerbench.results.saved_trials`, :mod:`layerbench.ladder.mix_result`).

A field added by a later version is optional here, and its absence means what that version's
reader says; a key no version wrote is ignored. A field of the wrong type is one line naming it:
``string: repeats[0].requests_per_s is at least 0, not -5``.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from layerbench.results.load_result import Count, CpuSeconds, Seconds, UrlCounts
from layerbench.results.trials import MAX_REPEATS
from layerbench.typed_documents import Bounds

Rate = Annotated[float, Bounds(low=0)]


@dataclass(frozen=True)
class ProcessRecord:
    pid: int
    name: str
    cpu_s: Seconds
    rss_bytes: Count
    pss_bytes: Count
    uss_bytes: Count
    host: str | None = None  # a run on a topology's


@dataclass(frozen=True)
class RoleRecord:
    """A role's processes over a trial (``cpu_percent`` and CPU per 1,000 requests: derived,
    and read only to recover what a document before ``usage_interval_s`` did not hold)."""

    cpu_s: Seconds = 0.0
    cpu_percent: Annotated[float, Bounds(low=0)] | None = None
    cpu_s_per_1000_requests: Annotated[float, Bounds(low=0)] | None = None
    processes: tuple[ProcessRecord, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class MeasuredRecord:
    """What a trial holds, each figure optional: a repeat's, or (the representative trial's,
    and before ``repeats`` the only one's) the rung's or the cell's own."""

    requests_per_s: Rate | None = None
    latency_us: dict[str, Annotated[float, Bounds(low=0)]] | None = None
    errors: Count | None = None
    other_cpu_percent: Annotated[float, Bounds(low=0)] | None = None
    steal_percent: Annotated[float, Bounds(low=0)] | None = None
    cpu_speed: float | None = None
    roles: dict[str, RoleRecord] | None = None
    usage_interval_s: Seconds | None = None
    sampler_cpu_percent: Annotated[float, Bounds(low=0)] | None = None
    client_cpu_s: Seconds | None = None
    # The load generator's JSON as it came (:class:`SavedLoad` is what is read of it): kept,
    # not typed here, since a re-export writes it back whole.
    load: Mapping[str, object] | None = None  # the load generator's own, read by SavedLoad


@dataclass(frozen=True, kw_only=True)
class RepeatRecord(MeasuredRecord):
    """One of ``repeats``: its rate is always there."""

    requests_per_s: Rate


Repeats = Annotated[tuple[RepeatRecord, ...], Bounds(most=MAX_REPEATS)]


@dataclass(frozen=True, kw_only=True)
class SavedItem(MeasuredRecord):
    """A ladder's rung or a matrix's cell as saved, what its trials are read from: its
    ``repeats`` (version 3 of the ladder's, 2 of the matrix's), else its own figures."""

    repeats: Repeats | None = None


@dataclass(frozen=True)
class SavedLoad:
    """What is read of a saved ``load`` (the load generator's JSON, any of its versions, or
    what a hand left of it): each figure optional, the trial's own where it is missing."""

    requests_completed: Count | None = None
    requests_failed: Count | None = None
    non_2xx_responses: Count | None = None
    elapsed_s: Seconds | None = None
    latency_us: dict[str, Annotated[float, Bounds(low=0)]] | None = None
    client_cpu_s: CpuSeconds | None = None
    errors_by_kind: dict[str, Count] | None = None
    status_counts: dict[str, Count] | None = None
    client_busiest_thread_cpu_fraction: Annotated[float, Bounds(low=0)] | None = None
    by_url: tuple[UrlCounts, ...] | None = None


@dataclass(frozen=True)
class MixRecord:
    """A ladder document's ``mix``: ``layerbench mix``'s prediction and measurement."""

    hit_ratio: float
    hit_rung: str
    miss_rung: str
    hit_requests_per_s: Rate
    miss_requests_per_s: Rate
    predicted_requests_per_s: float
    predicted_ci95: tuple[float, float]
    measured_requests_per_s: Rate
    measured_ci95: tuple[float, float]
    error: float
    error_ci95: tuple[float, float]
    measured_cv: float | None = None
    measured_hit_share: float | None = None
