"""The module a WSGI server that keeps no access log imports for ``app serve``:
``layerbench.app.access_logged_entry:application``, the application of
:mod:`layerbench.app.entry` with an access log on stderr (:mod:`layerbench.app.access_log`)."""

from layerbench.app.access_log import AccessLogged
from layerbench.app.entry import application as logged

application = AccessLogged(logged)
