"""Cross-site request forgery protection for the HTML form: a token bound to the browser's
session cookie by an HMAC under the site's secret.

A cross-site page can make the browser post the form with its cookie, but cannot read the
token (the same-origin policy keeps the page from it), and cannot compute it without the
secret. The cookie is HttpOnly and SameSite=Lax besides.
"""

import hashlib
import hmac
import re
import secrets

import falcon

COOKIE = "lb_session"
SESSION_PATTERN = re.compile(r"[0-9a-f]{32}")


class CsrfGuard:
    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def token(self, session: str) -> str:
        return hmac.new(self._secret, session.encode(), hashlib.sha256).hexdigest()

    def session(self, req: falcon.Request, resp: falcon.Response) -> str:
        """The browser's session id, set in a new cookie if it has none (or a bad one)."""
        values = req.get_cookie_values(COOKIE) or []
        for value in values:
            if SESSION_PATTERN.fullmatch(value):
                return value
        session = secrets.token_hex(16)
        resp.set_cookie(
            COOKIE, session, http_only=True, secure=req.scheme == "https", same_site="Lax", path="/"
        )
        return session

    def check(self, req: falcon.Request, token: str | None) -> bool:
        """The form's token is the one for the request's session cookie."""
        if not token:
            return False
        return any(
            hmac.compare_digest(self.token(value), token)
            for value in req.get_cookie_values(COOKIE) or []
            if SESSION_PATTERN.fullmatch(value)
        )
