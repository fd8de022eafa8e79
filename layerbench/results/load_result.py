"""What one run of the load generator measured, as the lab reads it: every figure the lab uses
as a typed field, and the whole document beside them (saved as it came, the ladder's and the
matrix's ``load``).

The JSON's contract is ``load/schema/load-result.schema.json`` (its ``version`` is checked
here). Version 2 added ``latency_histogram_us``, the latency histogram in HdrHistogram's
interchange encoding; version 3 every other latency histogram (uncorrected, each phase's,
each URL's) and ``clients`` (a merged document's: ``layerbench-load merge`` adds the
histograms, see :mod:`layerbench.lab.load_merge`). The lab reads the figures, never the
histograms. Versions 1 and 2 still read, without them. Version 1 has grown fields since its
first release; one that a document of then lacks reads as nothing seen (no errors by kind, no
statuses, an idle client, no URLs of its own).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from layerbench.errors import ConfigError, LoadGeneratorError
from layerbench.stats.noise import client_bound
from layerbench.typed_documents import Bounds, JsonObject, as_json, decode

BINARY = "layerbench-load"
SCHEMA_VERSION = 3
# The versions this layerbench reads: 2 is 3 without the histograms but the latency's, and
# without clients; 1 is 2 without the latency histogram.
READ_VERSIONS = (1, 2, 3)


@dataclass(frozen=True)
class LoadResult:
    requests_completed: int
    requests_failed: int
    non_2xx_responses: int
    elapsed_s: float
    # The successful responses' rate (2xx): the document's, less its share of other statuses
    # (ab's figure, the document's, counts every response: a database that died mid-run made
    # 1,299 req/s of which 664 were 500s).
    requests_per_s: float
    latency_us: dict[str, float]
    client_cpu_s: float
    # The load generator's JSON as it came (read into LoadDocument), saved whole.
    document: JsonObject
    # Failed requests by how they failed (ECONNRESET, timeout…), responses by status code.
    errors_by_kind: dict[str, int] = field(default_factory=dict)
    status_counts: dict[str, int] = field(default_factory=dict)
    # The client's busiest thread: its CPU time over its wall time.
    client_busiest_thread_cpu_fraction: float = 0.0
    # With --urls, each URL's completed requests, in the order of the list (else empty).
    requests_completed_by_url: tuple[int, ...] = ()
    # The latency histogram, HdrHistogram's V2 compressed base64 (None in a version 1 document).
    latency_histogram_us: str | None = None

    @property
    def errors(self) -> int:
        return self.requests_failed + self.non_2xx_responses

    @property
    def client_bound(self) -> bool:
        """The client's busiest thread may have been what limited the result."""
        return client_bound(self.client_busiest_thread_cpu_fraction)

    @property
    def errors_and_statuses(self) -> dict[str, int]:
        """Failed requests by how they failed, and non-2xx answers by status (``HTTP 503``)."""
        kinds = dict(self.errors_by_kind)
        for status, count in self.status_counts.items():
            if not status.startswith("2"):
                kinds[f"HTTP {status}"] = count
        return {kind: count for kind, count in kinds.items() if count}

    @classmethod
    def from_document(cls, document: Mapping[str, object]) -> "LoadResult":
        """The load generator's JSON, read into :class:`LoadDocument` (a field of the wrong
        type is a LoadGeneratorError naming it); ``document`` is kept as it came."""
        version = document.get("version")
        if version not in READ_VERSIONS:
            raise LoadGeneratorError(
                f"{BINARY} wrote JSON version {version!r}, this layerbench reads "
                f"versions {', '.join(map(str, READ_VERSIONS))}; install both of one release: "
                "pip install --force-reinstall layerbench (from a clone: make demo)"
            )
        try:
            read = decode(LoadDocument, document, f"{BINARY}'s JSON")
        except ConfigError as error:
            raise LoadGeneratorError(str(error)) from None
        cpu = read.client_cpu_s
        return cls(
            requests_completed=read.requests_completed,
            requests_failed=read.requests_failed,
            non_2xx_responses=read.non_2xx_responses,
            elapsed_s=read.elapsed_s,
            requests_per_s=read.successful_rate,
            latency_us=read.latency_us,
            client_cpu_s=cpu.user + cpu.system,
            document=as_json(document),
            errors_by_kind=read.errors_by_kind or {},
            status_counts=read.status_counts or {},
            client_busiest_thread_cpu_fraction=read.client_busiest_thread_cpu_fraction or 0.0,
            requests_completed_by_url=tuple(url.requests_completed for url in read.by_url or ()),
            latency_histogram_us=read.latency_histogram_us,
        )


Count = Annotated[int, Bounds(low=0)]
Seconds = Annotated[float, Bounds(low=0)]


@dataclass(frozen=True)
class CpuSeconds:
    user: Seconds
    system: Seconds


@dataclass(frozen=True)
class UrlCounts:
    requests_completed: Count


@dataclass(frozen=True)
class LoadDocument:
    """What the lab reads of the load generator's JSON, every version: its schema is
    ``load/schema/load-result.schema.json``; a field added since version 1 may be missing or
    null (nothing seen)."""

    version: int
    requests_completed: Count
    requests_failed: Count
    non_2xx_responses: Count
    elapsed_s: Seconds
    requests_per_s: Annotated[float, Bounds(low=0)]
    latency_us: dict[str, Annotated[float, Bounds(low=0)]]
    client_cpu_s: CpuSeconds
    errors_by_kind: dict[str, Count] | None = None
    status_counts: dict[str, Count] | None = None
    client_busiest_thread_cpu_fraction: Annotated[float, Bounds(low=0)] | None = None
    by_url: tuple[UrlCounts, ...] | None = None
    latency_histogram_us: str | None = None

    @property
    def successful_rate(self) -> float:
        """The req/s of 2xx responses only."""
        completed, other = self.requests_completed, self.non_2xx_responses
        if not other or not completed:
            return self.requests_per_s
        return self.requests_per_s * max(0, completed - other) / completed


class LoadFigures:
    """The figures a result shows of its load, ``None`` when it was not measured: for the
    frozen dataclasses that hold a ``load``."""

    load: LoadResult | None

    @property
    def requests_per_s(self) -> float | None:
        return self.load.requests_per_s if self.load else None

    @property
    def ms_per_request(self) -> float | None:
        """ab's "time per request, mean across all concurrent requests": 1000 / (req/s)."""
        rate = self.requests_per_s
        return 1000.0 / rate if rate else None

    def latency_ms(self, percentile: str) -> float | None:
        """``percentile`` as the load's JSON names it (p50, p99, p99_9…), in milliseconds."""
        if self.load is None or percentile not in self.load.latency_us:
            return None
        return self.load.latency_us[percentile] / 1000.0
