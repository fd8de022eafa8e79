"""A WSGI application whose request costs a known amount of work: ``ROUNDS`` rounds of a
checksum over the path. The CI recipe's test makes it 3x slower by tripling ``ROUNDS``."""

from collections.abc import Callable, Iterable
from typing import Any

ROUNDS = 1000


def checksum(text: str, rounds: int) -> int:
    total = 0
    for number in range(rounds):
        total = (total * 31 + number + len(text)) % 1_000_003
    return total


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    body = f"{checksum(environ.get('PATH_INFO', '/'), ROUNDS)}\n".encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
