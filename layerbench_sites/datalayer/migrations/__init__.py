"""Alembic's migrations of the data layer's schema (script location of ``migrate.py``)."""
