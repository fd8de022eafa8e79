"""How a thing to measure ended, a ladder's rung or a matrix's cell alike: measured, failed, or
skipped (its server or service not installed). The JSON documents hold its value."""

from enum import Enum


class Status(Enum):
    OK = "ok"
    ERROR = "error"
    SKIPPED = "skipped"
