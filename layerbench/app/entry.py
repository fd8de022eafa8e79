"""The module a WSGI server imports: ``layerbench.app.entry:application``, configured from the
environment (see ``layerbench.app.settings``)."""

from layerbench.app.settings import AppSettings
from layerbench.app.wsgi import create_app

application = create_app(AppSettings.from_env())
