"""Alembic's environment: migrations run on the connection that ``migrate.py`` hands over,
one transaction for all (PostgreSQL and SQLite change their schema transactionally; MariaDB
commits each DDL statement by itself)."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, transactional_ddl=None)
with context.begin_transaction():
    context.run_migrations()
