"""nginx in front of the application: a GET or HEAD without a query string whose page is in the
page-cache directory is served from its file (``try_files``) without touching Python; anything
else goes to the application over kept-alive upstream connections.

The files and their names are the application's (:mod:`layerbench.app.page_directory`);
responses served from them carry ``X-Cache: front``. A file swept away between nginx's check
and its opening sends the request on to the application too, rather than answering 404.
"""

import os
from pathlib import Path

from layerbench.app.page_directory import FAMILIES, INDEX
from layerbench.app.wsgi import HEALTH_PATH
from layerbench.servers.binaries import find_program
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.nginx import (
    APT_PACKAGE,
    make_temp_dirs,
    nginx_command,
    nginx_version,
    render_main,
)
from layerbench.servers.ports import LOOPBACK

# A path that names no page file: what try_files looks for when the request may not be served
# from one (page files never start with a dot).
NO_PAGE = "/.no-page"
UPSTREAM_KEEPALIVE = 64


class NginxFront(ManagedServer):
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
    ) -> None:
        """``upstream`` is the application's HOST:PORT; without ``pages``, every request goes
        to it."""
        super().__init__(workdir, port, cpus, host=host)
        self.binary = find_program("nginx", APT_PACKAGE)
        self.upstream = upstream
        self.pages = pages
        self.workers = workers

    @property
    def config_path(self) -> Path:
        return self.workdir / "nginx.conf"

    def version(self) -> str:
        return nginx_version(self.binary)

    def prepare(self) -> None:
        self.workdir.chmod(0o755)
        make_temp_dirs(self.workdir)
        self.config_path.write_text(render_front_config(self, run_as_root=os.geteuid() == 0))

    def command(self) -> list[str]:
        return nginx_command(self.binary, self.workdir, self.config_path)


def render_front_config(front: NginxFront, run_as_root: bool) -> str:
    proxy = """
            proxy_pass http://application;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;"""
    if front.pages is None:
        locations = f"""
        location / {{{proxy}
        }}"""
    else:
        locations = f"""
        root {front.pages};
        location / {{
            try_files $page_uri.json $page_uri.html $page_uri/{INDEX}.html @application;
            # A sweep can delete the file between try_files' check and its opening.
            error_page 404 = @application;
            add_header X-Cache front;
        }}
        location ^~ /{FAMILIES}/ {{
            return 404;
        }}
        location @application {{{proxy}
        }}"""
    body = f"""
    upstream application {{
        server {front.upstream};
        keepalive {UPSTREAM_KEEPALIVE};
    }}
    # Only a GET or HEAD without a query string may be answered from a page file.
    map "$request_method:$args" $page_uri {{
        "GET:" $uri;
        "HEAD:" $uri;
        default {NO_PAGE};
    }}
    server {{
        listen {listen_address(front.host)}:{front.port};
        client_max_body_size 1m;{locations}
    }}"""
    return render_main(front.workdir, front.workers, run_as_root, body)


def listen_address(host: str) -> str:
    return f"[{host}]" if ":" in host else host
