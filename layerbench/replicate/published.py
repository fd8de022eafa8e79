"""The published experiments this tool re-runs, by name (``layerbench replicate NAME``): each a
TOML file in ``experiments/`` beside this module, its source post (title, year, what dates it),
its setup, its headline claim, the ``ladder`` or ``matrix`` command that re-runs it, the post's
figures placed where that run measures the same thing, and its claims. Read into its schema
(:class:`MatrixFile` or :class:`LadderFile`, by its ``kind``) when first asked for: a file that
names an unknown key, lacks one, holds a value of the wrong type, or whose claim names no
figure of its own is a ValueError naming the file and the field (a packaging mistake, not a
user's)."""

from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Annotated

from layerbench.documents import parse_toml
from layerbench.errors import ConfigError
from layerbench.replicate.seed_figures import Claim, Place, SeedExperiment, SeedFigure
from layerbench.replicate.seed_ladder_figures import (
    LadderExperiment,
    LadderFigure,
    RungPlace,
    Unshown,
)
from layerbench.typed_documents import Bounds, Closed, decode
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
    # Why this machine's figures differ from the post's, from a breakdown measured here
    # (Markdown, for its docs page); empty when that is not written.
    explained: str = ""


@dataclass(frozen=True)
class ClaimTable(Claim, Closed):
    """``[[claims]]``: a claim of the post's."""


@dataclass(frozen=True)
class UnshownTable(Unshown, Closed):
    """``[[unshown]]``: a conclusion a ladder cannot test."""


@dataclass(frozen=True)
class MatrixFigureTable(Closed):
    """``[[figures]]`` of a matrix experiment: :class:`SeedFigure` and its :class:`Place`."""

    name: str
    server: str
    app: str
    concurrency: int
    reference: str
    settings: tuple[str, ...] = ()
    occurrence: Annotated[int, Bounds(low=0)] = 0
    requests_per_s: Annotated[float, Bounds(above=0)] | None = None
    rss_mib: Annotated[float, Bounds(above=0)] | None = None
    rung: str | None = None

    def figure(self) -> SeedFigure:
        place = Place(
            self.server, self.app, self.concurrency, self.settings, self.occurrence, self.rung
        )
        return SeedFigure(self.name, place, self.requests_per_s, self.reference, self.rss_mib)


@dataclass(frozen=True)
class LadderFigureTable(Closed):
    """``[[figures]]`` of a ladder experiment: :class:`LadderFigure` and its
    :class:`RungPlace`."""

    name: str
    rung: str
    server: str
    app: str
    requests_per_s: Annotated[float, Bounds(above=0)]
    reference: str
    full: bool | None = None
    settings: tuple[str, ...] = ()
    cpu_seen: str = ""
    stated_hit: float | None = None

    def figure(self) -> LadderFigure:
        place = RungPlace(self.rung, self.server, self.app, self.full, self.settings)
        return LadderFigure(
            self.name, place, self.requests_per_s, self.reference, self.cpu_seen, self.stated_hit
        )


@dataclass(frozen=True)
class ExperimentFile(Closed):
    """What every experiment's file says of its post and how it is re-run."""

    name: str
    kind: str
    post: str
    title: str
    year: int
    dated_by: str
    headline: str
    setup: str
    command: str
    claims: Annotated[tuple[ClaimTable, ...], Bounds(least=1)]


@dataclass(frozen=True)
class MatrixFile(ExperimentFile):
    rung: str
    figures: Annotated[tuple[MatrixFigureTable, ...], Bounds(least=1)]
    counted: bool = False
    first_requests: Annotated[int, Bounds(low=1)] | None = None
    second_run: Annotated[int, Bounds(low=1)] | None = None
    settled: Annotated[int, Bounds(low=1)] | None = None
    explained: str = ""

    def experiment(self) -> SeedExperiment:
        figures = tuple(table.figure() for table in self.figures)
        return SeedExperiment(
            self.post,
            self.name,
            self.rung,
            self.setup,
            figures,
            self.claims,
            self.command,
            self.counted,
            self.first_requests,
            self.second_run,
            self.settled,
        )


@dataclass(frozen=True)
class LadderFile(ExperimentFile):
    concurrency: Annotated[int, Bounds(low=1)]
    figures: Annotated[tuple[LadderFigureTable, ...], Bounds(least=1)]
    unshown: tuple[UnshownTable, ...] = ()
    explained: str = ""

    def experiment(self) -> LadderExperiment:
        figures = tuple(table.figure() for table in self.figures)
        return LadderExperiment(
            self.post,
            self.name,
            self.setup,
            self.concurrency,
            figures,
            self.claims,
            self.unshown,
            self.command,
        )


FILES: dict[str, type[MatrixFile] | type[LadderFile]] = {MATRIX: MatrixFile, LADDER: LadderFile}


def parse(where: str, document: dict[str, object]) -> Published:
    """One experiment's TOML document, validated (``where`` names it in an error)."""
    kind = document.get("kind")
    if not isinstance(kind, str) or kind not in FILES:
        raise ValueError(f"{where}: kind is one of {', '.join(FILES)}")
    try:
        written = decode(FILES[kind], document, where)
        experiment = written.experiment()
    except ConfigError as error:
        raise ValueError(str(error)) from None
    except ValueError as error:  # a claim naming no figure of the experiment's
        raise ValueError(f"{where}: {error}") from None
    return Published(
        written.name,
        written.kind,
        written.post,
        written.title,
        written.year,
        written.dated_by,
        written.headline,
        written.setup,
        written.command,
        experiment,
        written.explained.strip(),
    )


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
            document = parse_toml(path.read_text(encoding="utf-8"), path.name)
        except ConfigError as error:
            raise ValueError(str(error)) from None
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
