"""A ladder's options as its document recorded them (``options``, :class:`~layerbench.ladder.
options.LadderOptions` written out, and ``label`` from ``--label``), as every report reads
them: decoded by :mod:`layerbench.typed_documents`, every key optional (an older version
recorded fewer). A result keeps the JSON as it was written; this record is its reader's view,
so a stored document is neither changed nor re-validated against today's adapters and
applications (a server since removed still reads)."""

from collections.abc import Mapping
from dataclasses import dataclass

from layerbench.typed_documents import decode_at


@dataclass(frozen=True)
class RecordedMix:
    hit_ratio: float | None = None


@dataclass(frozen=True)
class LadderOptionsRecord:
    server: str | None = None
    # --set SECTION.KEY=VALUE, by section.
    settings: dict[str, dict[str, object]] | None = None
    full: bool | None = None
    concurrency: int | None = None
    repeats: int | None = None
    duration_s: float | None = None
    warmup_s: float | None = None
    keep_alive: bool | None = None
    apps: tuple[str, ...] | None = None
    mix: RecordedMix | None = None
    label: str | None = None


def ladder_options(options: Mapping[str, object], where: str) -> LadderOptionsRecord:
    """``where`` names them in an error ("the ladder: options")."""
    return decode_at(LadderOptionsRecord, options, where)
