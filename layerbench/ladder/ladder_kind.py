"""The ladder's (and the mix's) documents as the results database knows them: what tells one
apart (it has ``rungs``) and what the database keeps of it (:mod:`layerbench.store.run_summary`).
Registered by the package's ``__init__``, so that importing any part of the ladder makes its
documents readable by the store."""

from collections.abc import Mapping

from layerbench.ladder.ladder_document import read_ladder
from layerbench.ladder.ladder_options_record import LadderOptionsRecord
from layerbench.ladder.ladder_result import LadderResult
from layerbench.results.trials import Trial
from layerbench.store.run_summary import (
    RungTrials,
    RunKind,
    RunSummary,
    format_settings,
)
from layerbench.typed_documents import JsonObject


def summarize_ladder(result: LadderResult) -> RunSummary:
    asked = result.asked
    return RunSummary(
        kind="mix" if asked.mix else "ladder",
        started_at=result.started_at or None,
        finished_at=result.finished_at,
        interrupted=result.interrupted,
        server=asked.server or "gunicorn",
        settings=format_settings(asked.settings or {}),
        description=_describe(asked),
        rungs=tuple(
            RungTrials(
                result.label(rung), rung.status.value, rates(rung.trials), rung.app, rung.rung
            )
            for rung in result.rungs
        ),
    )


def rates(trials: tuple[Trial, ...]) -> tuple[float, ...]:
    return tuple(trial.load.requests_per_s for trial in trials)


def _describe(asked: LadderOptionsRecord) -> str:
    parts = ["--full" if asked.full else "embedded"]
    if asked.concurrency is not None:
        parts.append(f"c={asked.concurrency}")
    if asked.repeats is not None:
        parts.append(f"x{asked.repeats}")
    apps = list(asked.apps or ())
    if apps and apps != ["bare"]:
        parts.append(f"app={','.join(apps)}")
    return " ".join(parts)


def _summarize_document(document: JsonObject) -> RunSummary:
    return summarize_ladder(read_ladder(document))


def _recognises(document: Mapping[str, object]) -> bool:
    return "rungs" in document


LADDER_KIND = RunKind("ladder", "rungs", _recognises, _summarize_document)
