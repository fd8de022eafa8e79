"""The process sampler against real processes: CPU goes to the role whose session used it, a
worker forked during the interval is counted, and forked workers share their memory in PSS."""

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from layerbench.hosts.lab_network import lab_network
from layerbench.hosts.topology import topology_from
from layerbench.lab.host_sampler import host_namespaces
from layerbench.lab.sampler import Sampler, read_memory, read_stat

MIB = 1024 * 1024
SPIN_S = 1.5
# /proc's CPU times are in clock ticks (1/100 s), the machine's summed over its CPUs.
TICKS_S = 0.05


def cpu_s(pid: int) -> float:
    stat = read_stat(pid)
    assert stat is not None, pid
    return stat.cpu_s


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := read_stat(int(entry))) is not None and stat.ppid == pid:
            found.append(stat.pid)
    return found


@contextmanager
def child(code: str, cpu: int | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """A Python child in a session of its own (as layerbench starts every server)."""
    argv = [sys.executable, "-c", textwrap.dedent(code)]
    if cpu is not None:
        argv = ["taskset", "-c", str(cpu), *argv]
    process = subprocess.Popen(argv, start_new_session=True)
    try:
        yield process
    finally:
        process.kill()
        process.wait()


def test_cpu_goes_to_the_role_that_used_it() -> None:
    spin = f"""
        import time
        end = time.monotonic() + {SPIN_S + 3}
        while time.monotonic() < end:
            pass
    """
    with child(spin, cpu=0) as busy, child("import time; time.sleep(30)") as idle:
        time.sleep(0.3)
        sampler = Sampler({"busy": {busy.pid}, "idle": {idle.pid}}, interval_s=0.2).start()
        used_from = cpu_s(busy.pid)
        time.sleep(SPIN_S)
        used_s = cpu_s(busy.pid) - used_from
        usage = sampler.stop()
    busy_role, idle_role = usage.roles["busy"], usage.roles["idle"]
    assert [p.pid for p in busy_role.processes] == [busy.pid]
    # One process pinned to one CPU: at most the interval (plus a clock tick), and at least
    # what it used inside the interval, however little a busy machine left it.
    assert used_s - TICKS_S <= busy_role.cpu_s <= usage.interval_s + 0.02
    assert busy_role.cpu_percent <= 102
    assert idle_role.cpu_s < 0.05
    assert busy_role.cpu_s_per_1000(500) == 2 * busy_role.cpu_s
    assert usage.samples >= 3  # the first, the last and those between
    assert 0 <= usage.sampler_cpu_percent < 100


def test_forked_workers_are_counted_and_share_their_memory_in_pss() -> None:
    # The parent fills 64 MiB, then forks three workers that only sleep: the pages are shared.
    forking = f"""
        import os, time
        time.sleep(0.5)
        block = bytearray(b"x") * {64 * MIB}  # one block (b"x" * N would be two for a while)
        for _ in range(3):
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
        time.sleep(30)
    """
    with child(forking) as parent:
        sampler = Sampler({"workers": {parent.pid}}, interval_s=0.1).start()
        time.sleep(2.0)
        usage = sampler.stop()
        role = usage.roles["workers"]
        pids = [p.pid for p in role.processes]
        for pid in pids:
            if pid != parent.pid:
                subprocess.run(["kill", "-9", str(pid)], check=False)
    assert len(pids) == 4, role.processes
    assert role.rss_bytes > 4 * 64 * MIB
    # Shared pages are counted once across the role in PSS, and in nobody's USS. Each figure is
    # a process's peak, and memory is read now and then: the parent's may be from before the
    # forks (64 MiB its own), a worker's from before the next fork (shared by 2, by 3): at most
    # 64 + 32 + 21 + 16 MiB of the block, where counted in every RSS it is 256 MiB.
    assert role.pss_bytes < 0.6 * role.rss_bytes
    assert role.pss_bytes > 64 * MIB
    assert all(p.uss_bytes < 32 * MIB for p in role.processes), role.processes


def test_readers_of_proc_handle_odd_names_and_gone_processes() -> None:
    with child("import time; time.sleep(30)") as sleeper:
        stat = read_stat(sleeper.pid)
        assert stat is not None and stat.session == sleeper.pid and stat.cpu_s >= 0
    assert read_stat(sleeper.pid) is None
    assert read_memory(sleeper.pid) is None
    renamed = (
        "import ctypes, time; ctypes.CDLL(None).prctl(15, b'a) (b c', 0, 0, 0); time.sleep(30)"
    )
    with child(renamed) as odd:
        deadline = time.monotonic() + 5
        while (stat := read_stat(odd.pid)) is None or stat.name != "a) (b c":
            assert time.monotonic() < deadline, stat
            time.sleep(0.02)
        assert stat.session == odd.pid


def test_a_child_in_a_session_of_its_own_stays_in_its_parents_role() -> None:
    # PostgreSQL's backends call setsid(): found by their parent, not by their session.
    forking = f"""
        import os, time
        time.sleep(0.5)
        if os.fork() == 0:
            os.setsid()
            end = time.monotonic() + {SPIN_S + 3}
            while time.monotonic() < end:
                pass
            os._exit(0)
        time.sleep(30)
    """
    with child(forking, cpu=0) as parent:
        sampler = Sampler({"database": {parent.pid}}, interval_s=0.2).start()
        deadline = time.monotonic() + 20
        while not (forked := children_of(parent.pid)):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        used_from = cpu_s(forked[0])
        time.sleep(SPIN_S)
        used_s = cpu_s(forked[0]) - used_from
        usage = sampler.stop()
    processes = usage.roles["database"].processes
    assert len(processes) == 2, processes
    # Found in its parent's role, with what it used (however little a busy machine left it).
    spinner = next(p for p in processes if p.pid != parent.pid)
    assert spinner.pid == forked[0]
    assert spinner.cpu_s >= used_s - TICKS_S


def test_a_busy_process_of_no_role_shows_as_the_rest_of_the_machine() -> None:
    spin = f"""
        import time
        end = time.monotonic() + {SPIN_S + 3}
        while time.monotonic() < end:
            pass
    """
    with child("import time; time.sleep(30)") as idle, child(spin, cpu=0) as spinner:
        time.sleep(0.3)
        sampler = Sampler({"idle": {idle.pid}}, interval_s=0.2).start()
        used_from = cpu_s(spinner.pid)
        time.sleep(SPIN_S)
        used_s = cpu_s(spinner.pid) - used_from
        usage = sampler.stop()
    assert usage.roles["idle"].cpu_s < 0.05
    # The spinner is nobody's: it is the rest of the machine's, all it used and more.
    other_s = usage.other_cpu_percent * usage.interval_s / 100
    assert used_s - TICKS_S <= other_s
    assert usage.other_cpu_percent < 100 * (os.cpu_count() or 1)


def test_a_process_that_execs_into_a_host_is_named_and_placed_as_it_ends() -> None:
    # `ip netns exec HOST layerbench-load …`: seen first as `ip` (or the shell before it) on
    # this machine's own network, then the load generator inside the host; it is the latter.
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root")
    topology = topology_from({"hosts": {"client1": {"roles": ["client"]}}}, "t")
    with lab_network(topology) as network:
        later = f"sleep 0.5; exec {' '.join(network.command('client1', ['sleep', '30']))}"
        with child(f"import os; os.execvp('sh', ['sh', '-c', {later!r}])") as process:
            sampler = Sampler(
                {"client": {process.pid}}, interval_s=0.1, hosts=host_namespaces(network)
            ).start()
            deadline = time.monotonic() + 20
            while (stat := read_stat(process.pid)) is None or stat.name != "sleep":
                assert time.monotonic() < deadline, stat
                time.sleep(0.02)
            time.sleep(0.3)  # a few samples of it as it ends
            usage = sampler.stop()
    [seen] = [p for p in usage.roles["client"].processes if p.pid == process.pid]
    assert (seen.host, seen.name) == ("client1", "sleep")
