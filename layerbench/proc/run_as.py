"""Who a server runs as. Started by root, database servers refuse to run (PostgreSQL) or should
not (MariaDB, memcached, Redis): they run as an unprivileged account instead, and the files they
write belong to it. Started by anyone else, they run as the invoking user."""

import os
import pwd
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError

UNPRIVILEGED_ACCOUNT = "nobody"


@dataclass(frozen=True)
class RunAs:
    name: str
    uid: int
    gid: int

    def give(self, path: Path) -> None:
        """Make ``path`` (a directory we created) this account's own."""
        os.chown(path, self.uid, self.gid)

    def give_directory(self, directory: Path) -> None:
        """Make ``directory`` and the files in it this account's (SQLite in WAL mode writes
        beside its database even to read it)."""
        self.give(directory)
        for entry in directory.iterdir():
            self.give(entry)


def unprivileged_account(name: str = UNPRIVILEGED_ACCOUNT) -> RunAs | None:
    """The account ``name`` to drop to when we are root; None when we are not (run as
    ourselves)."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise ConfigError(
            f"running as root, and there is no {name!r} account to run "
            "servers as; create one or run layerbench as an ordinary user"
        ) from None
    return RunAs(entry.pw_name, entry.pw_uid, entry.pw_gid)
