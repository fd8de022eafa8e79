"""The bare application's upstream rung: the string rung's answer, fetched from an HTTP service
that answers after a known delay (:mod:`layerbench_sites.app.upstream_client`). A rung that waits:
it
holds its worker (a thread, a process) for the delay, as a real handler waiting on another
service does. It exists only when the service's URL is configured."""

from layerbench.rungs.definitions import UPSTREAM
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.rung_handlers import TEXT, Handler, Response
from layerbench_sites.app.upstream_client import UpstreamClient


class UpstreamRung:
    def __init__(self, client: UpstreamClient) -> None:
        self._client = client

    def upstream(self) -> Response:
        return "200 OK", TEXT, self._client.get()


def upstream_handlers(urls: ServiceUrls) -> dict[str, Handler]:
    """The upstream rung's handler when its URL is configured (none otherwise)."""
    if not urls.upstream:
        return {}
    return {UPSTREAM.name: UpstreamRung(UpstreamClient(urls.upstream)).upstream}
