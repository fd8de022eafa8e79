"""Django's settings, made in code from the application's environment (:class:`AppConfig`) and
given to ``settings.configure`` (no DJANGO_SETTINGS_MODULE). Two databases: the site's
(``default``: the videos and comments, whose schema the project's migrations made) and the rung
data's (``rungs``: the hello row); the page cache in Django's cache framework, on the backend
the cache URL names."""

from pathlib import Path
from typing import Any

from layerbench.errors import ConfigError
from layerbench.services.urls import ServiceUrl
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache_select import CHOICES, LOCAL, NONE, page_namespace
from layerbench_sites.datalayer.open_repository import database_location, is_sqlite

SITE = "default"
RUNGS = "rungs"
APP_LABEL = "django_site"
# Seconds a SQLite writer waits for the database's write lock before it fails.
SQLITE_TIMEOUT_S = 30
# One connection per thread, kept between requests, as the bare application does (Django's
# default, 0, opens the database again for every request).
KEPT_BETWEEN_REQUESTS = None
ENGINES = {
    "postgres": "django.db.backends.postgresql",
    "mariadb": "django.db.backends.mysql",
}


def database(url: str) -> dict[str, Any]:
    """Django's DATABASES entry of a SQLite path, a postgresql:// or a mysql:// URL."""
    location = database_location(url)
    if is_sqlite(location):
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(Path(location)),
            # As the repository begins its writes: the write lock taken at BEGIN.
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": SQLITE_TIMEOUT_S},
            "CONN_MAX_AGE": KEPT_BETWEEN_REQUESTS,
        }
    parsed = ServiceUrl.parse(location)
    engine = ENGINES.get(parsed.kind)
    if engine is None:
        raise ConfigError(f"{url!r} is not a database Django can use here")
    return {
        "ENGINE": engine,
        "NAME": parsed.database or "",
        "USER": parsed.user or "",
        "PASSWORD": parsed.password or "",
        "HOST": parsed.host,
        "PORT": str(parsed.port),
        "CONN_MAX_AGE": KEPT_BETWEEN_REQUESTS,
    }


def cache(url: str | None) -> dict[str, Any]:
    """Django's CACHES entry of the cache URL: in-process, memcached, Redis or none."""
    if url is None or url == LOCAL:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    if url == NONE:
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    try:
        parsed = ServiceUrl.parse(url)
    except ConfigError:
        raise ConfigError(f"{url!r} is not a cache for Django: {CHOICES}") from None
    if parsed.kind == "memcached":
        return {
            "BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
            "LOCATION": f"{parsed.host}:{parsed.port}",
        }
    if parsed.kind == "redis":
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    raise ConfigError(f"{url!r} is not a cache for Django: {CHOICES}")


def key_prefix(config: AppConfig) -> str:
    """Django's cache keys' prefix: the application's and the site database's identity (see
    :func:`layerbench_sites.app.cache_select.page_namespace`)."""
    return page_namespace(config.database_url, "django:").removesuffix(":")


def django_settings(config: AppConfig) -> dict[str, Any]:
    """The keyword arguments of ``settings.configure``."""
    rungs = database(config.orm_url or str(config.db_path))
    return {
        "DEBUG": False,
        "ALLOWED_HOSTS": ["127.0.0.1", "localhost", "[::1]"],
        "SECRET_KEY": config.secret.hex(),
        "INSTALLED_APPS": ["layerbench_sites.frameworks.django_site.apps.DjangoSiteConfig"],
        "MIDDLEWARE": [],
        "ROOT_URLCONF": "layerbench_sites.frameworks.django_site.urls",
        "DATABASES": {
            # Without a site, only the ladder's rungs are answered (no default database).
            SITE: database(config.database_url) if config.database_url else {},
            RUNGS: rungs,
        },
        # Every key (the page cache's) apart from other applications' and other databases'.
        "CACHES": {
            SITE: {**cache(config.cache_url), "KEY_PREFIX": key_prefix(config), "TIMEOUT": None}
        },
        "TEMPLATES": [
            {"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True}
        ],
        "USE_TZ": True,
        "USE_I18N": False,
        "DEFAULT_AUTO_FIELD": "django.db.models.BigAutoField",
        # Django's own logging config would print tracebacks through its own handlers.
        "LOGGING_CONFIG": None,
    }
