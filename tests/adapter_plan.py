"""A plan for starting one adapter in a test: its work directory, a free port, the seeded
database and the static rung's file. A WSGI server runs the bare application; an ASGI server
a tiny ASGI one that answers the string rung (``tests/framework_apps/asgi_string_only.py``)."""

from pathlib import Path

from layerbench.proc.ports import free_port
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.adapters import ServerPlan
from layerbench.servers.server_settings import SettingsBook
from layerbench_sites.app.asgi_app import ASGI_APP_VARIABLE
from layerbench_sites.app.user_app import USER_APP_PATH_VARIABLE

STATIC_FILE = "hello.txt"
STATIC_BODY = b"Hello World!\n"
ASGI_STRING_ONLY = "tests.framework_apps.asgi_string_only:application"
CHECKOUT = Path(__file__).resolve().parent.parent


def plan_for(root: Path, book: SettingsBook | None = None) -> ServerPlan:
    root.chmod(0o711)  # as the lab's work directory: servers that drop privileges reach it
    (root / "data").mkdir()
    return ServerPlan(
        workdir=root / "server",
        port=free_port(),
        db_path=create_seeded_database(root / "data"),
        static_files={STATIC_FILE: STATIC_BODY},
        book=book or {},
        app_environment={
            ASGI_APP_VARIABLE: ASGI_STRING_ONLY,
            USER_APP_PATH_VARIABLE: str(CHECKOUT),
        },
    )
