"""The ASGI entry (``layerbench.frameworks.django_asgi_site.django_asgi:application``): Django
set up from the environment as the WSGI entry is (:mod:`django_settings`), its URLconf the
async views', served by Django's ASGI handler."""

import django
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

from layerbench.app.app_config import AppConfig
from layerbench.frameworks.django_site.django_settings import django_settings

URLCONF = "layerbench.frameworks.django_asgi_site.django_asgi_urls"

if not settings.configured:
    settings.configure(**{**django_settings(AppConfig.from_env()), "ROOT_URLCONF": URLCONF})
django.setup(set_prefix=False)
application = ASGIHandler()
