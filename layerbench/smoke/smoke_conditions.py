"""What a smoke baseline was measured under, and how another run's conditions differ: the
server, its settings as it ran them (defaults filled in), the concurrency, the URLs and the
machine (its CPU model and count, nothing tied to one host's name). A baseline compared under
other conditions says nothing about the application: a granian baseline "regresses" 76 %
under gunicorn."""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from layerbench.lab.baseline_file import MAX_URLS
from layerbench.servers.server_settings import SettingValue, UsedSettings
from layerbench.typed_documents import OMIT_NONE, Bounds, Closed, JsonObject, decode, encode

# What of the ladder's machine record a baseline keeps (lab/conditions.py).
MACHINE_KEYS = ("cpu_model", "cpus_online", "cpus_usable")


@dataclass(frozen=True)
class SmokeConditions(Closed):
    """What a run was measured under (:func:`smoke_conditions`), as its baseline records
    them; each field absent from an older baseline, which recorded less."""

    server: str | None = field(default=None, metadata=OMIT_NONE)
    settings: dict[str, dict[str, SettingValue]] | None = field(default=None, metadata=OMIT_NONE)
    concurrency: Annotated[int, Bounds(low=1)] | None = field(default=None, metadata=OMIT_NONE)
    urls: Annotated[tuple[str, ...], Bounds(most=MAX_URLS)] | None = field(
        default=None, metadata=OMIT_NONE
    )
    machine: dict[str, SettingValue] | None = field(default=None, metadata=OMIT_NONE)


def smoke_conditions(
    server: str,
    settings_used: UsedSettings,
    concurrency: int,
    urls: tuple[str, ...],
    run_conditions: JsonObject,
) -> SmokeConditions:
    """What the run measures under; of ``run_conditions`` (the run's, lab/conditions.py) its
    machine."""
    machine = run_conditions["machine"]
    assert isinstance(machine, Mapping)
    recorded = {
        "server": server,
        "settings": settings_used,
        "concurrency": concurrency,
        "urls": list(urls),
        "machine": {key: machine.get(key) for key in MACHINE_KEYS},
    }
    # As it reads back from the baseline's JSON, so that equal is equal.
    return decode(SmokeConditions, json.loads(json.dumps(recorded)), "the smoke conditions")


def differences(baseline: SmokeConditions, now: SmokeConditions) -> list[str]:
    """How ``now`` differs from ``baseline``, one phrase per difference, over what the baseline
    recorded (an older one recorded less). Settings are compared only under the same server."""
    recorded = encode(baseline)
    before, after = _flat(recorded), _flat(encode(now))
    names = [*after, *(name for name in before if name not in after)]
    compared = [name for name in names if name.split(".")[0] in recorded]
    if before.get("server") != after.get("server"):
        compared = [name for name in compared if not name.startswith("settings.")]
    return [
        f"{name.removeprefix('settings.')} {_shown(before.get(name))} in the baseline, "
        f"{_shown(after.get(name))} now"
        for name in compared
        if before.get(name) != after.get(name)
    ]


def _flat(conditions: Mapping[str, object], prefix: str = "") -> dict[str, object]:
    """``{"machine": {"cpu_model": m}}`` → ``{"machine.cpu_model": m}``; URLs as a set."""
    flat: dict[str, object] = {}
    for key, value in conditions.items():
        if isinstance(value, Mapping):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[prefix + key] = sorted(value) if isinstance(value, list) else value
    return flat


def _shown(value: object) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value)
