"""The cluster's HTTP writer on its own, against the real site (``app serve`` on SQLite) on
loopback: a PUT sent again is safe (the second answer a 200, the video and its audit row there
once); a PUT that gets no answer is sent again up to MAX_CLIENT_ATTEMPTS times, each re-try
counted, then counted given up, a comment's as a video's; a write the site refuses as invalid
is an error, not a failed write; writers interrupted (Ctrl-C) stop, and are waited for, before
the interruption goes on."""

import contextlib
import signal
import threading
from collections.abc import Iterator

import pytest

from layerbench.cluster.cluster_http_writes import (
    MAX_CLIENT_ATTEMPTS,
    HttpTally,
    Writer,
    run_http_writers,
)
from layerbench.errors import LayerbenchError
from layerbench.proc.ports import free_port
from layerbench_sites.datalayer.open_repository import open_repository
from layerbench_sites.ids.generate import new_id
from tests.app_serve_process import Serving, app_serve


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Serving, str]]:
    url = str(tmp_path_factory.mktemp("site") / "site.sqlite3")
    with app_serve("--db", url, "--cache", "none", "--no-demo-data") as serving:
        yield serving, url


def test_a_put_sent_again_is_written_once(site: tuple[Serving, str]) -> None:
    serving, url = site
    writer = Writer(serving.base_url, HttpTally(), threading.Lock())
    identifier = new_id()
    document = {"title": "sent twice", "url": None}
    first, _ = writer.put(f"/videos/{identifier}", document)
    again, _ = writer.put(f"/videos/{identifier}", document)
    assert first is not None and again is not None
    assert (first.status, again.status) == (201, 200)
    repository = open_repository(url)
    try:
        changes = repository.history("videos", identifier)
    finally:
        repository.connection.close()
    assert [change.operation for change in changes] == ["insert"]
    assert writer.tally.site_retries == 0 and writer.tally.client_retries == 0


def test_a_put_without_an_answer_is_sent_again_then_given_up() -> None:
    nobody = f"http://127.0.0.1:{free_port()}"
    writer = Writer(nobody, HttpTally(), threading.Lock())
    response, sent = writer.put(f"/videos/{new_id()}", {"title": "t", "url": None})
    assert (response, sent) == (None, MAX_CLIENT_ATTEMPTS)
    assert (writer.tally.client_retries, writer.tally.gave_up) == (MAX_CLIENT_ATTEMPTS - 1, 1)


def test_a_comment_without_an_answer_is_sent_again_then_given_up() -> None:
    nobody = f"http://127.0.0.1:{free_port()}"
    writer = Writer(nobody, HttpTally(), threading.Lock())
    writer.comment(new_id(), "a comment")
    tally = writer.tally
    assert (tally.client_retries, tally.gave_up) == (MAX_CLIENT_ATTEMPTS - 1, 1)
    assert tally.comments == {}


def test_a_refused_write_is_an_error_not_a_failure(site: tuple[Serving, str]) -> None:
    serving, _ = site
    writer = Writer(serving.base_url, HttpTally(), threading.Lock())
    with pytest.raises(LayerbenchError, match="HTTP 422"):
        writer.put(f"/videos/{new_id()}", {"url": None})


def test_interrupted_writers_stop_before_the_interruption_goes_on(
    site: tuple[Serving, str],
) -> None:
    serving, _ = site
    main = threading.main_thread().ident
    assert main is not None
    before = set(threading.enumerate())
    # Ctrl-C once the writers are under way: far more writes each than they can make by then.
    timer = threading.Timer(1.0, signal.pthread_kill, (main, signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_http_writers(serving.base_url, 3, 100_000, 4, contextlib.nullcontext)
    finally:
        timer.cancel()
    assert [thread for thread in set(threading.enumerate()) - before if thread is not timer] == []
