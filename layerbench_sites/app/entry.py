"""The module a WSGI server imports: ``layerbench_sites.app.entry:application``, configured from the
environment (see ``layerbench_sites.app.app_config``), or the user's own application when
``$LAYERBENCH_WSGI_APP`` names one (see ``layerbench_sites.app.user_app``)."""

from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache_select import cache_from_url, pages_from_url
from layerbench_sites.app.loaded_announcement import announce_loaded
from layerbench_sites.app.user_app import WSGIApplication, from_environment
from layerbench_sites.app.wsgi import create_app


def _reference() -> WSGIApplication:
    settings = AppConfig.from_env()
    cache = cache_from_url(settings.cache_url, settings.cache_max_bytes)
    pages = pages_from_url(settings.cache_url, cache, settings.database_url or "")
    return create_app(settings, cache, pages)


application: WSGIApplication = from_environment() or _reference()
announce_loaded()
