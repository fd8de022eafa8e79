"""A user's project for ``layerbench smoke``'s tests, imported with ``--app-path tests/smoke_apps``
as a package outside layerbench: ``shop.wsgi:application`` and the mistakes a user makes."""
