"""A tiny ASGI application for the ASGI server adapters' tests: it answers the string rung, and
the lifespan protocol as a real application does; its answers name the event loop that ran
them (``x-event-loop: uvloop``, or ``asyncio``). Each process that imports it says so in the
file ``$STRING_ONLY_MARKER`` names (as ``string_only`` does): the test knows which processes
ran it."""

import asyncio
import os
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from layerbench.rungs.definitions import HELLO, STRING

if marker := os.environ.get("STRING_ONLY_MARKER"):
    with open(marker, "a") as imported:
        imported.write(f"{os.getpid()}\n")

Message = MutableMapping[str, Any]


async def application(
    scope: MutableMapping[str, Any],
    receive: Callable[[], Awaitable[Message]],
    send: Callable[[Message], Awaitable[None]],
) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    found = scope["path"] == STRING.path
    body = HELLO if found else b""
    loop = type(asyncio.get_running_loop()).__module__.partition(".")[0]
    headers = [
        (b"content-type", b"text/plain"),
        (b"content-length", str(len(body)).encode()),
        (b"x-event-loop", loop.encode()),
    ]
    await send({"type": "http.response.start", "status": 200 if found else 404, "headers": headers})
    await send({"type": "http.response.body", "body": body})
