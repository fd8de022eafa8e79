"""The conditions of a served count as the tests' served costs state them: the default counting
(windows of 200 and 600 requests after 20 of warm-up, at concurrency 1, callgrind with the hash
seed fixed and address randomisation off), any field overridden by a test that needs it."""

import dataclasses
from typing import Any

from layerbench.served.served_cost import ServedConditions

DEFAULT = ServedConditions(
    windows_requests=[200, 600],
    warmup_requests=20,
    concurrency=1,
    hash_seed="0",
    address_randomisation="off (setarch -R)",
    valgrind="valgrind-3.19.0",
    rounds=[2, 6],
)


def served_conditions(**overrides: Any) -> ServedConditions:
    return dataclasses.replace(DEFAULT, **overrides)
