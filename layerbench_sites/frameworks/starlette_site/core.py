"""What the Starlette and FastAPI applications share below their routes: the ladder's rung data
and the site (its video page built, or through the page cache, and its comments written), on
the async data layer, configured from the environment as every application is
(:class:`layerbench_sites.app.app_config.AppConfig`). Templates are Jinja2's through
``starlette.templating``. Without a site database only the ladder's rungs are answered."""

from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from starlette.templating import Jinja2Templates

from layerbench_sites.app.api.page_cache import CachedPage, etag_of, video_family
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache_select import page_namespace
from layerbench_sites.frameworks.site_orm import Row
from layerbench_sites.frameworks.site_templates import (
    HELLO_TEMPLATE,
    JINJA_TEMPLATES,
    VIDEO_TEMPLATE,
)
from layerbench_sites.frameworks.starlette_site.database import (
    dialect_of,
    rung_engine,
    site_engine,
)
from layerbench_sites.frameworks.starlette_site.page_cache import (
    AsyncPageCache,
    async_pages_from_url,
)
from layerbench_sites.frameworks.starlette_site.sweeper import AsyncSweeper, SiteSession
from layerbench_sites.frameworks.starlette_site.upstream import AsyncUpstreamClient
from layerbench_sites.frameworks.starlette_site.videos import (
    CommentWriter,
    comments_of,
    find_video,
    hello_row,
)

TEXT = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
TEMPLATES = Jinja2Templates(directory=JINJA_TEMPLATES)
# The Starlette and FastAPI sites' pages (the same pages, built by one Site) apart from the
# bare application's and the other frameworks' in a shared cache.
PAGE_NAMESPACE = "starlette:"


class Site:
    """The site's database, its page cache and its comment writer."""

    def __init__(self, database_url: str, pages: AsyncPageCache) -> None:
        self.engine = site_engine(database_url)
        self.sessions = async_sessionmaker(
            self.engine, expire_on_commit=False, sync_session_class=SiteSession
        )
        self.pages = pages
        self.writer = CommentWriter(self.sessions, dialect_of(self.engine), AsyncSweeper(pages))

    async def video_page(self, ref: str) -> bytes | None:
        """The video's page built now; None when there is no such video."""
        async with self.sessions() as session:
            video = await find_video(session, ref)
            if video is None:
                return None
            comments = await comments_of(session, video)
        template = TEMPLATES.get_template(VIDEO_TEMPLATE)
        return template.render(video=video, comments=comments).encode()

    async def cached_page(self, ref: str, path: str) -> CachedPage | None:
        """The video's page from the page cache, built and kept when it is not there. The
        generation is read before the database: a page built before a write's sweep is never
        served after it."""
        lookup = await self.pages.lookup(video_family(ref), path)
        if lookup.page is not None:
            return lookup.page
        body = await self.video_page(ref)
        if body is None:
            return None
        page = CachedPage(body, HTML, etag_of(body))
        await self.pages.keep(lookup, page)
        return page

    async def add_comment(self, ref: str, fields: Row, actor: str) -> Row | None:
        return await self.writer.add(ref, fields, actor)


class AsgiSiteData:
    """The ladder's rung data, the upstream rung's service when its URL is configured and,
    with a site database, the site."""

    def __init__(self, config: AppConfig) -> None:
        self.rung_engine: AsyncEngine = rung_engine(config.orm_url or str(config.db_path))
        self.rung_sessions = async_sessionmaker(self.rung_engine)
        upstream = config.services.upstream
        self.upstream = AsyncUpstreamClient(upstream) if upstream else None
        self.site: Site | None = None
        if config.database_url is not None:
            namespace = page_namespace(config.database_url, PAGE_NAMESPACE)
            pages = async_pages_from_url(config.cache_url, config.cache_max_bytes, namespace)
            self.site = Site(config.database_url, pages)

    async def hello_value(self) -> str:
        async with self.rung_sessions() as session:
            return (await hello_row(session)).value

    async def hello_page(self) -> bytes:
        async with self.rung_sessions() as session:
            hello = await hello_row(session)
        return TEMPLATES.get_template(HELLO_TEMPLATE).render(hello=hello).encode()

    async def close(self) -> None:
        await self.rung_engine.dispose()
        if self.site is not None:
            await self.site.engine.dispose()
            await self.site.pages.close()
