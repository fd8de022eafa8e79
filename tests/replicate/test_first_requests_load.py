"""The load the first requests are sent with (layerbench/replicate/served_counts.py): at the
concurrency asked for (a matrix's first level), every request waiting up to FIRST_TIMEOUT_S
(children importing under callgrind take minutes), in the arguments the load generator is run
with. The count itself is tested against gunicorn in test_first_requests_wide.py."""

from pathlib import Path
from typing import Any

import pytest

from layerbench.replicate import served_counts
from layerbench.replicate.served_counts import FIRST_TIMEOUT_S, count_first_requests_repeatedly
from layerbench.rungs.definitions import LADDER
from layerbench.served.fixed_load import FixedLoad
from layerbench.served.served_columns import CountedTarget


class _Started:
    """What the first requests' count reads of a deployment before it starts one: its URL."""

    base_url = "http://127.0.0.1:9"


def test_the_first_requests_go_at_the_concurrency_asked_for(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[FixedLoad] = []

    def first_window(_deployment: Any, _counting: Any, load: FixedLoad, *_: Any, **__: Any) -> Any:
        sent.append(load)
        return served_counts.FirstRequests(1, 1.0, {}, 1)

    monkeypatch.setattr(served_counts, "count_first_requests", first_window)
    rung = next(rung for rung in LADDER if rung.name == "string")
    target = CountedTarget("lazy", "gunicorn", _Started(), rung, "django")  # type: ignore[arg-type]
    found = count_first_requests_repeatedly(
        [target], workdir, requests=5, counts=1, client_cpus=None, told=print, concurrency=100
    )
    assert len(found["lazy"]) == 1
    (load,) = sent
    assert load.concurrency == 100
    argv = load.argv(5, workdir / "load.json")
    assert argv[argv.index("-c") + 1] == "100"
    assert float(argv[argv.index("-s") + 1]) == FIRST_TIMEOUT_S
