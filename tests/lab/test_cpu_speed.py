"""The CPU speed probe: a rate on the CPUs asked for, this thread's affinity left as it was."""

import os

from layerbench.lab.cpu_speed import probe_cpu_speed


def test_the_probe_runs_on_the_cpus_given_and_restores_the_affinity() -> None:
    before = os.sched_getaffinity(0)
    first = min(before)
    speed = probe_cpu_speed(frozenset({first}))
    assert speed > 0
    assert os.sched_getaffinity(0) == before
    assert probe_cpu_speed(None) > 0
    assert os.sched_getaffinity(0) == before
