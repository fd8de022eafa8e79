"""The headers every response of the site carries, the application's and the front server's
alike (nginx sends the same ones with the page files it serves): no framing (clickjacking), no
content sniffing, and a Content-Security-Policy that allows nothing but the page's own style
sheet (by its hash: the pages carry no script at all) and forms posted back to the site."""

import base64
import hashlib
from importlib.resources import files
from typing import Any

import falcon

STYLE_TEMPLATE = "site/style.css"


def style_hash() -> str:
    """The CSP source of the layout's inline style sheet, as the template renders it (Jinja
    drops the file's final newline)."""
    style = (files("layerbench_sites.app") / "templates" / STYLE_TEMPLATE).read_text("utf-8")
    digest = hashlib.sha256(style.removesuffix("\n").encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def content_security_policy() -> str:
    return "; ".join(
        [
            "default-src 'none'",
            f"style-src {style_hash()}",
            "img-src 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
            "base-uri 'none'",
        ]
    )


def security_headers() -> list[tuple[str, str]]:
    return [
        ("Content-Security-Policy", content_security_policy()),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
    ]


class SecurityHeaders:
    """Falcon middleware: the headers on every response."""

    def __init__(self) -> None:
        self.headers = security_headers()

    def process_response(
        self, req: falcon.Request, resp: falcon.Response, resource: Any, req_succeeded: bool
    ) -> None:
        for name, value in self.headers:
            resp.set_header(name, value)
