"""The data layer's dialect of a site's database, by the name its ORM gives the database's
kind: SQLAlchemy's dialect name (the Flask and Starlette sites) or Django's vendor, the same
words (``sqlite``, ``postgresql``, ``mysql``; SQLAlchemy's ``mariadb`` too)."""

from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.datalayer.mariadb_dialect import MariadbDialect
from layerbench_sites.datalayer.postgres_dialect import PostgresDialect
from layerbench_sites.datalayer.sqlite_dialect import SqliteDialect

DIALECTS: dict[str, type[Dialect]] = {
    "sqlite": SqliteDialect,
    "postgresql": PostgresDialect,
    "mysql": MariadbDialect,
    "mariadb": MariadbDialect,
}


def dialect_named(name: str) -> Dialect:
    return DIALECTS[name]()
