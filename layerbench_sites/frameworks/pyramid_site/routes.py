"""The site's URL dispatch, as Pyramid's scaffolds lay it out: every route by name and pattern,
added by ``includeme`` (``main`` includes this module); ``main`` attaches each route's view.
A route whose view is not attached (the site's pages without a site database, the upstream
rung without its URL) answers 404, as an unknown path does."""

from typing import Any

from layerbench.rungs.definitions import CACHED_PAGE, ORM, PAGE, STRING, TEMPLATE, UPSTREAM, WRITE
from layerbench.rungs.rung_data import PAGE_VIDEO_PRETTYID, WRITE_VIDEO_PRETTYID

# In the order they are matched.
ROUTES = {
    "string": STRING.path,
    "orm": ORM.path,
    "template": TEMPLATE.path,
    "upstream": UPSTREAM.path,
    "page": PAGE.path,
    "video_page": CACHED_PAGE.path.replace(PAGE_VIDEO_PRETTYID, "{ref}"),
    "comments": WRITE.path.replace(WRITE_VIDEO_PRETTYID, "{ref}"),
}


def includeme(config: Any) -> None:
    for name, pattern in ROUTES.items():
        config.add_route(name, pattern)
