"""The cluster's writers through the site's HTTP API: ``writers`` threads on the client host, each
writing through nginx's front (least_conn over the app hosts, app host i on Galera node i).

Writer i's write j: every ``edit_every``-th an edit of the one shared video (a PUT of it with
a description of the writer's own: the conflicts' source), else by turns a PUT of a new video
or of a new comment on the shared video (its body the writer's own: ``writer-i #j``), each under
a short id the writer draws (:func:`~layerbench_sites.ids.generate.new_id`).

Every write is a PUT, idempotent (the same id, the same body: doing it twice is doing it once),
so a write that failed — a 409, a 5xx, no answer (a reset connection, a timeout) — is sent again
as it was, up to MAX_CLIENT_ATTEMPTS in all: the client's re-tries, counted. A write still
failing after those is given up (there at most once on the nodes: its id is its own).
The site's own re-runs of a transaction (error 1213) are summed from its answers'
``X-Write-Attempts``; which app host served each answer from nginx's ``X-Upstream``.
"""

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from http.client import HTTPException

from layerbench.cluster.cluster_reads import header
from layerbench.errors import LayerbenchError
from layerbench.proc.http_client import HttpResponse
from layerbench.proc.http_probe import http_request
from layerbench.proc.threads_together import run_together
from layerbench.servers.nginx_balancer import UPSTREAM_HEADER
from layerbench.site_contract import WRITE_ATTEMPTS_HEADER
from layerbench.sites import new_id

MAX_CLIENT_ATTEMPTS = 5
CLIENT_RETRY_PAUSE_S = 0.05
TIMEOUT_S = 30.0
START_LIMIT_S = 60.0
SHARED_TITLE = "the shared video"


@dataclass
class HttpTally:
    """What the writers did, every figure summed over them (each writer adds under a lock)."""

    # Committed: each new video's id, each comment's body by its id, each edit's description
    # with how many times it was sent (a re-sent edit is made again when another writer's edit
    # came between: up to once a sending).
    video_ids: list[str] = field(default_factory=list)
    comments: dict[str, str] = field(default_factory=dict)
    edits: dict[str, int] = field(default_factory=dict)
    site_retries: int = 0  # the site's transactions run again (X-Write-Attempts - 1)
    client_retries: int = 0  # PUTs sent again by the client
    gave_up: int = 0  # PUTs still failing after MAX_CLIENT_ATTEMPTS
    id_collisions: int = 0  # a new entity's first PUT finding the id taken (answered 200)
    served: Counter[str] = field(default_factory=Counter)  # answers per app host

    @property
    def writes(self) -> int:
        return len(self.video_ids) + len(self.comments) + len(self.edits)


@dataclass(frozen=True)
class HttpWrites:
    shared_video: str
    tally: HttpTally
    elapsed_s: float

    @property
    def writes_per_s(self) -> float:
        return self.tally.writes / self.elapsed_s


class Writer:
    """One writer's requests through ``front``, counted into ``tally`` under ``lock``."""

    def __init__(self, front: str, tally: HttpTally, lock: threading.Lock) -> None:
        self.front = front
        self.tally = tally
        self.lock = lock

    def send(self, method: str, path: str, document: object) -> HttpResponse | None:
        """One request; its answer (counted), or None when there was none."""
        try:
            response = http_request(
                f"{self.front}{path}",
                method=method,
                body=json.dumps(document).encode(),
                content_type="application/json",
                timeout_s=TIMEOUT_S,
            )
        except (OSError, HTTPException):
            return None
        attempts = header(response, WRITE_ATTEMPTS_HEADER)
        with self.lock:
            self.tally.site_retries += max(0, int(attempts or 1) - 1)
            self.tally.served[header(response, UPSTREAM_HEADER)] += 1
        if 400 <= response.status < 500 and response.status != 409:
            raise LayerbenchError(f"{method} {path}: HTTP {response.status}: {response.body!r}")
        return response

    def put(self, path: str, document: object) -> tuple[HttpResponse | None, int]:
        """The PUT until it succeeds (sent again, as it was, after a failure), and how many
        times it was sent; no answer after MAX_CLIENT_ATTEMPTS failures."""
        for attempt in range(MAX_CLIENT_ATTEMPTS):
            if attempt:
                with self.lock:
                    self.tally.client_retries += 1
                time.sleep(CLIENT_RETRY_PAUSE_S * attempt)
            response = self.send("PUT", path, document)
            if response is not None and response.status < 300:
                return response, attempt + 1
        with self.lock:
            self.tally.gave_up += 1
        return None, MAX_CLIENT_ATTEMPTS

    def put_new(self, collection: str, document: object) -> str | None:
        """A PUT of a new entity of ``collection`` under an id drawn here: the id once it
        succeeded, None when it was given up."""
        identifier = new_id()
        response, sent = self.put(f"{collection}/{identifier}", document)
        if response is None:
            return None
        with self.lock:
            # A 200 (not created) to the first PUT of a fresh id: the id was someone else's.
            # After a failed attempt it may be that attempt's own write (committed, unanswered).
            self.tally.id_collisions += response.status == 200 and sent == 1
        return identifier

    def new_video(self, title: str) -> None:
        identifier = self.put_new("/videos", {"title": title, "url": None})
        if identifier is not None:
            with self.lock:
                self.tally.video_ids.append(identifier)

    def comment(self, video: str, body: str) -> None:
        identifier = self.put_new(f"/videos/{video}/comments", {"name": "w", "body": body})
        if identifier is not None:
            with self.lock:
                self.tally.comments[identifier] = body

    def edit(self, video: str, description: str) -> None:
        document = {"title": SHARED_TITLE, "url": None, "description": description}
        response, sent = self.put(f"/videos/{video}", document)
        if response is not None:
            with self.lock:
                self.tally.edits[description] = sent


def one_writer(
    number: int, writes: int, edit_every: int, video: str, writer: Writer, *, stop: threading.Event
) -> None:
    for index in range(writes):
        if stop.is_set():
            return
        name = f"writer-{number} #{index}"
        if edit_every and index % edit_every == edit_every - 1:
            writer.edit(video, f"edited by {name}")
        elif index % 2 == 0:
            writer.new_video(f"video of {name}")
        else:
            writer.comment(video, name)


def run_http_writers(
    front: str,
    writers: int,
    writes_each: int,
    edit_every: int,
    inside: Callable[[], AbstractContextManager[None]],
) -> HttpWrites:
    """``writers`` threads, started together, each entering the client host (``inside()``, a
    context manager) and making ``writes_each`` writes through ``front``. The first error
    other than a failed write (a refused request: the site or this code is wrong) is raised.
    Interrupted (Ctrl-C), the writers stop after the write they are making, and are waited
    for, before the interruption goes on."""
    shared = new_id()
    tally, lock = HttpTally(), threading.Lock()
    setup = Writer(front, tally, lock)
    with inside():
        if setup.put(f"/videos/{shared}", {"title": SHARED_TITLE, "url": None})[0] is None:
            raise LayerbenchError(f"PUT /videos/{shared}: no success in {MAX_CLIENT_ATTEMPTS}")
    tally.served.clear()
    tally.site_retries = tally.client_retries = 0

    def write(number: int, start: Callable[[], object], stop: threading.Event) -> None:
        with inside():
            start()
            writer = Writer(front, tally, lock)
            one_writer(number, writes_each, edit_every, shared, writer, stop=stop)

    elapsed_s = run_together(writers, write, start_limit_s=START_LIMIT_S)
    return HttpWrites(shared, tally, elapsed_s)
