"""Several clients' runs at the same time, as one load document: what the load generators
measured together, in the schema of one client's (``load/schema/load-result.schema.json``),
the clients' own documents listed in its ``clients``.

- Counts, bytes and CPU seconds are summed; failures, statuses and errors by kind, key by key.
- ``elapsed_s`` is the longest client's: the documents hold no clock time at which each
  started, so their union window is not known; the clients are started together. The rates
  (``requests_per_s``, ``transfer_rate_bytes_per_s``, the open loop's ``achieved_per_s``) are
  the summed counts over it.
- Every histogram (the latency's, the uncorrected latency's, each phase's, each URL's) is the
  clients' added bucket by bucket, and its percentiles or median are read from the sum: those
  of every request of every client, never an average of percentiles
  (:mod:`layerbench.results.load_merge_latency`).
- ``by_url`` is merged by path, in the order the paths first appear.
- ``options`` are the first client's with ``concurrency``, ``threads`` and ``requests``
  summed; ``generator``, ``client_io_engine`` and the first response's figures (server,
  document length, TLS protocol) the first client's that has them.

Only documents with every histogram merge (version 3): a version 1 or 2 document's
percentiles cannot be added exactly, and is refused rather than averaged.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from layerbench.errors import LoadGeneratorError
from layerbench.results.load_merge_latency import merged_latency, merged_phase
from layerbench.results.load_result import SCHEMA_VERSION, LoadResult
from layerbench.stats import hdr_histogram
from layerbench.stats.hdr_histogram import HistogramEncodingError

Document = Mapping[str, Any]
PHASES = ("connect", "processing", "waiting")


def merge_loads(results: Sequence[LoadResult]) -> LoadResult:
    """The clients' results as one; its document lists theirs (``clients``)."""
    return LoadResult.from_document(merge_documents([result.document for result in results]))


def merge_documents(documents: Sequence[Document]) -> dict[str, Any]:
    """The clients' documents as one document of the same schema."""
    if not documents:
        raise LoadGeneratorError("no client's result to merge")
    for number, document in enumerate(documents, 1):
        if document.get("version") != SCHEMA_VERSION:
            raise LoadGeneratorError(
                f"client {number}'s result is JSON version {document.get('version')!r}, without "
                f"every histogram of version {SCHEMA_VERSION}: its percentiles cannot be merged "
                "exactly; install layerbench and its layerbench-load of one release (pip install "
                "--force-reinstall layerbench, or cargo install --path load from its clone)"
            )
        _check(number, document)
    try:
        return _merged(documents)
    except (KeyError, TypeError, HistogramEncodingError) as error:
        raise LoadGeneratorError(f"the clients' results do not merge: {error}") from None


# The figures of a client's document that the merge reads (besides version and clients).
READ = (
    "generator", "options", "server_software", "document_length_bytes", "elapsed_s",
    "requests_completed", "requests_failed", "non_2xx_responses", "keep_alive_requests",
    "stale_connection_retries", "failures", "status_counts", "errors_by_kind",
    "total_transferred_bytes", "html_transferred_bytes", "latency_us", "latency_histogram_us",
    "client_cpu_s", "connection_times_us", "connection_histograms_us", "sent_bytes",
    "client_busiest_thread_cpu_fraction", "client_io_engine", "rate", "latency_uncorrected_us",
    "latency_uncorrected_histogram_us", "tls", "by_url",
)  # fmt: skip


def _check(number: int, document: Document) -> None:
    """Client ``number``'s document has every figure the merge reads, and its histograms
    decode: else one line that names the client."""
    missing = [name for name in READ if name not in document]
    if missing:
        raise LoadGeneratorError(
            f"client {number}'s result has no {', '.join(map(repr, missing))}: not a "
            f"layerbench-load document of version {SCHEMA_VERSION}"
        )
    encoded = [document["latency_histogram_us"], document["latency_uncorrected_histogram_us"]]
    encoded += [url.get("latency_histogram_us") for url in document["by_url"]]
    encoded += dict(document["connection_histograms_us"]).values()
    try:
        for text in encoded:
            if text is not None:
                hdr_histogram.decode(text)
    except HistogramEncodingError as error:
        raise LoadGeneratorError(f"client {number}'s result: {error}") from None


def _merged(documents: Sequence[Document]) -> dict[str, Any]:
    elapsed_s = max(d["elapsed_s"] for d in documents)
    completed = _sum(documents, "requests_completed")
    transferred = _sum(documents, "total_transferred_bytes")
    latency_us, latency_histogram_us = merged_latency(
        [d["latency_us"] for d in documents], [d["latency_histogram_us"] for d in documents]
    )
    uncorrected = _open_loop(documents)
    phases = {
        name: merged_phase(
            [d["connection_times_us"][name] for d in documents],
            [d["connection_histograms_us"][name] for d in documents],
        )
        for name in PHASES
    }
    first = documents[0]
    return {
        "version": SCHEMA_VERSION,
        "generator": first["generator"],
        "options": _options(documents),
        "server_software": _first(documents, lambda d: d["server_software"]),
        "document_length_bytes": _first(documents, lambda d: d["document_length_bytes"]),
        "elapsed_s": elapsed_s,
        "requests_completed": completed,
        "requests_failed": _sum(documents, "requests_failed"),
        "non_2xx_responses": _sum(documents, "non_2xx_responses"),
        "keep_alive_requests": _sum(documents, "keep_alive_requests"),
        "stale_connection_retries": _sum(documents, "stale_connection_retries"),
        "failures": _counts(d["failures"] for d in documents),
        "status_counts": _counts(d["status_counts"] for d in documents),
        "errors_by_kind": _counts(d["errors_by_kind"] for d in documents),
        "total_transferred_bytes": transferred,
        "html_transferred_bytes": _sum(documents, "html_transferred_bytes"),
        "requests_per_s": _per_second(completed, elapsed_s),
        "transfer_rate_bytes_per_s": _per_second(transferred, elapsed_s),
        "latency_us": latency_us,
        "latency_histogram_us": latency_histogram_us,
        "client_cpu_s": {
            kind: sum(d["client_cpu_s"][kind] for d in documents) for kind in ("user", "system")
        },
        "connection_times_us": {name: summary for name, (summary, _) in phases.items()}
        | {"total": _total(latency_us)},
        "connection_histograms_us": {name: encoded for name, (_, encoded) in phases.items()},
        "sent_bytes": _sum(documents, "sent_bytes"),
        "client_busiest_thread_cpu_fraction": max(
            d["client_busiest_thread_cpu_fraction"] for d in documents
        ),
        "client_io_engine": first["client_io_engine"],
        "rate": _rate(documents, elapsed_s) if uncorrected else None,
        "latency_uncorrected_us": uncorrected[0] if uncorrected else None,
        "latency_uncorrected_histogram_us": uncorrected[1] if uncorrected else None,
        "tls": _tls(documents),
        "by_url": _by_url(documents),
        "clients": list(documents),
    }


def _sum(documents: Sequence[Document], name: str) -> int:
    return sum(int(d[name]) for d in documents)


def _counts(maps: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Maps of counts added key by key (a zero kept), keys in the order they first appear."""
    total: dict[str, int] = {}
    for counts in maps:
        for key, count in counts.items():
            total[key] = total.get(key, 0) + count
    return total


def _first(documents: Sequence[Document], figure: Callable[[Document], Any]) -> Any:
    return next((figure(d) for d in documents if figure(d) is not None), None)


def _per_second(count: int, elapsed_s: float) -> float:
    return count / elapsed_s if elapsed_s > 0 else 0.0


def _options(documents: Sequence[Document]) -> dict[str, Any]:
    each = [d["options"] for d in documents]
    requests = [o["requests"] for o in each]
    return dict(each[0]) | {
        "concurrency": sum(o["concurrency"] for o in each),
        "threads": sum(o["threads"] for o in each),
        "requests": None if None in requests else sum(requests),
    }


def _total(latency_us: Mapping[str, Any]) -> dict[str, Any]:
    """connection_times_us' total: the latency's figures, its median its p50."""
    names = ("min", "mean", "stdev", "median", "max")
    return {name: latency_us["p50" if name == "median" else name] for name in names}


def _open_loop(documents: Sequence[Document]) -> tuple[dict[str, Any], str] | None:
    """The uncorrected latency merged, for clients that all ran the open loop (``--rate``);
    None for clients that all ran the closed loop. A mix is not one load."""
    open_loop = [d["rate"] is not None for d in documents]
    if not any(open_loop):
        return None
    if not all(open_loop):
        raise LoadGeneratorError(
            "the clients ran open loops and closed loops (--rate and not): their latencies are not "
            "measured alike and do not merge"
        )
    return merged_latency(
        [d["latency_uncorrected_us"] for d in documents],
        [d["latency_uncorrected_histogram_us"] for d in documents],
    )


def _rate(documents: Sequence[Document], elapsed_s: float) -> dict[str, Any]:
    rates = [d["rate"] for d in documents]
    # Each client's requests sent: its achieved rate over its own interval.
    sent = sum(r["achieved_per_s"] * d["elapsed_s"] for r, d in zip(rates, documents, strict=True))
    return {
        "target_per_s": sum(r["target_per_s"] for r in rates),
        "achieved_per_s": _per_second(round(sent), elapsed_s),
        "scheduled_requests": sum(r["scheduled_requests"] for r in rates),
        "unsent_requests": sum(r["unsent_requests"] for r in rates),
        "late_starts": sum(r["late_starts"] for r in rates),
        "late_threshold_us": max(r["late_threshold_us"] for r in rates),
        "max_lateness_us": max(r["max_lateness_us"] for r in rates),
    }


def _tls(documents: Sequence[Document]) -> dict[str, Any] | None:
    each = [d["tls"] for d in documents if d["tls"] is not None]
    if not each:
        return None
    return {
        "protocol": next((t["protocol"] for t in each if t["protocol"]), None),
        "cipher_suite": next((t["cipher_suite"] for t in each if t["cipher_suite"]), None),
        "handshakes_full": sum(t["handshakes_full"] for t in each),
        "handshakes_resumed": sum(t["handshakes_resumed"] for t in each),
    }


def _by_url(documents: Sequence[Document]) -> list[dict[str, Any]]:
    """Each path's figures over the clients that requested it, in the order paths appear."""
    by_path: dict[str, list[Document]] = {}
    for document in documents:
        for url in document["by_url"]:
            by_path.setdefault(url["path"], []).append(url)
    merged = []
    for path, urls in by_path.items():
        latency_us, histogram = merged_latency(
            [u["latency_us"] for u in urls], [u["latency_histogram_us"] for u in urls]
        )
        merged.append(
            {
                "path": path,
                "weight": urls[0]["weight"],
                "requests_completed": _sum(urls, "requests_completed"),
                "requests_failed": _sum(urls, "requests_failed"),
                "document_length_bytes": _first(urls, lambda u: u["document_length_bytes"]),
                "latency_us": latency_us,
                "latency_histogram_us": histogram,
            }
        )
    return merged
