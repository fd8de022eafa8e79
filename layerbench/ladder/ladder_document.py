"""A ladder's (or a mix's) JSON document read back into a :class:`LadderResult`, whatever
version wrote it (the versions: :mod:`layerbench.ladder.ladder_result`):

    1, 2: one measurement per rung, its figures and its ``load``; 2 adds its ``roles``
    3:    ``repeats``, each trial's figures; the rung's own are its median trial's
    4:    the application under test, ``app`` (before it: the bare application)
    5:    ``representative_trial`` and ``figures``; every version reads back by the one rule,
          its req/s the median of its trials' (:mod:`layerbench.stats.median`)
    6:    ``vs_above`` (computed again from the trials, not read) and ``until_decided``
    7:    per rung ``profile`` (``ladder --profile``); before it, none

A document of a version this layerbench does not know is refused with its version named.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from layerbench.cost.cost_result import read_cost
from layerbench.errors import ConfigError
from layerbench.ladder.ladder_result import LADDER_JSON_VERSION, LadderResult, RungResult
from layerbench.ladder.mix_result import read_mix
from layerbench.profile.rung_profile import RungProfile
from layerbench.results.paired_verdict import read_looks
from layerbench.results.saved_trials import read_trials
from layerbench.results.status import Status
from layerbench.typed_documents import Bounds, as_json, decode, decode_at

KNOWN_LADDER_VERSIONS = tuple(range(1, LADDER_JSON_VERSION + 1))
# At most this many rungs: every application's every rung.
MAX_RUNGS = 10_000


@dataclass(frozen=True)
class RungHead:
    """What a rung says of itself; its trials are read by
    :func:`~layerbench.results.saved_trials.read_trials`."""

    rung: str
    server: str | None = None
    status: Status = Status.OK
    url: str | None = None
    message: str | None = None
    app: str | None = None  # version 4: before it, the bare application
    chain: tuple[str, ...] | None = None  # added without a version change
    profile: Mapping[str, object] | None = None  # version 6: read by RungProfile.from_dict


@dataclass(frozen=True)
class LadderRecord:
    """A ladder's (or a mix's) document, every version, as far as this reader reads it."""

    version: int
    rungs: Annotated[tuple[Mapping[str, object], ...], Bounds(most=MAX_RUNGS)]  # read below
    started_at: str | None = None
    finished_at: str | None = None
    interrupted: bool | None = None
    options: Mapping[str, object] | None = None  # kept as recorded, read by ladder_options
    conditions: Mapping[str, object] | None = None  # kept as recorded, read by measured_under
    served: Mapping[str, object] | None = None  # served cost's document, read by served/
    mix: object = None  # read by mix_result.read_mix
    instructions: object = None  # read by cost_result.read_cost
    until_decided: object = None  # read by paired_verdict.read_looks


def read_ladder(document: Mapping[str, object]) -> LadderResult:
    version = document.get("version")
    if version not in KNOWN_LADDER_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_LADDER_VERSIONS)
        raise ConfigError(f"ladder document version {version!r}; this layerbench reads {known}")
    try:
        record = decode(LadderRecord, document, "the ladder")
        heads = [
            decode_at(RungHead, rung, f"the ladder: rungs[{i}]")
            for i, rung in enumerate(record.rungs)
        ]
    except ConfigError as error:
        raise ValueError(str(error)) from None  # a wrong field, as the reader says of each
    result = LadderResult(
        options=as_json(record.options or {}),
        conditions=as_json(record.conditions or {}),
        started_at=record.started_at or "",
        rungs=[_rung(head, rung) for head, rung in zip(heads, record.rungs, strict=True)],
        finished_at=record.finished_at,
        interrupted=bool(record.interrupted),
        mix=read_mix(record.mix) if record.mix else None,
        instructions=read_cost(record.instructions) if record.instructions else None,
        until_decided=read_looks(record.until_decided),
        served=dict(record.served or {}),
    )
    try:  # their fields checked as every reader reads them
        result.asked, result.measured_under  # noqa: B018
    except ConfigError as error:
        raise ValueError(str(error)) from None
    return result


def _rung(head: RungHead, rung: Mapping[str, object]) -> RungResult:
    return RungResult(
        rung=head.rung,
        server=head.server or "",
        status=head.status,
        url=head.url,
        message=head.message,
        trials=read_trials(rung),
        app=head.app or "bare",
        chain=head.chain or (),
        profile=(
            None
            if head.profile is None
            else RungProfile.from_dict(head.profile, f"rung {head.rung!r}: profile")
        ),
    )
