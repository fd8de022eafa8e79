"""Verify before measuring: one request per rung, compared byte for byte."""

import http.client

from layerbench.errors import VerificationError
from layerbench.lab.rungs import Rung
from layerbench.servers.http_probe import http_get

SHOWN_BYTES = 120


def verify_rung(base_url: str, rung: Rung) -> None:
    url = base_url + rung.path
    try:
        response = http_get(url, timeout_s=10.0)
    except (OSError, http.client.HTTPException) as error:
        raise VerificationError(f"rung {rung.name}: no valid answer from {url}: {error}") from None
    if response.status != rung.expected_status or response.body != rung.expected_body:
        raise VerificationError(
            f"rung {rung.name}: {url} answered {response.status} {_show(response.body)}, "
            f"expected {rung.expected_status} {_show(rung.expected_body)}; "
            "the rung is broken, so it is not measured"
        )


def _show(body: bytes) -> str:
    text = repr(body[:SHOWN_BYTES])
    return text + ("…" if len(body) > SHOWN_BYTES else "")
