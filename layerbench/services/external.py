"""A server the user already runs, given by URL instead of a throwaway instance."""

from urllib.parse import urlsplit

from layerbench.services.memcached import SCHEME as MEMCACHED_SCHEME
from layerbench.services.memcached import memcached_nodes, probe_memcached
from layerbench.services.registry import PROBES
from layerbench.services.urls import ServiceUrl


def check_external(url: str) -> ServiceUrl:
    """Parse ``url`` and make sure the server behind it answers (every server of a memcached
    pool; its first is returned); raise a LayerbenchError saying why when it does not."""
    if urlsplit(url).scheme == MEMCACHED_SCHEME:
        host, port = memcached_nodes(url)[0]
        probe_memcached(url)
        return ServiceUrl("memcached", host, port)
    parsed = ServiceUrl.parse(url)
    PROBES[parsed.kind](url)
    return parsed
