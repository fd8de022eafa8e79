"""The one door from the instrument to the measured sites (``layerbench_sites``).

Servers load a site by its entry (:mod:`layerbench.site_contract`); the few set-up tasks the lab
and the CLI ask of the reference site — seed its database, migrate it, fill the demo, check a
cache, draw a short id — come through here, each imported when it is called, so that importing
the instrument never imports a site, an ORM or a framework (tests/test_architecture.py holds it
to that)."""

from pathlib import Path
from typing import TYPE_CHECKING

from layerbench.site_contract import ServiceUrls

if TYPE_CHECKING:
    from layerbench_sites.app.ladder_data import AppData as AppData
    from layerbench_sites.datalayer.concurrent_writers import ConcurrentWrites


def prepare_app_data(
    directory: Path, services: ServiceUrls | None = None, site_url: str | None = None
) -> "AppData":
    """The ladder's rung data and the site's database, seeded in ``directory``."""
    from layerbench_sites.app.ladder_data import prepare_app_data as prepare

    return prepare(directory, services, site_url)


def migrate_database(url: str) -> None:
    """The site's schema brought to its newest revision at ``url``."""
    from layerbench_sites.datalayer.migrate import upgrade

    upgrade(url)


def schema_revision(url: str) -> str | None:
    """The revision of the site's schema at ``url`` (None: none made yet)."""
    from layerbench_sites.datalayer.migrate import current_revision

    return current_revision(url)


def prepare_database(url: str) -> None:
    """The site's database at ``url`` made ready to serve (its schema, its identity)."""
    from layerbench_sites.datalayer.open_repository import prepare

    prepare(url)


def database_location(text: str) -> str:
    """``--db``'s value as the site understands it: a SQLite path or a database URL."""
    from layerbench_sites.datalayer.open_repository import database_location as location

    return location(text)


def is_sqlite(url: str) -> bool:
    from layerbench_sites.datalayer.open_repository import is_sqlite as sqlite

    return sqlite(url)


def put_demo_data(database_url: str) -> int:
    """The demo's videos and comments written into the site's database; how many videos."""
    from layerbench_sites.app.demo_data import put_demo_data as put

    return put(database_url)


def check_cache_usable(url: str) -> None:
    """A ConfigError saying why the page cache ``url`` names cannot be used."""
    from layerbench_sites.app.cache_check import check_cache_usable as check

    check(url)


def cache_kind(url: str) -> str | None:
    """The kind of server a cache URL names (memcached, redis, ...); None for none."""
    from layerbench_sites.app.cache_select import cache_kind as kind

    return kind(url)


def page_directory_of(url: str) -> Path | None:
    """The directory a file:// cache URL names; None for any other URL."""
    from layerbench_sites.app.cache_select import page_directory_of as directory

    return directory(url)


def check_importable(spec: str, paths: list[str]) -> None:
    """A ConfigError naming why the user's ``package.module:callable`` does not load."""
    from layerbench_sites.app.import_check import check_importable as check

    check(spec, paths)


def security_headers() -> list[tuple[str, str]]:
    """The headers the site sends with a page, for a front server serving its page files."""
    from layerbench_sites.app.api.security_headers import security_headers as headers

    return headers()


def new_id() -> str:
    """A fresh short id, as the site draws them."""
    from layerbench_sites.ids.generate import new_id as draw

    return draw()


def create_video(url: str, title: str) -> str:
    """A video created directly in the database at ``url``; its id."""
    from layerbench_sites.datalayer.concurrent_writers import create_video as create

    return create(url, title)


def run_writers(
    urls: list[str], video_id: str, writers: int, writes_each: int, update_every: int = 0
) -> "ConcurrentWrites":
    """Concurrent writers through the site's repository (see its ``run_writers``)."""
    from layerbench_sites.datalayer.concurrent_writers import run_writers as run

    return run(urls, video_id, writers, writes_each, update_every)


def encode_id(number: int) -> str:
    """The short id of ``number``; an InvalidIdError (a ValueError) out of range."""
    from layerbench_sites.ids.codec import encode

    return encode(number)


def decode_id(identifier: str) -> int:
    """The number behind a short id; an InvalidIdError (a ValueError) for a malformed one."""
    from layerbench_sites.ids.codec import decode

    return decode(identifier)


def id_scheme_version(identifier: str) -> int:
    from layerbench_sites.ids.codec import scheme_version

    return scheme_version(identifier)


def site_directories() -> list[str]:
    """The measured sites' directories, found without importing them: a profile charges the
    frames of their files to the site (:mod:`layerbench.profile.frame_layers`)."""
    import importlib.util

    spec = importlib.util.find_spec("layerbench_sites")
    return list(spec.submodule_search_locations or ()) if spec is not None else []
