"""The served cost end to end: gunicorn (one sync worker) on the string rung, started natively
with strace attached, then under callgrind, two windows of requests counted. The one test of the
default suite that runs callgrind on a server. Its system calls over several starts are told
apart on made-up counts (test_start_dependent_calls.py), and on real ones by make test-wide
(test_served_wide.py, three starts each)."""

from pathlib import Path

from layerbench.served.served_cost import measure_served
from layerbench.served.served_counting import counting_for
from layerbench.served.served_windows import Windows
from tests.served_deployments import SHORTEST_S, served_deployment


def test_gunicorn_counted_by_role(workdir: Path) -> None:
    deployment, load = served_deployment("gunicorn", workdir, {"gunicorn": {"workers": "1"}})
    cost = measure_served(
        deployment,
        counting_for("gunicorn"),
        load,
        workdir / "served",
        Windows(20, 60, 10, min_seconds=SHORTEST_S, starts=1),
    )
    assert cost.processes == {"server": 1, "application": 1}
    worker = cost.instructions_per_request["application"]
    arbiter = cost.instructions_per_request["server"]
    # The arbiter never touches a request: what it counts is its own timer's work, once a
    # second, in both windows alike: within its uncertainty of zero, shown as 0.
    assert abs(arbiter) < worker / 100
    assert cost.within_uncertainty("server")
    assert cost.shown_instructions("server") == 0
    assert cost.idle_instructions_per_second["server"] > 0
    assert cost.total_instructions == worker
    calls = cost.syscalls_per_request["application"]
    # The sync worker: a connection per request, accepted, read, answered, closed.
    assert calls["accept4"] >= 1
    assert calls["recvfrom"] >= 1
    assert calls["sendto"] >= 1
    assert calls["close"] >= 1
    assert cost.total_syscalls("server") < 1
    # The start's figures kept; a call made once per request not marked as timing.
    assert len(cost.syscalls_per_start) == 1
    assert cost.syscalls_per_start[0]["application"]["sendto"] >= 1
    assert "sendto" not in cost.timing_calls["application"]
    assert cost.conditions is not None
    assert cost.conditions.windows_requests == [20, 60]
    assert cost.conditions.address_randomisation == "off (setarch -R)"
