"""What a cost run found: per request (a rung, or a smoke URL), the instructions one call of
the application took, once per repeat, and what they were counted under.

``instructions_per_request`` is callgrind's count of the N collected calls, less the same loop
around an application that does nothing (the harness: the environ's copy, the input stream,
``start_response``, the toggles themselves), divided by N. The harness's own figure is kept
beside them.

Added since version 1, without a version change: per request ``chain``, the rungs its rung adds
a layer to, nearest first (``Rung.chain``; [] for a smoke URL): its "vs above" is against the
first of them counted (:mod:`layerbench.results.chain_references`)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from layerbench.errors import ConfigError
from layerbench.results.measured_under import MeasuredUnder, measured_under
from layerbench.stats.median import median as median_of
from layerbench.stats.spread import coefficient_of_variation
from layerbench.typed_documents import Bounds, JsonObject, as_json, decode, decode_at

COST_VERSION = 1


@dataclass(frozen=True)
class RequestCost:
    # The rung's name, or the smoke URL.
    label: str
    # One per repeat, in the order they were run.
    instructions_per_request: list[float]
    # The application's name (``--app``).
    app: str = ""
    # The rungs it adds a layer to, nearest first (Rung.chain); () when not known.
    chain: tuple[str, ...] = ()

    @property
    def median(self) -> float:
        return median_of(self.instructions_per_request)

    @property
    def cv_percent(self) -> float | None:
        """Coefficient of variation over the repeats, in %; None for one repeat (or a mean of
        0)."""
        cv = coefficient_of_variation(self.instructions_per_request)
        return None if cv is None else 100 * cv

    def to_dict(self) -> JsonObject:
        return {
            "label": self.label,
            "app": self.app,
            "chain": list(self.chain),
            "instructions_per_request": self.instructions_per_request,
            "median_instructions_per_request": self.median,
            "cv_percent": self.cv_percent,
        }


@dataclass(frozen=True)
class CostOptionsRecord:
    """The options a cost pass recorded, as its tables read them (every key optional)."""

    requests: int | None = None
    repeats: int | None = None


@dataclass
class CostResult:
    # The options and conditions as the pass recorded them (read through ``asked`` and
    # ``measured_under``), written back as they were.
    options: JsonObject
    conditions: JsonObject
    requests: list[RequestCost] = field(default_factory=list)
    # The harness's own instructions per request, one per repeat.
    harness_instructions_per_request: list[float] = field(default_factory=list)
    # Seconds the whole run took, wall clock.
    elapsed_s: float = 0.0
    # callgrind_annotate's top functions of the profiled request, if one was asked for.
    profile: str | None = None
    # `--by-layer`: per request label, one per repeat, its instructions per request by layer
    # (the harness's own taken off); empty without.
    by_layer: dict[str, list[dict[str, float]]] = field(default_factory=dict)

    @property
    def asked(self) -> CostOptionsRecord:
        return decode_at(CostOptionsRecord, self.options, "instructions: options")

    @property
    def measured_under(self) -> MeasuredUnder:
        return measured_under(self.conditions, "instructions: conditions")

    def to_dict(self) -> JsonObject:
        return {
            "version": COST_VERSION,
            "kind": "cost",
            "options": self.options,
            "conditions": self.conditions,
            "requests": [request.to_dict() for request in self.requests],
            "harness_instructions_per_request": self.harness_instructions_per_request,
            "elapsed_s": self.elapsed_s,
            "profile": self.profile,
            "by_layer": self.by_layer,
        }


@dataclass(frozen=True)
class RequestCostRecord:
    label: str
    instructions_per_request: tuple[float, ...]
    app: str | None = None
    chain: tuple[str, ...] | None = None  # added without a version change


@dataclass(frozen=True)
class CostRecord:
    """A cost document as written (``to_dict``'s), read back by :func:`read_cost`."""

    options: Mapping[str, object] | None = None  # kept as recorded, read by CostResult.asked
    conditions: Mapping[str, object] | None = None  # kept as recorded, read by measured_under
    requests: tuple[RequestCostRecord, ...] | None = None
    harness_instructions_per_request: tuple[float, ...] | None = None
    elapsed_s: Annotated[float, Bounds(low=0)] | None = None
    profile: str | None = None
    by_layer: dict[str, list[dict[str, float]]] | None = None  # added without a version change


def read_cost(document: object) -> CostResult:
    """A cost document (``to_dict``'s, JSON just parsed) read back, every field checked: a
    wrong one is a ValueError naming it, as the reader of the ladder around it says."""
    try:
        record = decode(CostRecord, document, "instructions")
    except ConfigError as error:
        raise ValueError(str(error)) from None
    result = CostResult(
        options=as_json(record.options or {}),
        conditions=as_json(record.conditions or {}),
        requests=[
            RequestCost(
                row.label, list(row.instructions_per_request), row.app or "", row.chain or ()
            )
            for row in record.requests or ()
        ],
        harness_instructions_per_request=list(record.harness_instructions_per_request or ()),
        elapsed_s=record.elapsed_s or 0.0,
        profile=record.profile,
        by_layer={
            label: [dict(row) for row in rows] for label, rows in (record.by_layer or {}).items()
        },
    )
    try:  # their fields checked as every reader reads them
        result.asked, result.measured_under  # noqa: B018
    except ConfigError as error:
        raise ValueError(str(error)) from None
    return result
