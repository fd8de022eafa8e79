"""What a cost run found: per request (a rung, or a smoke URL), the instructions one call of
the application took, once per repeat, and what they were counted under.

``instructions_per_request`` is callgrind's count of the N collected calls, less the same loop
around an application that does nothing (the harness: the environ's copy, the input stream,
``start_response``, the toggles themselves), divided by N. The harness's own figure is kept
beside them.

Added since version 1, without a version change: per request ``chain``, the rungs its rung adds
a layer to, nearest first (``Rung.chain``; [] for a smoke URL): its "vs above" is against the
first of them counted (:mod:`layerbench.results.chain_references`)."""

from dataclasses import dataclass, field
from typing import Any

from layerbench.stats.median import median as median_of
from layerbench.stats.spread import coefficient_of_variation

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

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "app": self.app,
            "chain": list(self.chain),
            "instructions_per_request": self.instructions_per_request,
            "median_instructions_per_request": self.median,
            "cv_percent": self.cv_percent,
        }


@dataclass
class CostResult:
    options: dict[str, Any]
    conditions: dict[str, Any]
    requests: list[RequestCost] = field(default_factory=list)
    # The harness's own instructions per request, one per repeat.
    harness_instructions_per_request: list[float] = field(default_factory=list)
    # Seconds the whole run took, wall clock.
    elapsed_s: float = 0.0
    # callgrind_annotate's top functions of the profiled request, if one was asked for.
    profile: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": COST_VERSION,
            "kind": "cost",
            "options": self.options,
            "conditions": self.conditions,
            "requests": [request.to_dict() for request in self.requests],
            "harness_instructions_per_request": self.harness_instructions_per_request,
            "elapsed_s": self.elapsed_s,
            "profile": self.profile,
        }


def read_cost(document: dict[str, Any]) -> CostResult:
    """A cost document (``to_dict``'s) read back."""
    return CostResult(
        options=dict(document.get("options") or {}),
        conditions=dict(document.get("conditions") or {}),
        requests=[
            RequestCost(
                str(row["label"]),
                [float(v) for v in row["instructions_per_request"]],
                str(row.get("app") or ""),
                tuple(str(name) for name in row.get("chain") or ()),
            )
            for row in document.get("requests") or []
        ],
        harness_instructions_per_request=[
            float(v) for v in document.get("harness_instructions_per_request") or []
        ],
        elapsed_s=float(document.get("elapsed_s") or 0.0),
        profile=document.get("profile"),
    )
