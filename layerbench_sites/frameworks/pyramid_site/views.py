"""The Pyramid application's own rungs: ``string`` (a global), ``orm`` (the row through
SQLAlchemy) and ``template`` (that row rendered by a Chameleon template)."""

from typing import Any

from pyramid.response import Response  # type: ignore[import-untyped]

from layerbench.rungs.rung_data import HELLO_ID, MissingRungDataError
from layerbench_sites.app.database import Database
from layerbench_sites.app.models import Hello
from layerbench_sites.app.rung_handlers import HELLO_BYTES, HELLO_ROW


def text(body: bytes, status: int = 200) -> Any:
    return Response(body=body, status=status, content_type="text/plain", charset="utf-8")


class PyramidRungs:
    def __init__(self, database: Database) -> None:
        self.database = database

    def string(self, _request: Any) -> Any:
        return text(HELLO_BYTES)

    def orm(self, _request: Any) -> Any:
        return text(self._hello().value.encode())

    def template(self, _request: Any) -> dict[str, Hello]:
        """The values of ``templates/hello.pt``."""
        return {"hello": self._hello()}

    def _hello(self) -> Hello:
        with self.database.session() as session:
            hello = session.get(Hello, HELLO_ID)
            if hello is None:
                raise MissingRungDataError(HELLO_ROW)
            return hello
