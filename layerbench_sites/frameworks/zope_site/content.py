"""The persistent objects the Zope application publishes: the rung data's row, and ``/ladder``
whose methods answer the rungs (Zope's publisher traverses ``/ladder/NAME`` to them).

Both are stored in ZODB: the classes are referred to by their module's name, so they stay here.
"""

from typing import Any

from AccessControl import ClassSecurityInfo  # type: ignore[import-untyped]
from AccessControl.class_init import InitializeClass  # type: ignore[import-untyped]
from Acquisition import aq_inner, aq_parent  # type: ignore[import-untyped]
from OFS.SimpleItem import SimpleItem  # type: ignore[import-untyped]
from persistent import Persistent  # type: ignore[import-untyped]
from Products.PageTemplates.PageTemplateFile import (  # type: ignore[import-untyped]
    PageTemplateFile,
)

from layerbench.rungs.definitions import ORM, PAGE, STRING, TEMPLATE
from layerbench.rungs.rung_data import (
    HELLO_ID,
    HELLO_VALUE,
    PAGE_VIDEO_PRETTYID,
    MissingRungDataError,
)
from layerbench_sites.frameworks.zope_site.videos import PAGES_ID, VideoPages

LADDER_ID = "ladder"
TEXT = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"


class HelloRow(Persistent):  # type: ignore[misc]
    """Row ``HELLO_ID`` of the rung data's table, copied into ZODB."""

    # Its attributes are public to the page template (Zope's security checks each one).
    __allow_access_to_unprotected_subobjects__ = True

    def __init__(self, row_id: int, value: str) -> None:
        self.row_id = row_id
        self.value = value


class LadderRungs(SimpleItem):  # type: ignore[misc]
    """``/ladder``: one published method per rung this application answers."""

    security = ClassSecurityInfo()
    security.declareObjectPublic()
    _template = PageTemplateFile("templates/hello.pt", globals())

    def __init__(self, hello: HelloRow) -> None:
        self.id = LADDER_ID
        self.hello = hello

    security.declarePublic(STRING.name)

    def string(self, REQUEST: Any) -> str:  # noqa: N803 (Zope passes the request by this name)
        """A Python string from a global."""
        REQUEST.RESPONSE.setHeader("Content-Type", TEXT)
        return HELLO_VALUE

    security.declarePublic(ORM.name)

    def orm(self, REQUEST: Any) -> str:  # noqa: N803
        """The row through ZODB: a persistent object loaded by the request's connection."""
        REQUEST.RESPONSE.setHeader("Content-Type", TEXT)
        return self._row().value

    security.declarePublic(TEMPLATE.name)

    def template(self, REQUEST: Any) -> str:  # noqa: N803
        """The ZODB row rendered by a Zope Page Template."""
        row = self._row()
        REQUEST.RESPONSE.setHeader("Content-Type", HTML)
        rendered: str = self._template(hello=row)
        return rendered

    security.declarePublic(PAGE.name)

    def page(self, REQUEST: Any) -> str:  # noqa: N803
        """The site's video page, built from the objects in ZODB on every request."""
        pages: VideoPages | None = aq_parent(aq_inner(self))._getOb(PAGES_ID, None)
        if pages is None:
            raise MissingRungDataError(f"the ZODB root's {PAGES_ID} (no site database was given)")
        rendered = pages.render(PAGE_VIDEO_PRETTYID)
        REQUEST.RESPONSE.setHeader("Content-Type", HTML)
        return rendered

    def _row(self) -> HelloRow:
        hello: HelloRow | None = getattr(self, "hello", None)
        if hello is None or hello.row_id != HELLO_ID:
            raise MissingRungDataError(f"row {HELLO_ID} in the ZODB root's {LADDER_ID}")
        return hello


InitializeClass(LadderRungs)
