"""Work directories name their owner, and the next command removes those whose owner died
(``kill -9`` leaves them behind), in one line; anything else stays."""

import ctypes
import fcntl
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.proc.outside_resources import record_sysv_segment, sysv_segments
from layerbench.proc.work_dirs import (
    MARKER,
    boot_id,
    make_work_directory,
    sweep_abandoned,
)
from tests.conftest import start_service

MADE_BY_A_CHILD = """\
import sys
from pathlib import Path
from layerbench.proc.work_dirs import make_work_directory
path = make_work_directory("layerbench-test-", Path(sys.argv[1]))
(path / "data").write_bytes(bytes(3_000_000))
print(path)
"""


def made_by_a_process_now_dead(parent: Path) -> Path:
    done = subprocess.run(
        [sys.executable, "-c", MADE_BY_A_CHILD, str(parent)],
        capture_output=True, text=True, check=True, timeout=30,
    )  # fmt: skip
    return Path(done.stdout.strip())


def test_a_dead_owners_directory_is_removed_saying_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = made_by_a_process_now_dead(tmp_path)
    assert sweep_abandoned(tmp_path) == [path]
    assert not path.exists()
    said = capsys.readouterr().err
    assert said == (
        f"layerbench: removed 1 work directory left in {tmp_path} by runs that were killed (3 MB)\n"
    )


def test_a_live_owners_directory_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_work_directory("layerbench-test-", tmp_path)
    assert sweep_abandoned(tmp_path) == []
    assert path.is_dir()
    assert capsys.readouterr().err == ""


def test_a_reused_pid_is_not_taken_for_the_owner(tmp_path: Path) -> None:
    # The pid is alive (ours), but the process that has it started at another moment.
    path = tmp_path / "layerbench-test-reused"
    path.mkdir()
    (path / MARKER).write_text(f"{os.getpid()} 1 {boot_id()}\n")
    assert sweep_abandoned(tmp_path) == [path]


def test_a_directory_without_the_marker_is_kept(tmp_path: Path) -> None:
    unmarked = tmp_path / "layerbench-unmarked"
    unmarked.mkdir()
    (unmarked / "data").write_text("not ours to judge")
    named_otherwise = made_by_a_process_now_dead(tmp_path).rename(tmp_path / "other-name")
    assert sweep_abandoned(tmp_path) == []
    assert unmarked.is_dir() and named_otherwise.is_dir()


def test_a_sweep_passes_by_what_another_sweep_is_removing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two commands started together after a kill: the one that holds the marker's lock removes
    # the directory and says so; the other neither removes nor counts it.
    path = made_by_a_process_now_dead(tmp_path)
    with open(path / MARKER) as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert sweep_abandoned(tmp_path) == []
        assert (path / "data").is_file()
    assert capsys.readouterr().err == ""
    assert sweep_abandoned(tmp_path) == [path]
    assert not path.exists()


LIBC = ctypes.CDLL(None, use_errno=True)
IPC_PRIVATE, IPC_CREAT, IPC_RMID = 0, 0o1000, 0


@pytest.fixture
def segment() -> Iterator[tuple[int, int]]:
    """A System V shared-memory segment of this test: its key and id."""
    shmid = LIBC.shmget(IPC_PRIVATE, 56, IPC_CREAT | 0o600)
    assert shmid >= 0, os.strerror(ctypes.get_errno())
    try:
        yield sysv_segments()[shmid][0], shmid
    finally:
        LIBC.shmctl(shmid, IPC_RMID, None)


def test_what_a_killed_run_kept_outside_its_directory_is_released_with_it(
    tmp_path: Path, segment: tuple[int, int]
) -> None:
    # A killed PostgreSQL's System V segment, recorded in its directory: attached by no one, it
    # would stay for ever.
    path = made_by_a_process_now_dead(tmp_path)
    record_sysv_segment(path, *segment)
    assert sweep_abandoned(tmp_path) == [path]
    assert segment[1] not in sysv_segments()


def test_a_recorded_segment_still_attached_or_now_anothers_is_left(
    tmp_path: Path, segment: tuple[int, int]
) -> None:
    key, shmid = segment
    path = made_by_a_process_now_dead(tmp_path)
    record_sysv_segment(path, key + 1, shmid)  # the id given to another since
    LIBC.shmat.restype = ctypes.c_void_p
    attached = LIBC.shmat(shmid, None, 0)
    try:
        other = made_by_a_process_now_dead(tmp_path)
        record_sysv_segment(other, key, shmid)  # attached by a live process (this one)
        assert sorted(sweep_abandoned(tmp_path)) == sorted([path, other])
        assert shmid in sysv_segments()
    finally:
        LIBC.shmdt(ctypes.c_void_p(attached))


def test_the_next_command_removes_what_a_killed_one_left(workdir: Path) -> None:
    start_service("redis").stop()  # skips when Redis is missing
    workdir.chmod(0o1777)  # as /tmp: the service's account writes there too
    environment = {**os.environ, "TMPDIR": str(workdir)}
    command = [sys.executable, "-m", "layerbench.cli"]
    with subprocess.Popen(
        [*command, "services", "up", "redis"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment,
    ) as killed:  # fmt: skip
        assert killed.stdout is not None
        assert killed.stdout.readline().startswith("redis ")
        (left,) = workdir.glob("layerbench-redis-*")
        killed.send_signal(signal.SIGKILL)
    done = subprocess.run(
        [*command, "results", "list"],
        capture_output=True, text=True, env=environment, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        rf"layerbench: removed 1 work directory left in {workdir} by runs that were killed "
        r"\(\d+ MB\)\n",
        done.stderr,
    )
    assert not left.exists()


BARE = ("TemporaryDirectory(", "mkdtemp(", "mkstemp(", "NamedTemporaryFile(")
# Made elsewhere than in /tmp, each for a reason: a document is written whole or not at all
# through a hidden `.NAME.*.partial` beside it, renamed over it (a kill -9 in between leaves
# that file where the user looks, not in /tmp).
OWN_TEMPORARY = {"document_file.py": "mkstemp(dir=directory,"}


def bare_temporary_paths(package: Path) -> list[str]:
    """Where ``package`` makes a temporary directory or file other than through work_dirs."""
    found = []
    for source in sorted(package.rglob("*.py")):
        if source.name == "work_dirs.py":
            continue
        text = source.read_text()
        allowed = OWN_TEMPORARY.get(source.name)
        if allowed is not None:
            assert allowed in "".join(text.split()), f"{source}: {allowed!r} is gone"
        for number, line in enumerate(text.splitlines(), 1):
            if any(call in line for call in BARE) and allowed is None:
                found.append(f"{source}:{number}: {line.strip()}")
    return found


def test_the_instrument_makes_no_temporary_directory_without_the_marker() -> None:
    # A bare TemporaryDirectory is removed on an orderly end only: after a kill -9 it stays
    # in /tmp for ever (app serve's database copy and servers' directories did).
    package = Path(__file__).resolve().parent.parent.parent / "layerbench"
    assert bare_temporary_paths(package) == []
