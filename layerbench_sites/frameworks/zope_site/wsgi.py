"""The Zope application (``layerbench_sites.frameworks.zope_site.wsgi:application``): the Zope
application server (Zope 6, the release on PyPI) loaded through paste.deploy from ``zope.ini``
beside this module, publishing persistent objects from ZODB (:mod:`content`).

It answers string, template (the row rendered by a Zope Page Template), orm (the row as a
persistent object loaded through the request's ZODB connection: the framework's object
database), page (the site's video page rendered from ZODB objects on every request) and
cached-page (that page from this process's page cache, :mod:`videos`). At start it copies
the rung data's row from ``$LAYERBENCH_DB_PATH``, and the page rungs' video with its comments
from the site's database (``$LAYERBENCH_DATABASE_URL``), into ZODB, so the rungs read the same
data as every other application's; it writes nothing afterwards. Not write: a comment is the
site's SQL rows (their short ids, the audit triggers), which an object in ZODB is not. On the
full ladder its orm, template and pages still read ZODB, and its page cache is in-process,
not memcached: the services those rungs name there are not this application's layers.

Any number of processes, each with any number of threads. The ZODB is a FileStorage
(:mod:`storage` says where) behind a ZEO server, and every process is a ZEO client (or,
chosen by ``--set zope.storage``, RelStorage on PostgreSQL or MariaDB: every process opens it,
and every request's ZODB connection polls the database for changes as it opens; the rest of
this paragraph is the ZEO case): the first process to start starts the server, the others use
it (:mod:`zeo`), and they start one at a time (Zope makes its first objects in a new
database, and the seeding writes). So a one-process server (paste's threads) and a many-process
one (mod_wsgi daemon processes=4) run the same storage stack, and differ only in their
processes, as seed 003's comparison needs. Once warm a read is served from the connection's
object cache; the ZEO server sees the seeding's writes and each process's first loads. A
process forked after its ZEO connection was opened (a server that imports the application
before forking its workers) answers 500 saying so: the connection's thread and socket stayed in
the process it was forked from. Zope is a process-wide singleton (its configuration and
database are globals), so a process holds one such application.
"""

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import transaction  # type: ignore[import-untyped]
import Zope2  # type: ignore[import-untyped]
from paste.deploy import loadapp  # type: ignore[import-untyped]

from layerbench.rungs.rung_data import HELLO_ID, HELLO_SELECT, MissingRungDataError
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.body_limit import limited_wsgi
from layerbench_sites.app.database import Database
from layerbench_sites.app.user_app import StartResponse, WSGIApplication
from layerbench_sites.frameworks.zope_site.content import LADDER_ID, HelloRow, LadderRungs
from layerbench_sites.frameworks.zope_site.storage import (
    FILESTORAGE,
    RELSTORAGE_MARIADB,
    RELSTORAGE_POSTGRES,
    chosen_storage,
    configure_relstorage,
    configure_zope,
    storage_path,
)
from layerbench_sites.frameworks.zope_site.videos import (
    PAGES_ID,
    Video,
    VideoPages,
    copy_page_video,
)
from layerbench_sites.frameworks.zope_site.zeo import ensure_zeo_server, starting_alone

PASTE_CONFIG = Path(__file__).with_name("zope.ini")
# zope.ini for each storage: the same pipeline, another zope.conf.
PASTE_CONFIGS = {
    FILESTORAGE: PASTE_CONFIG,
    RELSTORAGE_POSTGRES: PASTE_CONFIG.with_name("zope-relstorage-postgres.ini"),
    RELSTORAGE_MARIADB: PASTE_CONFIG.with_name("zope-relstorage-mariadb.ini"),
}
logger = logging.getLogger(__name__)


def create_application(config: AppConfig) -> WSGIApplication:
    """Zope on the chosen storage (:func:`chosen_storage`: its ZEO server, or RelStorage). The
    process that finds the database not yet made makes it (Zope's first objects, the seeding)
    while the others wait; once it is made, the processes load Zope at the same time (on a
    made database its start writes nothing), so a server's processes are all ready at about
    the same moment rather than one by one, and take turns only for the seeding (which writes
    nothing when the data has not changed)."""
    path = storage_path(config)
    storage = chosen_storage()
    paste_config = PASTE_CONFIGS[storage]
    hello, video = read_hello(config), copy_page_video(config)
    made = path.with_name(f"{path.name}.made")
    zope: WSGIApplication | None = None
    with starting_alone(path):
        if storage == FILESTORAGE:
            configure_zope(path, ensure_zeo_server(path))
        else:
            configure_relstorage(path, storage)
        if not made.exists():
            zope = loadapp(f"config:{paste_config}")
            seed(hello, video)
            made.touch()
    if zope is None:
        zope = loadapp(f"config:{paste_config}")
        with starting_alone(path):
            seed(hello, video)
    # The body capped before Zope's publisher reads it (see body_limit).
    return limited_wsgi(in_opening_process(zope))


def read_hello(config: AppConfig) -> str:
    row = Database(config.db_path).connection().execute(HELLO_SELECT, (HELLO_ID,)).fetchone()
    if row is None:
        raise MissingRungDataError(f"row {HELLO_ID} of table hello in {config.db_path}")
    value: str = row[0]
    return value


def seed(value: str, video: Video | None) -> None:
    """Put the row into ZODB as ``/ladder``'s persistent row (or bring it up to date), and the
    page rungs' video under ``/v``."""
    root = Zope2.app()
    try:
        ladder = root._getOb(LADDER_ID, None)
        if ladder is None:
            root._setObject(LADDER_ID, LadderRungs(HelloRow(HELLO_ID, value)))
        elif ladder.hello.value != value:
            ladder.hello.value = value
        if video is not None:
            if root._getOb(PAGES_ID, None) is None:
                root._setObject(PAGES_ID, VideoPages())
            root._getOb(PAGES_ID).keep_video(video)
        transaction.commit()
    finally:
        transaction.abort()
        root._p_jar.close()


def in_opening_process(zope: WSGIApplication) -> WSGIApplication:
    """Zope's application, refusing to run in a process forked after its ZEO connection was
    opened."""
    opened_by = os.getpid()
    refusal = (
        f"this process was forked from pid {opened_by} after the Zope application had opened "
        "its ZEO connection there: load the application in each worker process, not before "
        "forking them"
    ).encode()

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if os.getpid() != opened_by:
            logger.error("process %d forked from %d: %s", os.getpid(), opened_by, refusal)
            headers = [("Content-Type", "text/plain; charset=utf-8")]
            start_response("500 Internal Server Error", [*headers])
            return [refusal]
        return zope(environ, start_response)

    return application


application = create_application(AppConfig.from_env())
