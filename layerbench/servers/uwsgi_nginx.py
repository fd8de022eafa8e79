"""nginx in front of uWSGI: nginx takes the HTTP connections and passes each request to uWSGI's
workers over a unix socket in the uwsgi protocol (seed 002's uwsgi behind nginx)."""

from pathlib import Path

from layerbench.proc.ports import LOOPBACK
from layerbench.servers.deployment import FrontedServer
from layerbench.servers.nginx import NginxServer
from layerbench.servers.nginx_front import listen_address
from layerbench.servers.uwsgi import UwsgiServer
from layerbench.site_contract import HEALTH_PATH

# What nginx tells uWSGI of each request (the WSGI environ's CGI variables); written here rather
# than included from /etc/nginx so that nothing depends on the system's configuration.
UWSGI_PARAMS = "\n".join(
    f"            uwsgi_param {name} {value};"
    for name, value in (
        ("QUERY_STRING", "$query_string"),
        ("REQUEST_METHOD", "$request_method"),
        ("CONTENT_TYPE", "$content_type"),
        ("CONTENT_LENGTH", "$content_length"),
        ("REQUEST_URI", "$request_uri"),
        ("PATH_INFO", "$document_uri"),
        ("DOCUMENT_ROOT", "$document_root"),
        ("SERVER_PROTOCOL", "$server_protocol"),
        ("REQUEST_SCHEME", "$scheme"),
        ("HTTPS", "$https if_not_empty"),
        ("REMOTE_ADDR", "$remote_addr"),
        ("REMOTE_PORT", "$remote_port"),
        ("SERVER_PORT", "$server_port"),
        ("SERVER_NAME", "$server_name"),
    )
)


class NginxUwsgiFront(NginxServer):
    name = "nginx"
    ready_path = HEALTH_PATH  # the application's, through nginx and uWSGI

    def __init__(
        self,
        workdir: Path,
        port: int,
        socket_path: Path,
        *,
        workers: int,
        cpus: frozenset[int] | None = None,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, cpus, workers=workers, host=host)
        self.socket_path = socket_path

    def prepare(self) -> None:
        self.write_config(f"""
    upstream uwsgi_application {{
        server unix:{self.socket_path};
    }}
    server {{
        listen {listen_address(self.host)}:{self.port};
        # nginx refuses TRACE itself, before any location, without the Allow header RFC 9110
        # requires: the application answers it (its 405 names the path's methods).
        error_page 405 = @application;
        location / {{
{UWSGI_PARAMS}
            uwsgi_pass uwsgi_application;
        }}
        location @application {{
{UWSGI_PARAMS}
            uwsgi_pass uwsgi_application;
        }}
    }}""")


def uwsgi_behind_nginx(uwsgi: UwsgiServer, nginx: NginxUwsgiFront) -> FrontedServer:
    return FrontedServer("uwsgi-nginx", front=nginx, back=uwsgi)
