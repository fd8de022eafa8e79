"""The module an ASGI server imports for the FastAPI application (``$LAYERBENCH_ASGI_APP``,
through ``layerbench_sites.app.asgi_entry``): the application configured from the environment."""

from fastapi import FastAPI

from layerbench_sites.frameworks.fastapi_site.main import create_app

application: FastAPI = create_app()
