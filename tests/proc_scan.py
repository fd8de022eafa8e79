"""Reading /proc to find processes a test started, without trusting the code under test."""

import os
from pathlib import Path


def processes_mentioning(marker: str) -> list[int]:
    """Live processes whose command line contains ``marker`` (a unique temporary path)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(entry))
    return found


def group_members(group: int) -> list[int]:
    """Live processes in process group ``group``."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(entry))
    return members


def session_members(sessions: set[int]) -> list[tuple[int, str]]:
    """Live processes (pid, name) in any of ``sessions``."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw.rsplit(")", 1)[1].split()
        if int(fields[3]) in sessions and fields[0] != "Z":
            members.append((int(entry), name))
    return members


def children(parents: set[int]) -> list[int]:
    """Live processes whose parent is one of ``parents``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) in parents and fields[0] != "Z":
            found.append(int(entry))
    return found


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (children, their children, …)."""
    found: list[int] = []
    level = {pid}
    while level:
        level = set(children(level))
        found += sorted(level)
    return found


def resident_bytes(pid: int) -> int:
    """The process's resident set (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"process {pid} has no VmRSS")


def gunicorn_workers(pid: int) -> list[int]:
    """gunicorn's worker processes below ``pid``: gunicorn processes with no children (the
    master has its workers)."""
    found = []
    for below in descendants(pid):
        try:
            command = Path(f"/proc/{below}/cmdline").read_bytes()
        except OSError:
            continue
        if b"gunicorn" in command and not children({below}):
            found.append(below)
    return found
