"""The page sweeper on Django's model signals (the seed's ``cache_sweeper``): a video or comment
saved or deleted expires the page families that show it (``page_sweeper.families_of``), once
its transaction has committed."""

from typing import Any

from django.db import transaction
from django.db.models import Model
from django.db.models.signals import post_delete, post_save

from layerbench_sites.app.api.page_sweeper import families_of
from layerbench_sites.datalayer.written import Written
from layerbench_sites.frameworks.django_site.page_cache import site_pages


def video_written(video: Any) -> Written:
    return Written("videos", video.short_id, video.prettyid)


def sweep_after_commit(written: Written, using: str) -> None:
    families = families_of([written])
    transaction.on_commit(lambda: site_pages().sweep(families), using=using)


def connect(video_model: type[Model], comment_model: type[Model]) -> None:
    def video_changed(sender: type[Model], instance: Any, using: str, **_: Any) -> None:
        sweep_after_commit(video_written(instance), using)

    def comment_changed(sender: type[Model], instance: Any, using: str, **_: Any) -> None:
        sweep_after_commit(video_written(instance.video), using)

    for signal in (post_save, post_delete):
        signal.connect(video_changed, sender=video_model, weak=False)
        signal.connect(comment_changed, sender=comment_model, weak=False)
