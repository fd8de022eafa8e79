"""The async views: the ladder's framework rungs, the upstream rung (when its URL is set), the
video page (built, or through the page cache) and a comment posted as JSON, answering as the
Django site's sync views do."""

from asgiref.sync import sync_to_async
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from layerbench.rungs.rung_data import HELLO_ID, PAGE_VIDEO_PRETTYID, MissingRungDataError
from layerbench_sites.app.api.page_cache import CachedPage, etag_of, video_family
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.frameworks.django_site.comments import write_comment
from layerbench_sites.frameworks.django_site.models import Comment, Hello, Video
from layerbench_sites.frameworks.django_site.settings import RUNGS, SITE
from layerbench_sites.frameworks.django_site.views import (
    HELLO_BYTES,
    HTML,
    TEXT,
    comment_created,
    comment_posted,
    comments_of,
    not_found,
    problem,
    rendered_page,
    videos_named,
)
from layerbench_sites.frameworks.starlette_site.page_cache import AsyncPageCache
from layerbench_sites.frameworks.starlette_site.upstream import AsyncUpstreamClient


class DjangoAsyncCache:
    """Django's cache framework through its async API, as the ASGI sites' page cache uses a
    cache (the same keys as the sweeper's sync calls)."""

    async def get_many(self, keys: list[str]) -> list[bytes | None]:
        found = await caches[SITE].aget_many(keys)
        return [found.get(key) for key in keys]

    async def set(self, key: str, value: bytes) -> None:
        await caches[SITE].aset(key, value, timeout=None)

    async def close(self) -> None:
        return None  # Django closes its caches' connections itself


PAGES = AsyncPageCache(DjangoAsyncCache())
UPSTREAM_URL = ServiceUrls.from_env().upstream
# The upstream rung's delaying server, awaited in the event loop (Django has no HTTP client).
UPSTREAM = AsyncUpstreamClient(UPSTREAM_URL) if UPSTREAM_URL else None


async def hello_row() -> Hello:
    hello = await Hello.objects.using(RUNGS).filter(pk=HELLO_ID).afirst()
    if hello is None:
        raise MissingRungDataError(f"row {HELLO_ID} of table hello")
    return hello


@require_GET
async def string(request: HttpRequest) -> HttpResponse:
    return HttpResponse(HELLO_BYTES, content_type=TEXT)


@require_GET
async def orm(request: HttpRequest) -> HttpResponse:
    return HttpResponse((await hello_row()).value.encode(), content_type=TEXT)


@require_GET
async def template(request: HttpRequest) -> HttpResponse:
    body = render_to_string("django_site/hello.html", {"hello": await hello_row()})
    return HttpResponse(body.encode(), content_type=HTML)


@require_GET
async def upstream(request: HttpRequest) -> HttpResponse:
    assert UPSTREAM is not None  # routed only when configured
    return HttpResponse(await UPSTREAM.get(), content_type=TEXT)


async def find_video(ref: str) -> Video | None:
    """The video ``ref`` names by short id, else pretty id."""
    return await videos_named(ref).afirst()


async def video_page(video: Video) -> bytes:
    comments: list[Comment] = [comment async for comment in comments_of(video)]
    return rendered_page(video, comments)


@require_GET
async def page(request: HttpRequest) -> HttpResponse:
    video = await find_video(PAGE_VIDEO_PRETTYID)
    if video is None:
        raise MissingRungDataError(f"video {PAGE_VIDEO_PRETTYID}")
    return HttpResponse(await video_page(video), content_type=HTML)


@require_GET
async def cached_page(request: HttpRequest, ref: str) -> HttpResponse:
    # The generation is read before the database (see page_cache).
    lookup = await PAGES.lookup(video_family(ref), request.path)
    kept = lookup.page
    if kept is None:
        video = await find_video(ref)
        if video is None:
            return not_found(ref)
        body = await video_page(video)
        kept = CachedPage(body, HTML, etag_of(body))
        await PAGES.keep(lookup, kept)
    response = HttpResponse(kept.body, content_type=kept.content_type)
    response["ETag"] = kept.etag
    return response


@require_POST
async def post_comment(request: HttpRequest, ref: str) -> HttpResponse:
    posted = comment_posted(request)
    if isinstance(posted, JsonResponse):
        return posted
    values, actor = posted
    video = await find_video(ref)
    if video is None:
        return problem(404, f"no video {ref}", [])
    # A transaction has no async API in Django: the write (and its sweep on commit) runs whole
    # on Django's thread for sync code.
    comment = await sync_to_async(write_comment)(video, values, actor)
    return comment_created(video, comment)
