"""The Django site's settings under ASGI: the WSGI site's
(:mod:`layerbench_sites.frameworks.django_site.settings`), its URLconf the async views', and no
persistent database connection, as Django's documentation asks of an ASGI deployment. Under ASGI
each request's sync work (the ORM's queries) runs on a thread of its own, and a persistent
connection is per thread: kept, they pile up, one per request (seen: 98 PostgreSQL connections
from one worker after 250 requests). PostgreSQL's connections come from Django's pool instead
(psycopg_pool, bounded per process); MariaDB's are opened per request; SQLite's are files opened
per request already."""

from typing import Any

from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.frameworks.django_site.settings import django_settings

URLCONF = "layerbench_sites.frameworks.django_asgi_site.urls"
POSTGRESQL = "django.db.backends.postgresql"
# Connections a worker process keeps for PostgreSQL (Django 5.1's pool: psycopg_pool).
POOL_MIN_SIZE = 2
POOL_MAX_SIZE = 16


def unpersisted(database: dict[str, Any]) -> dict[str, Any]:
    """A DATABASES entry without a persistent connection (pooled for PostgreSQL)."""
    if not database or "CONN_MAX_AGE" not in database:
        return database
    entry = {**database, "CONN_MAX_AGE": 0}
    if entry["ENGINE"] == POSTGRESQL:
        pool = {"min_size": POOL_MIN_SIZE, "max_size": POOL_MAX_SIZE}
        entry["OPTIONS"] = {**entry.get("OPTIONS", {}), "pool": pool}
    return entry


def django_asgi_settings(config: AppConfig) -> dict[str, Any]:
    """The keyword arguments of ``settings.configure`` for the ASGI site."""
    settings = django_settings(config)
    databases = {alias: unpersisted(entry) for alias, entry in settings["DATABASES"].items()}
    return {**settings, "ROOT_URLCONF": URLCONF, "DATABASES": databases}
