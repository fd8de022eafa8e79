"""Read-your-write across hosts, and the balancer's spread, measured from the client host.

Rounds, sequential: a write of ``version N`` (a PATCH of a video's title) through the first app
host (on Galera node 1), whose sweeper expires the video's pages; once it has returned, each of
the video's pages read twice through the last app host (on the last node): the first read
builds the page or finds it cached, the second finds it cached. A read showing an older version
than the one written (or no video at all) is stale. Where a stale read was built by that host
(``X-Cache: miss``: its node had not applied the write yet) it also put the stale page into the
cache: counted apart. Then requests through the front: how many each app host served (nginx's
``X-Upstream``).
"""

import json
import re
import time
from collections import Counter

from layerbench.cluster.cluster_result import ReadYourWrite
from layerbench.errors import LayerbenchError
from layerbench.proc.http_client import HttpResponse
from layerbench.proc.http_probe import http_request
from layerbench.servers.nginx_balancer import UPSTREAM_HEADER

VERSION = re.compile(rb"version (\d+)\b")
MAX_ROUNDS = 2000
# Rounds made however short the time: a per-host cache shows a stale page from round 2 on (the
# reader's host cached round 1's page), so fewer could not tell the conditions apart.
MIN_ROUNDS = 3
BALANCE_REQUESTS_PER_HOST = 20
TIMEOUT_S = 10.0
# Each page read twice a round: the second read is the page cache's (a hit, unless swept).
READS_PER_PAGE = 2


def header(response: HttpResponse, name: str) -> str:
    return next((v for k, v in response.headers.items() if k.lower() == name.lower()), "")


def request(url: str, method: str = "GET", document: object = None) -> HttpResponse:
    body = None if document is None else json.dumps(document).encode()
    response = http_request(
        url, method=method, body=body, content_type="application/json", timeout_s=TIMEOUT_S
    )
    if response.status >= 500 or (method != "GET" and response.status >= 300):
        raise LayerbenchError(f"{method} {url}: HTTP {response.status}: {response.body[:200]!r}")
    return response


def shown_version(response: HttpResponse) -> int:
    """The version a page shows; -1 for none (the node does not have the video yet)."""
    found = {int(number) for number in VERSION.findall(response.body)}
    if response.status == 404 or not found:
        return -1
    if len(found) != 1:
        raise LayerbenchError(f"a page shows versions {sorted(found)}")
    return found.pop()


def read_your_write(writer: str, reader: str, duration_s: float) -> ReadYourWrite:
    """Rounds of a write through ``writer`` (a base URL) and reads through ``reader`` for
    ``duration_s`` (at least MIN_ROUNDS, at most MAX_ROUNDS)."""
    created = request(
        f"{writer}/videos", "POST", {"title": "version 0", "url": "https://example.org/v"}
    )
    video = json.loads(created.body)["id"]
    paths = [f"/videos/{video}", f"/v/{video}"]
    rounds = reads = stale = cached = hits = 0
    deadline = time.monotonic() + duration_s
    while rounds < MIN_ROUNDS or (time.monotonic() < deadline and rounds < MAX_ROUNDS):
        rounds += 1
        request(f"{writer}{paths[0]}", "PATCH", {"title": f"version {rounds}"})
        for path in paths * READS_PER_PAGE:
            page = request(f"{reader}{path}")
            reads += 1
            cache = header(page, "X-Cache")
            hits += cache == "hit"
            if shown_version(page) < rounds:
                stale += 1
                cached += cache == "miss"
    return ReadYourWrite(video, rounds, reads, stale, cached, hits)


def balance(front: str, hosts: int) -> dict[str, int]:
    """Requests through ``front``, BALANCE_REQUESTS_PER_HOST per app host: how many each
    upstream (ADDRESS:PORT) served."""
    served: Counter[str] = Counter()
    for _ in range(BALANCE_REQUESTS_PER_HOST * hosts):
        served[header(request(f"{front}/videos"), UPSTREAM_HEADER)] += 1
    return dict(sorted(served.items()))
