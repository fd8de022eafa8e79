"""What a smoke baseline was measured under, and how another run's conditions differ: the
server, its settings as it ran them (defaults filled in), the concurrency, the URLs and the
machine (its CPU model and count, nothing tied to one host's name). A baseline compared under
other conditions says nothing about the application: a granian baseline "regresses" 76 % under
gunicorn."""

import json
from typing import Any

from layerbench.typed_documents import JsonObject

# What of the ladder's machine record a baseline keeps (lab/conditions.py).
MACHINE_KEYS = ("cpu_model", "cpus_online", "cpus_usable")


def smoke_conditions(
    server: str,
    settings_used: dict[str, dict[str, Any]],
    concurrency: int,
    urls: tuple[str, ...],
    run_conditions: JsonObject,
) -> dict[str, Any]:
    """What the run measures under; of ``run_conditions`` (the run's, lab/conditions.py) its
    machine."""
    machine = run_conditions["machine"]
    assert isinstance(machine, dict)
    conditions = {
        "server": server,
        "settings": settings_used,
        "concurrency": concurrency,
        "urls": list(urls),
        "machine": {key: machine[key] for key in MACHINE_KEYS},
    }
    # As it reads back from the baseline's JSON, so that equal is equal.
    return json.loads(json.dumps(conditions))  # type: ignore[no-any-return]


def differences(baseline: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """How ``now`` differs from ``baseline``, one phrase per difference, over what the baseline
    recorded (an older one recorded less). Settings are compared only under the same server."""
    before, after = _flat(baseline), _flat(now)
    names = [*after, *(name for name in before if name not in after)]
    compared = [name for name in names if name.split(".")[0] in baseline]
    if before.get("server") != after.get("server"):
        compared = [name for name in compared if not name.startswith("settings.")]
    return [
        f"{name.removeprefix('settings.')} {_shown(before.get(name))} in the baseline, "
        f"{_shown(after.get(name))} now"
        for name in compared
        if before.get(name) != after.get(name)
    ]


def _flat(conditions: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"machine": {"cpu_model": m}}`` → ``{"machine.cpu_model": m}``; URLs as a set."""
    flat: dict[str, Any] = {}
    for key, value in conditions.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[prefix + key] = sorted(value) if isinstance(value, list) else value
    return flat


def _shown(value: Any) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, list):
        return " ".join(value)
    return str(value)
