"""The module an ASGI server imports for the Starlette application (``$LAYERBENCH_ASGI_APP``,
through ``layerbench_sites.app.asgi_entry``): the application configured from the environment."""

from starlette.applications import Starlette

from layerbench_sites.frameworks.starlette_site.app import create_app

application: Starlette = create_app()
