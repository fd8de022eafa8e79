"""The Django application of the site: its models, and the page sweeper on their signals."""

from django.apps import AppConfig


class DjangoSiteConfig(AppConfig):
    name = "layerbench_sites.frameworks.django_site"
    label = "django_site"

    def ready(self) -> None:
        # Models are defined once the applications are loaded.
        from layerbench_sites.frameworks.django_site import (  # noqa: PLC0415
            models,
            signals,
        )

        signals.connect(models.Video, models.Comment)
