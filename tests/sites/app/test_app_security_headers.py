"""The site's pages forbid framing and sniffing and carry a Content-Security-Policy that allows
their own style sheet and nothing else, whether gunicorn builds a page or nginx, in front,
serves its file from the page-cache directory (as ``app serve --cache file:///DIR`` runs them).
"""

import base64
import hashlib
import re
from pathlib import Path

import pytest

from layerbench.proc.ports import free_port
from layerbench.servers.nginx_front import NginxFront
from layerbench_sites.app.app_config import CACHE_URL_VARIABLE
from tests.app_server import Client, Reply
from tests.gunicorn_site import gunicorn_site

pytestmark = pytest.mark.services

VIDEO = {"title": "Toxic", "url": "https://example.org/toxic"}


def assert_protected(reply: Reply) -> None:
    assert reply.status == 200, reply.body
    assert reply.headers["x-frame-options"] == "DENY"
    assert reply.headers["x-content-type-options"] == "nosniff"
    policy = reply.headers["content-security-policy"]
    for directive in ("default-src 'none'", "frame-ancestors 'none'", "form-action 'self'"):
        assert directive in policy, policy
    assert "unsafe-inline" not in policy and "script-src" not in policy


def style_source(page: bytes) -> str:
    """The CSP source that allows the page's inline style sheet, as a browser computes it."""
    match = re.search(rb"<style>(.*?)</style>", page, re.DOTALL)
    assert match, page
    return "'sha256-" + base64.b64encode(hashlib.sha256(match.group(1)).digest()).decode() + "'"


def test_pages_built_and_pages_from_files_carry_the_headers(
    nginx_binary: Path, workdir: Path, tmp_path: Path
) -> None:
    pages = workdir / "pages"
    with gunicorn_site(tmp_path, {CACHE_URL_VARIABLE: f"file://{pages}"}) as site:
        upstream = f"127.0.0.1:{site.server.port}"
        with NginxFront(workdir / "nginx", free_port(), upstream, pages) as front:
            client = Client(front.port)
            video = client.request("POST", "/videos", VIDEO).json()["id"]
            form_page = client.request("GET", f"/v/{video}")
            assert b'id="comment-form"' in form_page.body
            assert_protected(form_page)
            policy = form_page.headers["content-security-policy"]
            assert f"style-src {style_source(form_page.body)}" in policy
            for path in ("/", f"/videos/{video}"):
                built, from_file = client.request("GET", path), client.request("GET", path)
                assert (built.headers["x-cache"], from_file.headers["x-cache"]) == ("miss", "front")
                assert_protected(built)
                assert_protected(from_file)
                assert from_file.headers["content-security-policy"] == policy
