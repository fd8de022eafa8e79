"""The module an ASGI server imports: ``layerbench_sites.app.asgi_entry:application``, the ASGI
application ``$LAYERBENCH_ASGI_APP`` names, else the Starlette site (see
``layerbench_sites.app.asgi_app``). Every ASGI server adapter loads this module, so each runs each
ASGI application unchanged, as every WSGI one loads ``layerbench_sites.app.entry``."""

from layerbench_sites.app.asgi_app import ASGIApplication, from_environment
from layerbench_sites.app.loaded_announcement import announce_loaded

application: ASGIApplication = from_environment()
announce_loaded()
