"""The page cache's sweeper (the seed's ``cache_sweeper``): it observes the repository, and once
a write transaction has committed it expires exactly the page families of what the write
changed. No handler sweeps by hand: a write made anywhere through the repository is swept.

A video's pages are the index (``videos``, also by tag), the tag pages (``tags``: counts and
lists) and its own (``video:REF``: itself, its comments, under each of its names). A comment has
no family of its own: the repository reports its video with it. A tag's pages are the tag pages
and the index by tag; the videos that show its name are reported when their links change.
"""

from collections.abc import Iterable

from layerbench_sites.app.api.page_cache import PageCache, video_family
from layerbench_sites.datalayer.written import Written

INDEX_FAMILY = "videos"
TAGS_FAMILY = "tags"


def families_of(written: Iterable[Written]) -> set[str]:
    """The page families whose pages show what was written."""
    families: set[str] = set()
    for entity in written:
        if entity.table == "videos":
            names = [entity.id] if entity.prettyid is None else [entity.id, entity.prettyid]
            families |= {INDEX_FAMILY, TAGS_FAMILY, *(video_family(name) for name in names)}
        elif entity.table == "tags":
            families |= {INDEX_FAMILY, TAGS_FAMILY}
    return families


class PageSweeper:
    """A repository's observer that sweeps ``pages`` after each committed write."""

    def __init__(self, pages: PageCache) -> None:
        self.pages = pages

    def __call__(self, written: frozenset[Written]) -> None:
        families = families_of(written)
        if families:
            self.pages.sweep(families)
