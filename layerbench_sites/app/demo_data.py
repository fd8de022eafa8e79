"""A few videos with comments and tags for the demo site, so that a fresh ``app serve`` shows
something at ``/``. They are written once, on a database that ``app serve`` has just created,
through the catalog (so the history records them, by ``DEMO_ACTOR``)."""

from dataclasses import dataclass
from typing import Any

from layerbench_sites.app.videos import Catalog
from layerbench_sites.datalayer.open_repository import open_repository

DEMO_ACTOR = "layerbench-demo"


@dataclass(frozen=True)
class DemoVideo:
    fields: dict[str, Any]  # as the API takes them
    comments: tuple[tuple[str, str], ...]  # (name, body)


DEMO_VIDEOS = (
    DemoVideo(
        {
            "prettyid": "what-each-layer-costs",
            "title": "What each layer of a web stack costs",
            "url": "https://example.org/videos/what-each-layer-costs",
            "description": "From a static file to a full page: the ladder, one rung at a time.",
            "tags": ["benchmarks", "python"],
        },
        (
            ("Ada", "The drop from the string to the cache rung surprised me."),
            ("Grace", "Now run it with the page cache in memcached."),
        ),
    ),
    DemoVideo(
        {
            "prettyid": "page-caching-with-sweepers",
            "title": "Page caching with sweepers",
            "url": "https://example.org/videos/page-caching-with-sweepers",
            "description": "Pages kept as files that the front server serves; every write sweeps.",
            "tags": ["caching", "nginx"],
        },
        (
            ("Linus", "try_files does all the work, and Python never sees the request."),
            ("Margaret", "What about a page with a form on it?"),
            ("Ken", "Keep it out of the cache, as this site does."),
        ),
    ),
    DemoVideo(
        {
            "prettyid": "short-ids-and-history",
            "title": "Short ids, pretty ids and an audit history",
            "url": "https://example.org/videos/short-ids-and-history",
            "description": "13 characters of base 36, and triggers that record every change.",
            "tags": ["databases", "python"],
        },
        (("Barbara", "Triggers, so that raw SQL cannot escape the history."),),
    ),
    DemoVideo(
        {
            "prettyid": "mod-wsgi-daemon-mode",
            "title": "mod_wsgi embedded or daemon mode?",
            "url": "https://example.org/videos/mod-wsgi-daemon-mode",
            "tags": ["benchmarks", "apache"],
        },
        (
            ("Dennis", "Daemon mode, every time I measured."),
            ("Frances", "At which concurrency, though?"),
        ),
    ),
)


def put_demo_data(database_url: str) -> int:
    """Writes the demo videos, their tags and comments; returns how many videos."""
    catalog = Catalog(open_repository(database_url))
    try:
        for video in DEMO_VIDEOS:
            identifier = catalog.create_video(video.fields, DEMO_ACTOR)
            for name, body in video.comments:
                catalog.create_comment(identifier, {"name": name, "body": body}, DEMO_ACTOR)
    finally:
        catalog.repository.connection.close()
    return len(DEMO_VIDEOS)
