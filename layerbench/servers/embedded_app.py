"""The reference application as a server that embeds Python loads it: a script
(:mod:`layerbench.servers.app_script`) and the database it reads, usable by the account the
server's workers run as."""

from dataclasses import dataclass, field
from pathlib import Path

from layerbench.proc.run_as import RunAs
from layerbench.servers.app_script import write_app_script
from layerbench.site_contract import DB_PATH_VARIABLE, HEALTH_PATH


@dataclass(frozen=True)
class EmbeddedApp:
    # The ladder's SQLite database, alone in its directory (which the workers' account gets).
    db_path: Path
    # More of the application's environment (its store, its cache).
    app_environment: dict[str, str] = field(default_factory=dict)
    ready_path: str = HEALTH_PATH

    def environment(self) -> dict[str, str]:
        return {**self.app_environment, DB_PATH_VARIABLE: str(self.db_path)}

    def install(self, directory: Path, run_as: RunAs | None) -> Path:
        """Write the script into ``directory``; give the database to ``run_as``."""
        if run_as is not None:
            run_as.give_directory(self.db_path.parent)
        return write_app_script(directory, self.environment())
