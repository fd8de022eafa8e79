"""nginx in front of uWSGI: the front's extra hop shows in its system calls, counted by strace
over two windows of requests (natively: no callgrind)."""

from pathlib import Path

from layerbench.served.served_counting import counting_for
from layerbench.served.served_windows import Windows, count_syscalls
from tests.served_deployments import SHORTEST_S, served_deployment


def test_nginx_in_front_makes_the_proxy_hop_calls(workdir: Path) -> None:
    deployment, load = served_deployment(
        "uwsgi-nginx", workdir, {"uwsgi-nginx": {"processes": "1"}}
    )
    with deployment:
        counting = counting_for("uwsgi-nginx")
        processes, by_load = count_syscalls(
            deployment,
            counting,
            {"string": load},
            workdir / "strace",
            Windows(50, 150, min_seconds=SHORTEST_S),
        )
    assert processes.present_roles() == ["front", "server", "application"]
    calls = by_load["string"].per_request
    front = calls["front"]
    # Per request, nginx connects to uWSGI's socket, sends it the request and reads its answer,
    # beside what it does with the client's connection (kept alive: no accept per request).
    assert front["connect"] >= 0.99
    assert front.get("writev", 0) + front.get("sendto", 0) + front.get("write", 0) >= 1.99
    assert front.get("accept4", 0) < 0.1
    application = calls["application"]
    assert application["accept4"] >= 0.99  # uWSGI's worker: a connection from nginx per request
