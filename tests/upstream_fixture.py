"""The delaying server (the upstream rung's service) for the ASGI applications' tests: started
by the project's own service on loopback, once per test module; its URL asks for the rung's
default delay (import ``upstream_url`` into a test module to use it)."""

from collections.abc import Iterator

import pytest

from layerbench.services.upstream import UpstreamService


@pytest.fixture(scope="module")
def upstream_url() -> Iterator[str]:
    with UpstreamService() as service:
        yield service.url
