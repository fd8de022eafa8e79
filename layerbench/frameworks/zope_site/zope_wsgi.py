"""The Zope application (``layerbench.frameworks.zope_site.zope_wsgi:application``): the Zope
application server (Zope 6, the release on PyPI) loaded through paste.deploy from ``zope.ini``
beside this module, publishing persistent objects from ZODB (:mod:`zope_objects`).

It answers string, template (the row rendered by a Zope Page Template), orm (the row as a
persistent object loaded through the request's ZODB connection: the framework's object
database), page (the site's video page rendered from ZODB objects on every request) and
cached-page (that page from this process's page cache, :mod:`zope_videos`). At start it copies
the rung data's row from ``$LAYERBENCH_DB_PATH``, and the page rungs' video with its comments
from the site's database (``$LAYERBENCH_DATABASE_URL``), into ZODB, so the rungs read the same
data as every other application's; it writes nothing afterwards. Not write: a comment is the
site's SQL rows (their short ids, the audit triggers), which an object in ZODB is not. On the
full ladder its orm, template and pages still read ZODB, and its page cache is in-process,
not memcached: the services those rungs name there are not this application's layers.

One process only. The ZODB is a FileStorage (:mod:`zope_storage` says where), which one
process opens: it locks the file, and a second process that opens it (a second gunicorn,
uWSGI or mod_wsgi worker process) fails to start with a one-line :class:`StorageInUseError`
rather than share it. A process forked after the storage was opened (a server that imports the
application before forking its workers) answers 500 with the same reason: two processes
writing through one open FileStorage would corrupt it. So a multi-process server runs this
application with one process and as many threads as it likes; ZEO, which shares one storage
between processes, comes with issue 25. Zope is a process-wide singleton (its configuration and
database are globals), so a process holds one such application.
"""

import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import transaction  # type: ignore[import-untyped]
import zc.lockfile  # type: ignore[import-untyped]
import Zope2  # type: ignore[import-untyped]
from paste.deploy import loadapp  # type: ignore[import-untyped]

from layerbench.app.app_config import AppConfig
from layerbench.app.database import Database
from layerbench.app.user_app import StartResponse, WSGIApplication
from layerbench.frameworks.zope_site.zope_objects import LADDER_ID, HelloRow, LadderRungs
from layerbench.frameworks.zope_site.zope_storage import (
    StorageInUseError,
    configure_zope,
    storage_path,
)
from layerbench.frameworks.zope_site.zope_videos import (
    PAGES_ID,
    Video,
    VideoPages,
    copy_page_video,
)
from layerbench.rungs.rung_data import HELLO_ID, HELLO_SELECT, MissingRungDataError

PASTE_CONFIG = Path(__file__).with_name("zope.ini")
logger = logging.getLogger(__name__)


def create_application(config: AppConfig) -> WSGIApplication:
    path = storage_path(config)
    configure_zope(path)
    try:
        zope: WSGIApplication = loadapp(f"config:{PASTE_CONFIG}")
    except zc.lockfile.LockError:
        raise StorageInUseError(path) from None
    seed(read_hello(config), copy_page_video(config))
    return in_opening_process(zope, path)


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


def in_opening_process(zope: WSGIApplication, path: Path) -> WSGIApplication:
    """Zope's application, refusing to run in a process forked after the storage was opened."""
    opened_by = os.getpid()
    refusal = str(StorageInUseError(path)).encode()

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if os.getpid() != opened_by:
            logger.error("process %d forked from %d: %s", os.getpid(), opened_by, refusal)
            headers = [("Content-Type", "text/plain; charset=utf-8")]
            start_response("500 Internal Server Error", [*headers])
            return [refusal]
        return zope(environ, start_response)

    return application


application = create_application(AppConfig.from_env())
