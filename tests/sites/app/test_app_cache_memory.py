"""The in-process page cache under gunicorn (as ``layerbench app serve`` runs it) stays bounded
in bytes, however many spellings of a query a client sends: a page is kept under its canonical
query (the parameters the resource reads, as it read them), a query with any other parameter is
not kept, and the cache drops its least recently used pages past its bound."""

import http.client
import itertools
from pathlib import Path

from layerbench_sites.app.app_config import CACHE_MAX_BYTES_VARIABLE
from tests.gunicorn_site import gunicorn_site
from tests.proc_scan import resident_bytes

VIDEOS = 50
# About 12 KB a video, as in the report: the longest description and a long URL.
DESCRIPTION_BYTES = 10_000
URL = "https://example.org/" + "u" * 1_980
GETS = 2_000
CACHE_MAX_BYTES = 8 * 1024 * 1024
# The worker may grow by its cache's bound and as much again (the allocator's slack, the
# pages being built and sent); without a bound in bytes it grew by a page (~0.6 MB) per query.
GROWTH_LIMIT_BYTES = 3 * CACHE_MAX_BYTES + 24 * 1024 * 1024
CHECK_EVERY = 100


def distinct_queries() -> list[str]:
    """2,000 different query strings for pages of 31 to 50 of the large videos: 400 pages truly
    distinct, their queries spelled otherwise (a leading zero, a parameter twice), and an
    unknown parameter."""
    pairs = list(itertools.product(range(20), range(VIDEOS - 19, VIDEOS + 1)))  # offset, limit
    queries = [f"offset={offset}&limit={limit}" for offset, limit in pairs]
    queries += [f"offset=0{offset}&limit={limit}" for offset, limit in pairs]
    queries += [f"limit={limit}&offset={offset}&limit={limit}" for offset, limit in pairs]
    queries += [f"limit=100&bust={n}" for n in range(GETS - len(queries))]
    assert len(set(queries)) == GETS
    return queries


def test_a_flood_of_distinct_queries_leaves_the_worker_within_its_bound(tmp_path: Path) -> None:
    environment = {CACHE_MAX_BYTES_VARIABLE: str(CACHE_MAX_BYTES)}
    with gunicorn_site(tmp_path, environment) as site:
        for number in range(VIDEOS):
            video = {
                "title": f"video {number:03}",
                "url": URL,
                "description": "d" * DESCRIPTION_BYTES,
            }
            assert site.client.request("POST", "/videos", video).status == 201
        worker = site.worker()
        connection = http.client.HTTPConnection("127.0.0.1", site.server.port, timeout=30)
        try:
            connection.request("GET", "/videos?limit=100")
            first = connection.getresponse()
            assert first.status == 200 and len(first.read()) > VIDEOS * DESCRIPTION_BYTES
            before = resident_bytes(worker)
            largest = 0
            for count, query in enumerate(distinct_queries(), 1):
                connection.request("GET", f"/videos?{query}")
                response = connection.getresponse()
                assert response.status == 200, response.read()
                response.read()
                if count % CHECK_EVERY == 0:
                    largest = max(largest, resident_bytes(worker) - before)
                    assert largest < GROWTH_LIMIT_BYTES, (count, largest)
        finally:
            connection.close()
    print(f"the worker grew by {largest / 2**20:.0f} MiB at most")
