"""What a ladder run produced: plain structures, every figure with its unit in its name.

``LADDER_JSON_VERSION`` is the version of the document ``to_dict`` produces; bump it, and say
what changed here, whenever a field changes meaning or goes away.

    1: the walking skeleton's ladder (rungs with req/s, latency, errors, the raw load result)
    2: per rung, ``roles``: CPU and memory of each role's processes over the measured interval
       (server, client), and ``sampler_cpu_percent``, the sampler's own cost
    3: the full ladder: roles ``database`` and ``cache``; per rung ``change_vs_top`` and
       ``latency_p99_9_ms``; options ``full``, ``server``, ``settings`` (``workers`` gone,
       ``rungs`` null for all, ``repeats``); conditions ``services`` and ``server_settings``;
       per rung ``repeats`` (each trial's req/s, latency, errors, roles, the rest of the
       machine's CPU), ``spread`` (median, CV, bootstrap 95 % interval of req/s) and ``noisy``;
       the rung's own figures are its median trial's. Added since, without a version
       change: per trial ``cpu_speed`` (the CPU speed probe, null when not measured); ``mix``
       (``layerbench mix``'s prediction and measurement); per rung and per trial
       ``usage_interval_s`` (the interval the roles' CPU is a share of, so that a document reads
       back into the same figures: :mod:`layerbench.ladder.ladder_document`)
    4: the applications under test (``layerbench ladder --app``, ``--apps``): options
       ``apps``, per rung ``app`` (with several, a rung per application, each application's
       rungs together, and ``change_vs_above``, ``change_vs_top`` within its own); a rung an
       application does not answer has the status ``not applicable``. Added since, without a
       version change: per rung ``chain``, the rungs it adds a layer to, nearest first (the full
       ladder's chains: MariaDB's and PostgreSQL's beside each other, each from the string),
       and ``above``, the rung its ``change_vs_above`` is against: the first of its chain
       measured (a document without ``chain``: the nearest measured rung above it);
       ``instructions`` (``ladder --instructions``: the cost pass's document,
       :mod:`layerbench.cost.cost_result`)
    5: a rung's ``requests_per_s`` is the median of its trials' (of an even number, the mean
       of the middle two: ``spread``'s median; before, the slower middle trial's own), and
       ``representative_trial`` names the trial (its index in ``repeats``) whose latency,
       errors, roles and load the rung shows; the document's ``figures`` says so in words
       (:mod:`layerbench.stats.median`). An earlier document reads back by the same rule
    6: per rung ``vs_above``, the paired verdict of its req/s against the rung above
       (:mod:`layerbench.results.paired_verdict`: ratio, interval, passes, confidence,
       verdict); with ``--until-decided``, ``until_decided``: the passes and looks made, the
       confidence of the verdicts and how many were decided (:mod:`layerbench.stats.sequential`)
    7: per rung ``profile`` (``ladder --profile``; null without): the stack samples of the
       server's workers over its trials, each frame's layer, each layer's share and CPU per
       request (:mod:`layerbench.profile.rung_profile`). An earlier document has none
"""

from dataclasses import asdict, dataclass, field
from typing import Any

from layerbench.cost.cost_result import CostResult
from layerbench.ladder.ladder_options_record import LadderOptionsRecord, ladder_options
from layerbench.ladder.mix_result import mix_dict
from layerbench.profile.rung_profile import RungProfile
from layerbench.results.chain_references import ChainRow, chain_references, follows_the_rows
from layerbench.results.measured_under import MeasuredUnder, measured_under
from layerbench.results.paired_verdict import comparison_dict
from layerbench.results.status import Status
from layerbench.results.trial_dicts import FIGURES, roles_dict, spread_dict, trial_dicts
from layerbench.results.trials import Repeated, Trial
from layerbench.stats.comparison import RungComparison, compare_paired
from layerbench.stats.mix_prediction import MixOutcome
from layerbench.stats.paired import CONFIDENCE
from layerbench.stats.sequential import LooksMade
from layerbench.typed_documents import JsonObject

LADDER_JSON_VERSION = 7


@dataclass(frozen=True)
class RungResult(Repeated):
    """A rung over its repeats. Its req/s is the median of its trials'; ``load`` and
    ``usage`` are its representative trial's (:mod:`layerbench.stats.median`); ``trials``
    holds them all, in the order they ran."""

    rung: str
    server: str
    status: Status
    url: str | None = None
    message: str | None = None
    trials: tuple[Trial, ...] = ()
    # The application that answered it (frameworks/applications.py).
    app: str = "bare"
    # The rungs it adds a layer to, nearest first (Rung.chain); () when not known.
    chain: tuple[str, ...] = ()
    # `--profile`: its server's workers sampled over its trials; None without.
    profile: RungProfile | None = None


@dataclass
class LadderResult:
    # The options and conditions as the run recorded them (read through ``asked`` and
    # ``measured_under``), written back as they were.
    options: JsonObject
    conditions: JsonObject
    started_at: str
    rungs: list[RungResult] = field(default_factory=list)
    finished_at: str | None = None
    interrupted: bool = False
    # `layerbench mix`: the prediction against the measurement.
    mix: MixOutcome | None = None
    # `ladder --instructions`: each rung's instructions per request, from a cost pass.
    instructions: CostResult | None = None
    # `--until-decided`: the looks made, and the confidence of the verdicts.
    until_decided: LooksMade | None = None

    @property
    def asked(self) -> LadderOptionsRecord:
        return ladder_options(self.options, "the ladder: options")

    @property
    def measured_under(self) -> MeasuredUnder:
        return measured_under(self.conditions, "the ladder: conditions")

    @property
    def confidence(self) -> float:
        """The confidence of its paired verdicts: 95 %, or the last look's."""
        return self.until_decided.confidence if self.until_decided else CONFIDENCE

    @property
    def passes(self) -> int:
        """The passes made: the most trials of a rung."""
        return max((len(rung.trials) for rung in self.rungs), default=0)

    # `ladder --measure`: per rung its served cost, or why it has none, and the in-process
    # anchors (layerbench/served/served_table.py's document); empty without.
    served: dict[str, Any] = field(default_factory=dict)  # boundary: served/'s, it reads it

    @property
    def failed(self) -> bool:
        return any(rung.status is Status.ERROR for rung in self.rungs)

    @property
    def apps(self) -> list[str]:
        """The applications of its rungs, in the order they ran."""
        return list(dict.fromkeys(rung.app for rung in self.rungs))

    def label(self, rung: RungResult) -> str:
        """A rung's name; in a run over several applications, ``APP RUNG``."""
        return f"{rung.app} {rung.rung}" if len(self.apps) > 1 else rung.rung

    def references(self) -> list[RungResult | None]:
        """Per rung, the rung its change is against, of the same application: the first of its
        chain that was measured; without a chain, the nearest measured rung above it
        (:func:`~layerbench.results.chain_references.chain_references`). None when there is
        none."""
        indices = chain_references(self._chain_rows())
        return [None if index is None else self.rungs[index] for index in indices]

    def _chain_rows(self) -> list[ChainRow]:
        return [
            ChainRow(rung.rung, rung.chain, rung.requests_per_s is not None, rung.app)
            for rung in self.rungs
        ]

    def change_vs_above(self) -> list[float | None]:
        """Per rung, its req/s relative to its reference (:meth:`references`), as a signed
        fraction: -0.23 is the seed's "23 %" hit. None without a reference."""
        changes: list[float | None] = []
        for rung, above in zip(self.rungs, self.references(), strict=True):
            rate, before = rung.requests_per_s, above.requests_per_s if above else None
            changes.append(rate / before - 1.0 if rate is not None and before else None)
        return changes

    def compared_vs_above(self, confidence: float | None = None) -> list[RungComparison | None]:
        """Per rung, its req/s against its reference's (:meth:`references`), paired pass by
        pass (trial i of each was measured in pass i): the ratio, its interval (at
        ``confidence``; :attr:`confidence` when None) and its verdict
        (:func:`~layerbench.stats.comparison.compare_paired`). None without a reference."""
        level = self.confidence if confidence is None else confidence
        compared: list[RungComparison | None] = []
        for rung, above in zip(self.rungs, self.references(), strict=True):
            if above is None or rung.requests_per_s is None:
                compared.append(None)
                continue
            before = [trial.load.requests_per_s for trial in above.trials]
            now = [trial.load.requests_per_s for trial in rung.trials]
            compared.append(compare_paired(rung.rung, before, now, confidence=level))
        return compared

    def follows_the_rows(self) -> bool:
        """Whether every rung's reference is the measured row above it (a ladder of one chain:
        a table need not name them)."""
        return follows_the_rows(self._chain_rows())

    def change_vs_top(self) -> list[float | None]:
        """Per rung, its req/s relative to its application's first measured rung, as a signed
        fraction: the product of the hits down the ladder to it. None for that first rung."""
        tops: dict[str, int] = {}
        for i, rung in enumerate(self.rungs):
            if rung.requests_per_s:
                tops.setdefault(rung.app, i)
        changes: list[float | None] = []
        for i, rung in enumerate(self.rungs):
            first = tops.get(rung.app)
            top = self.rungs[first].requests_per_s if first is not None else None
            rate = rung.requests_per_s
            changes.append(rate / top - 1.0 if rate and top and i != first else None)
        return changes

    def to_dict(self) -> JsonObject:
        document: JsonObject = {
            "version": LADDER_JSON_VERSION,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "interrupted": self.interrupted,
            "options": self.options,
            "conditions": self.conditions,
            "figures": FIGURES,
            "rungs": [
                {**_rung_dict(rung, change, top, above), "vs_above": vs_above}
                for rung, change, top, above, vs_above in zip(
                    self.rungs,
                    self.change_vs_above(),
                    self.change_vs_top(),
                    self.references(),
                    [comparison_dict(c, self.confidence) for c in self.compared_vs_above()],
                    strict=True,
                )
            ],
        }
        if self.until_decided is not None:
            document["until_decided"] = asdict(self.until_decided)
        if self.mix is not None:
            document["mix"] = mix_dict(self.mix)
        if self.instructions is not None:
            document["instructions"] = self.instructions.to_dict()
        if self.served:
            document["served"] = self.served
        return document


def _rung_dict(
    rung: RungResult, change: float | None, top: float | None, above: RungResult | None
) -> JsonObject:
    return {
        "rung": rung.rung,
        "app": rung.app,
        "chain": list(rung.chain),
        "above": above.rung if above else None,
        "server": rung.server,
        "status": rung.status.value,
        "url": rung.url,
        "message": rung.message,
        "requests_per_s": rung.requests_per_s,
        "representative_trial": rung.representative_index,
        "change_vs_above": change,
        "change_vs_top": top,
        "ms_per_request": rung.ms_per_request,
        "latency_p50_ms": rung.latency_ms("p50"),
        "latency_p99_ms": rung.latency_ms("p99"),
        "latency_p99_9_ms": rung.latency_ms("p99_9"),
        "errors": rung.load.errors if rung.load else None,
        "client_cpu_s": rung.load.client_cpu_s if rung.load else None,
        "roles": roles_dict(rung.usage, rung.load.requests_completed if rung.load else 0),
        "sampler_cpu_percent": rung.usage.sampler_cpu_percent if rung.usage else None,
        "usage_interval_s": rung.usage.interval_s if rung.usage else None,
        "load": rung.load.document if rung.load else None,
        "noisy": rung.noisy,
        "spread": spread_dict(rung.spread),
        "repeats": trial_dicts(rung.trials),
        "profile": rung.profile.to_dict() if rung.profile is not None else None,
    }


def ladder_memory_items(result: LadderResult) -> list[tuple[str, Repeated]]:
    """The rungs measured, by name, for the memory-per-worker table (render/worker_memory.py)."""
    return [(result.label(rung), rung) for rung in result.rungs if rung.status is Status.OK]
