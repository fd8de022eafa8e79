"""A server whose readiness probes wait for their answer, while its first requests are counted.

Readiness probes the server about every second, each waiting a second. Where the probed path
runs a lazily loaded application, a probe left unanswered while a process imports it is
followed by another, which an idle process of the server takes and starts importing too: under
callgrind, where an import takes tens of seconds, Apache's twenty children all imported Django
before the first request was counted (or the start gave up), and how many did depended on the
machine's speed. A probe that waits PATIENT_PROBE_S instead is answered by the one process that
took it: one import before the count, every other process's in it."""

from collections.abc import Iterator
from contextlib import contextmanager

from layerbench.served.counted_launch import servers_of
from layerbench.servers.deployment import Deployment

# Less than a counted start's cap without progress (its native cap, 300 s, and more).
PATIENT_PROBE_S = 240.0


@contextmanager
def patient_probes(deployment: Deployment) -> Iterator[None]:
    """Within: each of ``deployment``'s servers probed patiently as it starts."""
    servers = [server for _, server in servers_of(deployment)]
    for server in servers:
        server.probe_timeout_s = PATIENT_PROBE_S
    try:
        yield
    finally:
        for server in servers:
            server.__dict__.pop("probe_timeout_s", None)
