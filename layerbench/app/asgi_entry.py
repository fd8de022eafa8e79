"""The module an ASGI server imports: ``layerbench.app.asgi_entry:application``, the ASGI
application ``$LAYERBENCH_ASGI_APP`` names, else the Starlette site (see
``layerbench.app.asgi_app``). Every ASGI server adapter loads this module, so each runs each
ASGI application unchanged, as every WSGI one loads ``layerbench.app.entry``."""

from layerbench.app.asgi_app import ASGIApplication, from_environment
from layerbench.app.loaded_announcement import announce_loaded

application: ASGIApplication = from_environment()
announce_loaded()
