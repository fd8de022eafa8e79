"""nginx in front of the application: a GET or HEAD without a query string whose page is in the
page-cache directory is served from its file (``try_files``) without touching Python; anything
else goes to the application over kept-alive upstream connections.

The files and their names are the application's (:mod:`layerbench_sites.app.page_directory`);
responses served from them carry ``X-Cache: front``. A file swept away between nginx's check
and its opening sends the request on to the application too, rather than answering 404.

What nginx answers itself, it answers as the application would: a body over the sites' limit
(``MAX_BODY_BYTES``) is refused here, 413 in the API's words, and never sent upstream (an
application that refuses it unread leaves its server to close the kept-alive connection while
nginx still sends the body: nginx then read a reset instead of the 413, and answered 502); a
TRACE, which nginx refuses before choosing a location, goes to the application, whose 405
names the path's methods in ``Allow`` as RFC 9110 requires.
"""

import json
import os
import stat
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.nginx import UNPRIVILEGED_USER, NginxServer
from layerbench.site_contract import BODY_TOO_LARGE_TITLE, HEALTH_PATH, MAX_BODY_BYTES
from layerbench.site_contract import PAGE_FAMILIES as FAMILIES
from layerbench.site_contract import PAGE_INDEX as INDEX
from layerbench.sites import security_headers

# A path that names no page file: what try_files looks for when the request may not be served
# from one (page files never start with a dot).
NO_PAGE = "/.no-page"
UPSTREAM_KEEPALIVE = 64
# The access log's line: the client, the request, its status and size, the time taken, the
# user agent, and where the answer came from (X-Cache: front, or the application's hit/miss).
ACCESS_LOG_FORMAT = (
    '\'$remote_addr [$time_local] "$request" $status $body_bytes_sent ${request_time}s '
    '"$http_user_agent" $sent_http_x_cache\''
)


class NginxFront(NginxServer):
    name = "nginx-front"
    ready_path = HEALTH_PATH  # the application's, through nginx

    def __init__(
        self,
        workdir: Path,
        port: int,
        upstream: str,
        pages: Path | None,
        *,
        workers: int = 1,
        cpus: frozenset[int] | None = None,
        host: str = LOOPBACK,
        access_log: bool = False,
    ) -> None:
        """``upstream`` is the application's HOST:PORT; without ``pages``, every request goes
        to it. ``access_log`` logs every request to nginx's stderr (its log)."""
        super().__init__(workdir, port, cpus, workers=workers, host=host)
        self.upstream = upstream
        self.pages = pages
        self.access_log = access_log

    def prepare(self) -> None:
        if self.pages is not None and os.geteuid() == 0:
            check_reachable_by_all(self.pages)
        self.write_config(self.http_body())

    def upstream_servers(self) -> str:
        """The upstream block's servers (and how it balances them): the one application."""
        return f"\n        server {self.upstream};"

    def server_directives(self) -> str:
        """More of the server block's directives (a subclass's); none here."""
        return ""

    def http_body(self) -> str:
        proxy = """
            proxy_pass http://application;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;"""
        if self.pages is None:
            locations = f"""
        location / {{{proxy}
        }}
        location @application {{{proxy}
        }}"""
        else:
            locations = f"""
        root {self.pages};
        location / {{
            try_files $page_uri.json $page_uri.html $page_uri/{INDEX}.html @application;
            # A sweep can delete the file between try_files' check and its opening. (An
            # error_page here replaces the server's: the 413's is repeated.)
            error_page 404 = @application;
            error_page 413 @body_too_large;
            add_header X-Cache front;{file_headers()}
        }}
        location ^~ /{FAMILIES}/ {{
            return 404;
        }}
        location @application {{{proxy}
        }}"""
        access = "\n        access_log /dev/stderr front;" if self.access_log else ""
        return f"""
    upstream application {{{self.upstream_servers()}
        keepalive {UPSTREAM_KEEPALIVE};
    }}
    # Only a GET or HEAD without a query string may be answered from a page file.
    map "$request_method:$args" $page_uri {{
        "GET:" $uri;
        "HEAD:" $uri;
        default {NO_PAGE};
    }}
    log_format front {ACCESS_LOG_FORMAT};
    server {{
        listen {listen_address(self.host)}:{self.port};{access}
        client_max_body_size {MAX_BODY_BYTES};
        error_page 413 @body_too_large;
        # nginx refuses TRACE itself, before any location, without the Allow header.
        error_page 405 = @application;{self.server_directives()}{locations}
        location @body_too_large {{
            default_type application/json;{file_headers(always=True)}
            return 413 '{json.dumps({"title": BODY_TOO_LARGE_TITLE, "errors": []})}';
        }}
    }}"""


def check_reachable_by_all(pages: Path) -> None:
    """nginx's workers, unprivileged (started as root), must reach the page files: the
    directory and those above it searchable by all. Its mode is the user's to change, not ours."""
    for directory in (pages, *pages.parents):
        if directory.exists() and not directory.stat().st_mode & stat.S_IXOTH:
            raise ConfigError(
                f"the page-cache directory {pages}: nginx's workers (user {UNPRIVILEGED_USER}) "
                f"cannot reach it, since {directory} is not searchable by all "
                f"(chmod o+x {directory}, or choose another directory)"
            )


def file_headers(*, always: bool = False) -> str:
    """The application's security headers, for the page files nginx serves itself (and, with
    ``always``, its own error answers)."""
    flag = " always" if always else ""
    return "".join(
        f'\n            add_header {name} "{value}"{flag};' for name, value in security_headers()
    )


def listen_address(host: str) -> str:
    return f"[{host}]" if ":" in host else host
