"""Verify before measuring: one request per rung, its answer checked against the rung's."""

import http.client

from layerbench.errors import VerificationError
from layerbench.proc.http_probe import http_request
from layerbench.rungs.definitions import Rung

SHOWN_BYTES = 120


def verify_rung(base_url: str, rung: Rung) -> None:
    """Raises VerificationError unless ``rung`` (each part of a mixed rung) answers as it must."""
    for _, part in rung.mix:
        verify_rung(base_url, part)
    if rung.mix:
        return
    url = base_url + rung.path
    try:
        response = http_request(
            url, method=rung.method, body=rung.body, content_type=rung.content_type, timeout_s=10.0
        )
    except (OSError, http.client.HTTPException) as error:
        raise VerificationError(f"rung {rung.name}: no valid answer from {url}: {error}") from None
    if not rung.accepts(response.status, response.body):
        expected = rung.expected_body if rung.expected_body is not None else rung.expected_text
        how = "" if rung.expected_body is not None else "a body holding "
        raise VerificationError(
            f"rung {rung.name}: {rung.method} {url} answered {response.status} "
            f"{_show(response.body)}, expected {rung.expected_status} {how}"
            f"{_show(expected or b'')}; the rung is broken, so it is not measured"
        )


def _show(body: bytes) -> str:
    text = repr(body[:SHOWN_BYTES])
    return text + ("…" if len(body) > SHOWN_BYTES else "")
