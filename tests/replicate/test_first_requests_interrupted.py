"""The first requests' counts interrupted (layerbench/replicate/served_counts.py): the counts
already finished are handed on, the one in progress is ended at once and left out (not taken for
a failed count). The count of one target is quick, the other's waits on a real process that would
run for ten minutes, as a counted window waits on its load generator; the caller is interrupted
(Ctrl-C) once the quick one is done."""

import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from layerbench.errors import LoadGeneratorError
from layerbench.proc.process import ManagedProcess
from layerbench.replicate import served_counts
from layerbench.replicate.served_counts import FirstRequests, first_requests_counts
from layerbench.rungs.definitions import LADDER
from layerbench.served.served_columns import CountedTarget
from layerbench.typed_documents import JsonObject

SLEEP_S = 600


class _Started:
    """What the count reads of a deployment before it starts one: its URL; and a name."""

    base_url = "http://127.0.0.1:9"

    def __init__(self, name: str) -> None:
        self.name = name


def test_the_counts_finished_are_kept_and_the_one_in_progress_ends(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick_done = threading.Event()
    long_waiting = threading.Event()
    main = threading.main_thread().ident
    assert main is not None

    def count(
        deployment: Any, _counting: Any, _load: Any, directory: Path, *_: Any, **__: Any
    ) -> Any:
        if deployment.name == "quick":
            quick_done.set()
            return FirstRequests(5, 1000.0, {"accept4": 1.0}, 2)
        with ManagedProcess("load", ["sleep", str(SLEEP_S)], log_path=directory / "l.log") as load:
            long_waiting.set()
            if load.wait() != 0:  # as FixedLoad.send says of a load generator that failed
                raise LoadGeneratorError("layerbench-load failed")
        return FirstRequests(5, 2000.0, {}, 2)

    def interrupt() -> None:
        if quick_done.wait(60) and long_waiting.wait(60):
            signal.pthread_kill(main, signal.SIGINT)

    monkeypatch.setattr(served_counts, "count_first_requests", count)
    rung = next(rung for rung in LADDER if rung.name == "string")
    targets = []
    for name in ("quick", "long"):
        deployment = _Started(name)
        targets.append(CountedTarget(name, "gunicorn", deployment, rung, "bare"))  # type: ignore[arg-type]
    kept: list[JsonObject] = []
    interrupter = threading.Thread(target=interrupt)
    interrupter.start()
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            first_requests_counts(
                targets, workdir, requests=5, counts=2, client_cpus=None, told=print,
                kept=kept.append,
            )  # fmt: skip
    finally:
        quick_done.set()
        long_waiting.set()
        interrupter.join()
    assert time.monotonic() - began < SLEEP_S
    document: Any = kept[0]
    assert len(kept) == 1
    counts = document["first_requests"]["counts"]
    assert counts["long"] == []  # cut short: neither a count nor an error
    assert len(counts["quick"]) in (1, 2)  # its counts, those it finished before the stop
    assert counts["quick"][0]["instructions_per_request"] == 1000.0
