"""The ladder's framework rungs as a Pyramid 2 application, laid out and deployed as Pyramid's
own scaffolds are: ``main`` here is the factory paste.deploy calls from ``production.ini``
(loaded by ``wsgi.py``), the routes in ``routes.py``, the views in ``views.py``, ``pages.py``
and ``comments.py``, Chameleon templates, SQLAlchemy 2 models mapped onto the data layer's
tables, and a page cache swept after each committed write (``sweeper.py``). Its configuration
comes from the environment (:meth:`layerbench_sites.app.app_config.AppConfig.from_env`).
Without a site database ($LAYERBENCH_DATABASE_URL) only the string, orm and template rungs are
answered (and the upstream rung, when its URL is set)."""

from pathlib import Path
from typing import Any

from pyramid.config import Configurator  # type: ignore[import-untyped]
from sqlalchemy.orm import Session

from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.body_limit import limited_wsgi
from layerbench_sites.app.cache_select import cache_from_url, pages_from_url
from layerbench_sites.app.database import Database
from layerbench_sites.app.upstream_client import UpstreamClient
from layerbench_sites.frameworks.pyramid_site.comments import CommentWriter, dialect_of
from layerbench_sites.frameworks.pyramid_site.pages import VideoPages
from layerbench_sites.frameworks.pyramid_site.sweeper import SessionSweeper
from layerbench_sites.frameworks.pyramid_site.views import PyramidRungs, text

HELLO_TEMPLATE = "layerbench_sites.frameworks.pyramid_site:templates/hello.pt"
PAGE_NAMESPACE = "pyramid:"


def main(global_config: dict[str, str], **settings: str) -> Any:
    config = AppConfig.from_env()
    with Configurator(settings=settings) as configurator:
        configurator.include("pyramid_chameleon")
        configurator.include(".routes")
        rungs = PyramidRungs(Database(config.db_path, config.orm_url))
        _get(configurator, "string", rungs.string)
        _get(configurator, "orm", rungs.orm)
        _get(configurator, "template", rungs.template, renderer=HELLO_TEMPLATE)
        if config.services.upstream:
            client = UpstreamClient(config.services.upstream)
            _get(configurator, "upstream", lambda _request: text(client.get()))
        if config.database_url:
            _add_site(configurator, config, config.database_url)
        # The body capped before WebOb reads it (see body_limit).
        return limited_wsgi(configurator.make_wsgi_app())


def _add_site(configurator: Any, config: AppConfig, database_url: str) -> None:
    cache = cache_from_url(config.cache_url, config.cache_max_bytes)
    # Its own keys in a cache it may share with the other applications (ladder --apps).
    pages = pages_from_url(config.cache_url, cache, database_url, PAGE_NAMESPACE)
    # The site's ORM engine, one per process (its DB-API side, the db-raw rung's, is unused).
    site = Database(Path(database_url), database_url)
    sweeper = SessionSweeper(pages)

    def sessions() -> Session:
        return sweeper.watch(site.session())

    video_pages = VideoPages(sessions, pages)
    _get(configurator, "page", video_pages.page)
    _get(configurator, "video_page", video_pages.cached_page)
    writer = CommentWriter(sessions, dialect_of(database_url))
    configurator.add_view(writer, route_name="comments", request_method="POST")


def _get(configurator: Any, route: str, view: Any, renderer: str | None = None) -> None:
    configurator.add_view(view, route_name=route, request_method=("GET", "HEAD"), renderer=renderer)
