"""What a run was measured under, as every report reads it: the machine, the versions, the
pinning, the settings the server used, the hosts of a topology.

A run writes its conditions as JSON while it goes (``lab/conditions.py`` starts them, the run
adds its services, versions and load commands): a result keeps that JSON as it was recorded,
so that its document is written back exactly. What reads them reads this record instead,
decoded by :mod:`layerbench.typed_documents` (:func:`measured_under`): a key it does not name
is left alone, a named one of the wrong type is refused with its field named. Every key is
optional: each kind and version of a run records some of them."""

from collections.abc import Mapping
from dataclasses import dataclass

from layerbench.typed_documents import JsonObject, decode_at


@dataclass(frozen=True)
class Machine:
    cpu_model: str | None = None
    cpus_online: int | None = None
    cpus_usable: int | None = None
    kernel: str | None = None
    cpu_governor: str | None = None


@dataclass(frozen=True)
class MeasuredUnder:
    layerbench_version: str | None = None
    machine: Machine | None = None
    python: str | None = None
    pinning: str | None = None
    # A server's (or a service's) name and version ("unknown" when it said none).
    server_versions: dict[str, str | None] | None = None
    # The settings the server used, by section and key, as they ran.
    server_settings: dict[str, dict[str, object]] | None = None
    # The hosts of a topology and their roles, as lab/topology_run.py records them, read by
    # render/host_table.py.
    topology: Mapping[str, object] | None = None
    # The cost pass's: PYTHONHASHSEED.
    hash_seed: int | str | None = None


def measured_under(conditions: Mapping[str, object], where: str) -> MeasuredUnder:
    """The conditions a run recorded, typed; ``where`` names them in an error ("the ladder:
    conditions")."""
    return decode_at(MeasuredUnder, conditions, where)


def add_entries(conditions: JsonObject, key: str, entries: Mapping[str, str]) -> None:
    """``entries`` added to the object ``conditions[key]`` (a server's versions, a trial's load
    command), made when it is not there yet."""
    known = conditions.get(key)
    conditions[key] = {**(known if isinstance(known, Mapping) else {}), **entries}
