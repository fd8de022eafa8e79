"""The ASGI entry (``layerbench_sites.frameworks.django_asgi_site.asgi:application``): Django
set up from the environment as the WSGI entry is, its URLconf the async views' and no
persistent database connection (:mod:`settings`), served by Django's ASGI handler."""

import django
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.body_limit import LimitedAsgi
from layerbench_sites.frameworks.django_asgi_site.settings import django_asgi_settings

if not settings.configured:
    settings.configure(**django_asgi_settings(AppConfig.from_env()))
django.setup(set_prefix=False)
# The body capped before Django reads it (see body_limit).
application = LimitedAsgi(ASGIHandler())
