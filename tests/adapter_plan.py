"""A plan for starting one adapter in a test: its work directory, a free port, the seeded
database and the static rung's file."""

from pathlib import Path

from layerbench.proc.ports import free_port
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.adapters import ServerPlan
from layerbench.servers.server_settings import SettingsBook

STATIC_FILE = "hello.txt"
STATIC_BODY = b"Hello World!\n"


def plan_for(root: Path, book: SettingsBook | None = None) -> ServerPlan:
    root.chmod(0o711)  # as the lab's work directory: servers that drop privileges reach it
    (root / "data").mkdir()
    return ServerPlan(
        workdir=root / "server",
        port=free_port(),
        db_path=create_seeded_database(root / "data"),
        static_files={STATIC_FILE: STATIC_BODY},
        book=book or {},
    )
