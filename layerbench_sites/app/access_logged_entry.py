"""The module a WSGI server that keeps no access log imports for ``app serve``:
``layerbench_sites.app.access_logged_entry:application``, the application of
:mod:`layerbench_sites.app.entry` with an access log on stderr
(:mod:`layerbench_sites.app.access_log`)."""

from layerbench_sites.app.access_log import AccessLogged
from layerbench_sites.app.entry import application as logged

application = AccessLogged(logged)
