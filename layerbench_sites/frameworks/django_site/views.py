"""The views: the ladder's framework rungs (the upstream rung's when its URL is set), the video
page (built, or through the page cache) and a comment posted as JSON."""

from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from layerbench.rungs.rung_data import (
    HELLO_ID,
    HELLO_VALUE,
    PAGE_VIDEO_PRETTYID,
    MissingRungDataError,
)
from layerbench_sites.app.api import schemas
from layerbench_sites.app.api.http import ACTOR_HEADER, ACTOR_PATTERN
from layerbench_sites.app.api.json_text import parse_json
from layerbench_sites.app.api.page_cache import CachedPage, etag_of, video_family
from layerbench_sites.app.api.pages import COMMENTS_SHOWN
from layerbench_sites.app.upstream_client import UpstreamClient
from layerbench_sites.app.videos import COMMENT_COLUMNS, REF_PATTERN, short_id_number
from layerbench_sites.frameworks.django_site.comments import write_comment
from layerbench_sites.frameworks.django_site.models import Comment, Hello, History, Video
from layerbench_sites.frameworks.django_site.page_cache import site_pages
from layerbench_sites.frameworks.django_site.settings import RUNGS

TEXT = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
JSON = "application/json"
HELLO_BYTES = HELLO_VALUE.encode()
# As the bare application's API answers: compact, UTF-8.
JSON_PARAMS = {"separators": (",", ":"), "ensure_ascii": False}
# The upstream rung's delaying server, when the lab started one ($LAYERBENCH_UPSTREAM_URL).
UPSTREAM = UpstreamClient.from_env()


def hello_row() -> Hello:
    hello = Hello.objects.using(RUNGS).filter(pk=HELLO_ID).first()
    if hello is None:
        raise MissingRungDataError(f"row {HELLO_ID} of table hello")
    return hello


@require_GET
def string(request: HttpRequest) -> HttpResponse:
    return HttpResponse(HELLO_BYTES, content_type=TEXT)


@require_GET
def upstream(request: HttpRequest) -> HttpResponse:
    assert UPSTREAM is not None  # routed only when set
    return HttpResponse(UPSTREAM.get(), content_type=TEXT)


@require_GET
def orm(request: HttpRequest) -> HttpResponse:
    return HttpResponse(hello_row().value.encode(), content_type=TEXT)


@require_GET
def template(request: HttpRequest) -> HttpResponse:
    body = render_to_string("django_site/hello.html", {"hello": hello_row()})
    return HttpResponse(body.encode(), content_type=HTML)


def videos_named(ref: str) -> QuerySet[Video]:
    """The video ``ref`` names, by short id, else pretty id (none for a ref that names none)."""
    if short_id_number(ref) is not None:
        return Video.objects.filter(short_id=ref)
    if REF_PATTERN.fullmatch(ref):
        return Video.objects.filter(prettyid=ref)
    return Video.objects.none()


def find_video(ref: str) -> Video | None:
    """The video ``ref`` names by short id, else pretty id."""
    return videos_named(ref).first()


def comments_of(video: Video) -> QuerySet[Comment]:
    """The video's comments in the order they were written (the audit history has it)."""
    first_seq = (
        History.objects.filter(table_name="comments", row_key=OuterRef("short_id"))
        .order_by("seq")
        .values("seq")[:1]
    )
    return (
        Comment.objects.filter(video=video)
        .annotate(first_seq=Subquery(first_seq))
        .order_by("first_seq", "short_id")[:COMMENTS_SHOWN]
    )


def rendered_page(video: Video, comments: list[Comment]) -> bytes:
    values = {"video": video, "comments": comments}
    return render_to_string("django_site/video.html", values).encode()


def video_page(video: Video) -> bytes:
    return rendered_page(video, list(comments_of(video)))


def not_found(ref: str) -> HttpResponse:
    return HttpResponse(f"no video {ref}\n".encode(), content_type=TEXT, status=404)


@require_GET
def page(request: HttpRequest) -> HttpResponse:
    video = find_video(PAGE_VIDEO_PRETTYID)
    if video is None:
        raise MissingRungDataError(f"video {PAGE_VIDEO_PRETTYID}")
    return HttpResponse(video_page(video), content_type=HTML)


@require_GET
def cached_page(request: HttpRequest, ref: str) -> HttpResponse:
    pages = site_pages()
    # The generation is read before the database (see page_cache).
    lookup = pages.lookup(video_family(ref), request.path, "", shareable=True)
    kept = lookup.page
    if kept is None:
        video = find_video(ref)
        if video is None:
            return not_found(ref)
        body = video_page(video)
        kept = CachedPage(body, HTML, etag_of(body))
        pages.keep(lookup, kept)
    response = HttpResponse(kept.body, content_type=kept.content_type)
    response["ETag"] = kept.etag
    return response


def problem(status: int, title: str, errors: list[str]) -> JsonResponse:
    document = {"title": title, "errors": errors}
    return JsonResponse(document, status=status, json_dumps_params=JSON_PARAMS)


def actor_of(request: HttpRequest) -> str | None:
    """Who writes, as the history records it (as the bare application names them); None for a
    name that is not one."""
    user = request.META.get("REMOTE_USER") or request.headers.get(ACTOR_HEADER) or "anonymous"
    if not ACTOR_PATTERN.fullmatch(user):
        return None
    return f"{user}@{request.META.get('REMOTE_ADDR') or 'unknown'}"


def comment_posted(request: HttpRequest) -> tuple[dict[str, Any], str] | JsonResponse:
    """The posted comment's column values and its writer (:func:`actor_of`), or the problem
    answered instead."""
    if request.content_type != JSON:
        return problem(415, "unsupported media type", [f"the body must be {JSON}"])
    try:
        fields: Any = parse_json(request.body)
    except (UnicodeDecodeError, ValueError) as error:
        return problem(400, "a body that cannot be read", [str(error)])
    found = schemas.problems(schemas.COMMENT_INPUT, fields)
    actor = actor_of(request)
    if actor is None:
        found.append(f"{ACTOR_HEADER}: 1 to 64 of A-Z a-z 0-9 . _ @ + -")
    if found or actor is None:
        return problem(422, "invalid input", found)
    return {column: fields.get(name) for name, column in COMMENT_COLUMNS.items()}, actor


def comment_created(video: Video, comment: Comment) -> JsonResponse:
    """201 with the comment as the API gives it, and where it is."""
    document = {
        "id": comment.short_id,
        "video_id": video.short_id,
        **{name: getattr(comment, column) for name, column in COMMENT_COLUMNS.items()},
    }
    response = JsonResponse(document, status=201, json_dumps_params=JSON_PARAMS)
    response["Location"] = f"/videos/{video.short_id}/comments/{comment.short_id}"
    return response


@require_POST
def post_comment(request: HttpRequest, ref: str) -> HttpResponse:
    posted = comment_posted(request)
    if isinstance(posted, JsonResponse):
        return posted
    values, actor = posted
    video = find_video(ref)
    if video is None:
        return problem(404, f"no video {ref}", [])
    return comment_created(video, write_comment(video, values, actor))
