"""The module a WSGI server imports for the Flask application (``$LAYERBENCH_WSGI_APP``):
the application configured from the environment."""

from flask import Flask

from layerbench_sites.frameworks.flask_site.app import create_app

application: Flask = create_app()
