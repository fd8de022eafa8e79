"""How a thing to measure ended, a ladder's rung or a matrix's cell alike: measured, failed,
skipped (its server or service not installed), or not applicable (the application under test
does not answer the rung). The JSON documents hold its value."""

from enum import Enum


class Status(Enum):
    OK = "ok"
    ERROR = "error"
    SKIPPED = "skipped"
    NOT_APPLICABLE = "not applicable"
