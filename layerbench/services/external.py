"""A server the user already runs, given by URL instead of a throwaway instance."""

from layerbench.services.registry import PROBES
from layerbench.services.urls import ServiceUrl


def check_external(url: str) -> ServiceUrl:
    """Parse ``url`` and make sure the server behind it answers; raise a LayerbenchError
    saying why when it does not."""
    parsed = ServiceUrl.parse(url)
    PROBES[parsed.kind](url)
    return parsed
