"""The WSGI entry (``layerbench_sites.frameworks.django_site.wsgi:application``): Django set up
from the environment (:func:`settings.django_settings`), no DJANGO_SETTINGS_MODULE."""

import django
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler

from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.body_limit import limited_wsgi
from layerbench_sites.frameworks.django_site.settings import django_settings

if not settings.configured:
    settings.configure(**django_settings(AppConfig.from_env()))
django.setup(set_prefix=False)
# The body capped before Django reads it (see body_limit).
application = limited_wsgi(WSGIHandler())
