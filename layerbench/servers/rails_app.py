"""The Rails application (``rails_site/``, issue 24) as a Ruby server deploys it: a copy in the
server's work directory (its page cache writes ``public/``, and Passenger runs it as the owner
of its ``config.ru``), its gems locked against Debian's installed ones (``bundle lock
--local``: no gem is fetched), and the environment every layerbench application reads."""

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.errors import ConfigError, MissingBinaryError
from layerbench.proc.binaries import find_program
from layerbench.proc.run_as import RunAs
from layerbench.site_contract import CACHE_URL_VARIABLE, DB_PATH_VARIABLE, HEALTH_PATH

SOURCE = Path(__file__).resolve().parents[2] / "rails_site"
# The Debian packages the application needs (scripts/setup.sh installs them): Rails 6.1's
# parts (the rails metapackage's webpacker chain does not install), its drivers, page and
# action caching, the observers its sweeper is, and bundler.
APT_PACKAGES = (
    "ruby-rails",
    "ruby-sqlite3",
    "ruby-mysql2",
    "ruby-pg",
    "ruby-dalli",
    "ruby-actionpack-page-caching",
    "ruby-actionpack-action-caching",
    "ruby-rails-observers",
    "bundler",
)
RAILS_GEM_DIR = Path("/usr/share/rubygems-integration/all/gems")
LOCK_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class RailsApp:
    # The ladder's SQLite database, alone in its directory (which the workers' account gets).
    db_path: Path
    app_environment: dict[str, str] = field(default_factory=dict)
    ready_path: str = HEALTH_PATH

    def __post_init__(self) -> None:
        # Its pages are files in public/ (caches_page) or in memcached (caches_action):
        # lib/layerbench_settings.rb would raise at boot, in the server's log.
        cache_url = self.app_environment.get(CACHE_URL_VARIABLE, "")
        if cache_url not in ("", "local", "none") and not cache_url.startswith("memcached://"):
            raise ConfigError(
                "the rails application keeps its pages in public/ (local) or in memcached "
                f"(memcached://…), not in {cache_url}: use one of those or none"
            )

    def environment(self) -> dict[str, str]:
        return {
            **self.app_environment,
            DB_PATH_VARIABLE: str(self.db_path),
            "RAILS_ENV": "production",
            "RACK_ENV": "production",
        }

    def install(self, directory: Path, run_as: RunAs | None) -> Path:
        """Copy the application into ``directory``/rails_site, lock its gems, and give it and
        the database to ``run_as``; its path."""
        if not (SOURCE / "config.ru").is_file():
            raise ConfigError(f"the Rails application is not in this checkout ({SOURCE})")
        require_rails()
        target = directory / "rails_site"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(SOURCE, target, ignore=_left_behind)
        lock_gems(target)
        if run_as is not None:
            run_as.give_directory(self.db_path.parent)
            for path in (target, *target.rglob("*")):
                run_as.give(path)
        return target


def _left_behind(directory: str, names: list[str]) -> set[str]:
    """What a run of the application in the checkout left there: its lock, log, temporary
    files and cached pages."""
    if Path(directory) == SOURCE:
        return {"Gemfile.lock", "log", "tmp"} & set(names)
    if Path(directory) == SOURCE / "public":
        return {name for name in names if name != ".keep"}
    return set()


def require_rails() -> None:
    """A MissingBinaryError naming the Debian package when Ruby or Rails is not installed."""
    find_program("ruby", "ruby")
    find_program("bundle", "bundler")
    if not any(RAILS_GEM_DIR.glob("railties-6.1*")):
        raise MissingBinaryError("Rails 6.1 (railties)", "ruby-rails")


def lock_gems(app: Path) -> None:
    """``bundle lock --local``: the Gemfile resolved against the installed gems only."""
    completed = subprocess.run(
        ["bundle", "lock", "--local"],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=LOCK_TIMEOUT_S,
        check=False,
        env={"PATH": "/usr/bin:/bin", "HOME": str(app), "BUNDLE_GEMFILE": str(app / "Gemfile")},
    )
    if completed.returncode != 0:
        last = (completed.stderr or completed.stdout).strip().splitlines()[-1:]
        apt = " ".join(APT_PACKAGES)
        raise ConfigError(
            f"the Rails application's gems are not all installed ({' '.join(last)}); "
            f"apt-get install {apt}"
        )


def rails_version() -> str:
    found = sorted(RAILS_GEM_DIR.glob("railties-*"))
    return found[-1].name.removeprefix("railties-") if found else "unknown"
