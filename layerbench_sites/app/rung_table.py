"""The bare application's rungs: its handler of each rung by the rung's name, at the path the
rung's definition gives. The demo site's API answers the page, cached-page and write rungs at
their paths (the page rung: the site without its page cache)."""

from jinja2 import Environment

from layerbench.rungs.definitions import APPLICATION_RUNGS, CACHED_PAGE, PAGE, WRITE
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.cache import CacheBackend
from layerbench_sites.app.database import Database
from layerbench_sites.app.rung_handlers import Handler, LadderRungs
from layerbench_sites.app.service_rung_handlers import ServiceRungs
from layerbench_sites.app.upstream_rung_handler import upstream_handlers

SITE_RUNGS = (PAGE.name, CACHED_PAGE.name, WRITE.name)


def rung_handlers(
    database: Database, cache: CacheBackend, templates: Environment, services: ServiceUrls
) -> dict[str, Handler]:
    """The handler of every rung the application answers itself (not its site's), by name: the
    embedded rungs, and the service rungs whose service is configured (the upstream rung's
    too)."""
    embedded = LadderRungs(database, cache, templates).handlers()
    return {**embedded, **ServiceRungs(services).handlers(), **upstream_handlers(services)}


def rung_routes(handlers: dict[str, Handler]) -> dict[str, Handler]:
    """Each handler at its rung's path."""
    return {rung.path: handlers[rung.name] for rung in APPLICATION_RUNGS if rung.name in handlers}
