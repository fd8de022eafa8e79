"""A ladder's (or a mix's) JSON document read back into a :class:`LadderResult`, whatever
version wrote it (the versions: :mod:`layerbench.results.ladder_result`):

    1, 2: one measurement per rung, its figures and its ``load``; 2 adds its ``roles``
    3:    ``repeats``, each trial's figures; the rung's own are its median trial's
    4:    the application under test, ``app`` (before it: the bare application)
    5:    ``representative_trial`` and ``figures``; every version reads back by the one rule,
          its req/s the median of its trials' (:mod:`layerbench.stats.median`)
    6:    ``vs_above`` (computed again from the trials, not read) and ``until_decided``
    7:    per rung ``profile`` (``ladder --profile``); before it, none

A document of a version this layerbench does not know is refused with its version named.
"""

from typing import Any

from layerbench.errors import ConfigError
from layerbench.profile.rung_profile import RungProfile
from layerbench.results.cost_result import read_cost
from layerbench.results.ladder_result import LADDER_JSON_VERSION, LadderResult, RungResult
from layerbench.results.mix_result import read_mix
from layerbench.results.paired_verdict import read_looks
from layerbench.results.saved_trials import read_trials
from layerbench.results.status import Status

KNOWN_LADDER_VERSIONS = tuple(range(1, LADDER_JSON_VERSION + 1))


def read_ladder(document: dict[str, Any]) -> LadderResult:
    version = document.get("version")
    if version not in KNOWN_LADDER_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_LADDER_VERSIONS)
        raise ConfigError(f"ladder document version {version!r}; this layerbench reads {known}")
    mix = document.get("mix")
    instructions = document.get("instructions")
    return LadderResult(
        options=dict(document.get("options") or {}),
        conditions=dict(document.get("conditions") or {}),
        started_at=str(document.get("started_at") or ""),
        rungs=[_rung(rung) for rung in document["rungs"]],
        finished_at=document.get("finished_at"),
        interrupted=bool(document.get("interrupted")),
        mix=read_mix(mix) if mix else None,
        instructions=read_cost(instructions) if instructions else None,
        until_decided=read_looks(document.get("until_decided")),
        served=dict(document.get("served") or {}),
    )


def _rung(rung: dict[str, Any]) -> RungResult:
    return RungResult(
        rung=str(rung["rung"]),
        server=str(rung.get("server") or ""),
        status=Status(rung.get("status", "ok")),
        url=rung.get("url"),
        message=rung.get("message"),
        trials=read_trials(rung),
        app=str(rung.get("app") or "bare"),
        chain=tuple(str(name) for name in rung.get("chain") or ()),
        profile=_profile(rung),
    )


def _profile(rung: dict[str, Any]) -> RungProfile | None:
    profile = rung.get("profile")
    if profile is None:
        return None
    return RungProfile.from_dict(profile, f"rung {rung.get('rung')!r}: profile")
