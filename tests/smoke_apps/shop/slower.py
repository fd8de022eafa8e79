"""The shop's application with a calibrated change: every request also spends a known amount of
CPU in :func:`calibrated_extra_work`, the function a profile's difference must put on top."""

from collections.abc import Callable, Iterable
from typing import Any

from shop.wsgi import application as shop_application

# Additions per request: some milliseconds of CPU, many times the shop's own work.
EXTRA_STEPS = 100_000


def calibrated_extra_work() -> int:
    total = 0
    for step in range(EXTRA_STEPS):
        total += step
    return total


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    calibrated_extra_work()
    return shop_application(environ, start_response)
