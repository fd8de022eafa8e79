"""The module a WSGI server imports: ``layerbench.app.entry:application``, configured from the
environment (see ``layerbench.app.settings``)."""

from layerbench.app.cache_select import cache_from_url, pages_from_url
from layerbench.app.settings import AppSettings
from layerbench.app.wsgi import create_app

settings = AppSettings.from_env()
cache = cache_from_url(settings.cache_url)
application = create_app(settings, cache, pages_from_url(settings.cache_url, cache))
