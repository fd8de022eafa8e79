"""The published experiments this tool re-runs, by name (``layerbench replicate NAME``): each a
TOML file in ``experiments/`` beside this module, its source post (title, year, what dates it),
its setup, its headline claim, the ``ladder`` or ``matrix`` command that re-runs it, the post's
figures placed where that run measures the same thing, and its claims. Read and validated when
first asked for: a file that names an unknown key, lacks one, or whose claim names no figure of
its own is a ValueError naming the file (a packaging mistake, not a user's)."""

import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from layerbench.errors import ConfigError
from layerbench.replicate.seed_figures import Claim, Direction, Place, SeedExperiment, SeedFigure
from layerbench.replicate.seed_ladder_figures import (
    LadderExperiment,
    LadderFigure,
    RungPlace,
    Unshown,
)
from layerbench.words import did_you_mean

DATA = "experiments"
LADDER = "ladder"
MATRIX = "matrix"


@dataclass(frozen=True)
class Published:
    """One experiment of a published post, as this tool re-runs it."""

    name: str
    kind: str  # LADDER or MATRIX: the command that re-runs it
    post: str  # the source document's number
    title: str
    year: int
    # What dates the post (its copy carries no date): the versions it names.
    dated_by: str
    headline: str
    setup: str
    # The ladder or matrix command, without "layerbench".
    command: str
    experiment: SeedExperiment | LadderExperiment


_HEAD = {
    "name": str,
    "kind": str,
    "post": str,
    "title": str,
    "year": int,
    "dated_by": str,
    "headline": str,
    "setup": str,
    "command": str,
}
_CLAIM = {"words": str, "figure": str, "reference": str, "direction": str}
_MATRIX_FIGURE = {
    "name": str,
    "server": str,
    "app": str,
    "concurrency": int,
    "settings": list,
    "occurrence": int,
    "requests_per_s": float,
    "reference": str,
    "rss_mib": float,
    "rung": str,
}
_LADDER_FIGURE = {
    "name": str,
    "rung": str,
    "server": str,
    "app": str,
    "full": bool,
    "settings": list,
    "requests_per_s": float,
    "reference": str,
    "cpu_seen": str,
    "stated_hit": float,
}
_UNSHOWN = {"words": str, "why": str}
# The keys a table may leave out.
_MATRIX_OPTIONAL = frozenset({"settings", "occurrence", "requests_per_s", "rss_mib", "rung"})
_LADDER_OPTIONAL = frozenset({"settings", "full", "cpu_seen", "stated_hit"})


def _checked(
    where: str,
    table: Any,
    schema: Mapping[str, type],
    extra: Iterable[str] = (),
    optional: frozenset[str] = frozenset(),
) -> Any:
    if not isinstance(table, dict):
        raise ValueError(f"{where}: a table, not {type(table).__name__}")
    allowed = set(schema) | set(extra)
    unknown = set(table) - allowed
    if unknown:
        raise ValueError(f"{where}: unknown key {sorted(unknown)[0]!r}")
    for key, kind in schema.items():
        if key not in table:
            if key in optional:
                continue
            raise ValueError(f"{where}: no {key!r}")
        value = table[key]
        # An int where a float is wanted is a float (TOML's 9700).
        fits = isinstance(value, kind) or (kind is float and isinstance(value, int))
        if not fits or (kind is not bool and isinstance(value, bool)):
            raise ValueError(f"{where}: {key} is not a {kind.__name__}")
    return table


def _claims(where: str, document: dict[str, Any]) -> tuple[Claim, ...]:
    claims = []
    for number, table in enumerate(document.get("claims", []), 1):
        claim = _checked(f"{where} claim {number}", table, _CLAIM)
        try:
            direction = Direction(claim["direction"])
        except ValueError:
            words = ", ".join(repr(d.value) for d in Direction)
            raise ValueError(f"{where} claim {number}: direction is one of {words}") from None
        claims.append(Claim(claim["words"], claim["figure"], claim["reference"], direction))
    if not claims:
        raise ValueError(f"{where}: no claims")
    return tuple(claims)


def _rate(table: dict[str, Any]) -> float | None:
    rate = table.get("requests_per_s")
    return None if rate is None else float(rate)


def _matrix(where: str, document: dict[str, Any]) -> SeedExperiment:
    figures = []
    for number, table in enumerate(document.get("figures", []), 1):
        figure = _checked(f"{where} figure {number}", table, _MATRIX_FIGURE, (), _MATRIX_OPTIONAL)
        place = Place(
            figure["server"],
            figure["app"],
            figure["concurrency"],
            tuple(str(setting) for setting in figure.get("settings", ())),
            figure.get("occurrence", 0),
            figure.get("rung"),
        )
        rss = figure.get("rss_mib")
        figures.append(
            SeedFigure(
                figure["name"],
                place,
                _rate(figure),
                figure["reference"],
                None if rss is None else float(rss),
            )
        )
    return SeedExperiment(
        document["post"],
        document["name"],
        document["rung"],
        document["setup"],
        tuple(figures),
        _claims(where, document),
        document["command"],
    )


def _ladder(where: str, document: dict[str, Any]) -> LadderExperiment:
    figures = []
    for number, table in enumerate(document.get("figures", []), 1):
        figure = _checked(f"{where} figure {number}", table, _LADDER_FIGURE, (), _LADDER_OPTIONAL)
        if "requests_per_s" not in figure:
            raise ValueError(f"{where} figure {number}: no 'requests_per_s'")
        place = RungPlace(
            figure["rung"],
            figure["server"],
            figure["app"],
            figure.get("full"),
            tuple(str(setting) for setting in figure.get("settings", ())),
        )
        hit = figure.get("stated_hit")
        figures.append(
            LadderFigure(
                figure["name"],
                place,
                float(figure["requests_per_s"]),
                figure["reference"],
                figure.get("cpu_seen", ""),
                None if hit is None else float(hit),
            )
        )
    unshown = tuple(
        Unshown(**_checked(f"{where} unshown {number}", table, _UNSHOWN))
        for number, table in enumerate(document.get("unshown", []), 1)
    )
    return LadderExperiment(
        document["post"],
        document["name"],
        document["setup"],
        document["concurrency"],
        tuple(figures),
        _claims(where, document),
        unshown,
        document["command"],
    )


_BUILDERS: dict[str, tuple[dict[str, type], Callable[[str, dict[str, Any]], Any]]] = {
    MATRIX: ({"rung": str}, _matrix),
    LADDER: ({"concurrency": int}, _ladder),
}


def parse(where: str, document: dict[str, Any]) -> Published:
    """One experiment's TOML document, validated (``where`` names it in an error)."""
    kind = document.get("kind")
    if kind not in _BUILDERS:
        raise ValueError(f"{where}: kind is one of {', '.join(_BUILDERS)}")
    own, build = _BUILDERS[kind]
    _checked(where, document, {**_HEAD, **own}, ("figures", "claims", "unshown"))
    if not document.get("figures"):
        raise ValueError(f"{where}: no figures")
    try:
        experiment = build(where, document)
    except ValueError as error:
        message = str(error)
        raise ValueError(message if message.startswith(where) else f"{where}: {message}") from None
    head = {key: document[key] for key in _HEAD}
    return Published(**head, experiment=experiment)


@cache
def published() -> tuple[Published, ...]:
    """Every experiment in the package's data, in the order of their names."""
    found = []
    for path in sorted(
        files(__package__).joinpath(DATA).iterdir(), key=lambda p: p.name.removesuffix(".toml")
    ):
        if not path.name.endswith(".toml"):
            continue
        try:
            document = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{path.name}: {error}") from None
        experiment = parse(path.name, document)
        if f"{experiment.name}.toml" != path.name:
            raise ValueError(f"{path.name}: named {experiment.name!r}, not after its file")
        found.append(experiment)
    return tuple(found)


def names() -> tuple[str, ...]:
    return tuple(experiment.name for experiment in published())


def published_named(name: str) -> Published:
    """The experiment named ``name``; a ConfigError naming the nearest when there is none."""
    for experiment in published():
        if experiment.name == name:
            return experiment
    listing = f"one of: {', '.join(names())} (see layerbench replicate --list)"
    raise ConfigError(did_you_mean(f"no published experiment {name!r}", name, names(), listing))


def named_of_kind(text: str, kind: str) -> list[Published]:
    """The experiments a comma-separated list names, each of ``kind`` (a ConfigError for one
    that is not: it is re-run by the other command)."""
    chosen = []
    for name in (part.strip() for part in text.split(",") if part.strip()):
        experiment = published_named(name)
        if experiment.kind != kind:
            raise ConfigError(
                f"{name} is a {experiment.kind} experiment, not a {kind}'s "
                f"(run: layerbench replicate {name})"
            )
        chosen.append(experiment)
    return chosen


def of_post(post: str, kind: str) -> list[Published]:
    """The experiments of the post numbered ``post`` that ``kind`` re-runs (``--seed NNN``)."""
    return [e for e in published() if e.post == post and e.kind == kind]
