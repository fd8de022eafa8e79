"""A measured item's trials, spread and roles as every document writes them (a ladder's rung,
a matrix's cell): the writer beside :mod:`layerbench.results.saved_trials`, which reads them
back."""

from layerbench.results.trials import Trial
from layerbench.results.usage import RoleUsage, Usage
from layerbench.stats.median import RATE_RULE, REPRESENTATIVE_RULE
from layerbench.stats.spread import Spread
from layerbench.typed_documents import JsonObject

# What a rung's (or a cell's) figures are, in the document's words.
FIGURES = {"requests_per_s": RATE_RULE, "representative_trial": REPRESENTATIVE_RULE}


def trial_dicts(trials: tuple[Trial, ...]) -> list[JsonObject]:
    """Each trial's req/s, latency, errors, roles and what else the machine did meanwhile."""
    return [
        {
            "requests_per_s": trial.load.requests_per_s,
            "latency_us": trial.load.latency_us,
            "errors": trial.load.errors,
            "other_cpu_percent": trial.usage.other_cpu_percent,
            "cpu_speed": trial.cpu_speed,
            "steal_percent": trial.usage.steal_percent,
            "roles": roles_dict(trial.usage, trial.load.requests_completed),
            "usage_interval_s": trial.usage.interval_s,
        }
        for trial in trials
    ]


def spread_dict(spread: Spread | None) -> JsonObject | None:
    if spread is None:
        return None
    return {
        "n": spread.n,
        "median_requests_per_s": spread.median,
        "cv": spread.cv,
        "ci95_low_requests_per_s": spread.ci_low,
        "ci95_high_requests_per_s": spread.ci_high,
    }


def roles_dict(usage: Usage | None, requests: int) -> JsonObject | None:
    """Each role's CPU and memory over ``requests`` completed requests."""
    if usage is None:
        return None
    return {name: _role_dict(role, requests) for name, role in usage.roles.items()}


def _role_dict(role: RoleUsage, requests: int) -> JsonObject:
    return {
        "cpu_s": role.cpu_s,
        "cpu_percent": role.cpu_percent,
        "cpu_s_per_1000_requests": role.cpu_s_per_1000(requests),
        "rss_bytes": role.rss_bytes,
        "pss_bytes": role.pss_bytes,
        "uss_bytes": role.uss_bytes,
        "processes": [
            {
                "pid": p.pid,
                "name": p.name,
                "cpu_s": p.cpu_s,
                "rss_bytes": p.rss_bytes,
                "pss_bytes": p.pss_bytes,
                "uss_bytes": p.uss_bytes,
                **({"host": p.host} if p.host else {}),
            }
            for p in role.processes
        ],
    }
