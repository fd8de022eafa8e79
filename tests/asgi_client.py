"""An ASGI application driven in-process for the tests, as a server drives it: the lifespan
(started before the first request and shut down at the end; an application that refuses it, as
Django's handler does, goes without, as uvicorn's ``lifespan=auto``), and each request through
httpx's ``ASGITransport`` on one event loop of the test's own. It answers as
``tests.app_server.Client`` does, so the same checks run on a WSGI server and in-process."""

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from tests.app_server import Reply

LIFESPAN_TIMEOUT_S = 30.0
REQUEST_TIMEOUT_S = 60.0


class Lifespan:
    """The ASGI lifespan protocol: startup before the first request, shutdown at the end."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.received: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}}
        try:
            await self.app(scope, self.received.get, self.sent.put)
        except Exception:  # the application has no lifespan (Django): none is run
            await self.sent.put({"type": "lifespan.unsupported"})

    async def startup(self) -> None:
        self.task = asyncio.ensure_future(self._run())
        await self.received.put({"type": "lifespan.startup"})
        answer = await asyncio.wait_for(self.sent.get(), LIFESPAN_TIMEOUT_S)
        if answer["type"] == "lifespan.unsupported":
            self.task = None
            return
        assert answer["type"] == "lifespan.startup.complete", answer

    async def shutdown(self) -> None:
        if self.task is None:
            return
        await self.received.put({"type": "lifespan.shutdown"})
        answer = await asyncio.wait_for(self.sent.get(), LIFESPAN_TIMEOUT_S)
        assert answer["type"] == "lifespan.shutdown.complete", answer
        await asyncio.wait_for(self.task, LIFESPAN_TIMEOUT_S)


class ASGIClient:
    def __init__(self, loop: asyncio.AbstractEventLoop, client: httpx.AsyncClient) -> None:
        self.loop = loop
        self.client = client

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> Reply:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        sending = self.client.request(method, path, content=data, headers=all_headers)
        response = self.loop.run_until_complete(asyncio.wait_for(sending, REQUEST_TIMEOUT_S))
        return Reply(
            response.status_code,
            {k.lower(): v for k, v in response.headers.items()},
            response.content,
        )


@contextmanager
def asgi_client(app: Any) -> Iterator[ASGIClient]:
    """``app`` served in-process on a fresh event loop, closed with everything on it."""
    loop = asyncio.new_event_loop()
    lifespan = Lifespan(app)
    transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 50000))
    client = httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")
    try:
        loop.run_until_complete(lifespan.startup())
        yield ASGIClient(loop, client)
    finally:
        try:
            loop.run_until_complete(client.aclose())
            loop.run_until_complete(lifespan.shutdown())
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            loop.close()
