"""A published experiment's figures as a matrix re-runs them (the figures themselves are data,
``experiments/*.toml``, read by :mod:`layerbench.replicate.published`): each placed where a matrix
run measures the same thing: a column (its server, its application, the settings that make it
the post's configuration), a concurrency level and, for a level measured twice in a row (the
first measurement after a start and the next), which of them. Each experiment says what its
post concluded as claims: one configuration against another, faster or about as fast, which
:mod:`layerbench.matrix.seed_table` checks."""

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Place:
    """Where a matrix measures a post's configuration."""

    server: str
    app: str
    concurrency: int
    # SECTION.KEY=VALUE the column must run with (its settings used, defaults included).
    settings: tuple[str, ...] = ()
    # Of the run's levels at this concurrency, which one: 0 the first, 1 the second.
    occurrence: int = 0
    # The rung its column measures, when not the experiment's (a static server's: static).
    rung: str | None = None


@dataclass(frozen=True)
class SeedFigure:
    name: str  # as the post names it
    place: Place
    # None: the post did not measure it; the row shows ours beside the others.
    requests_per_s: float | None
    # The figure its ratio is taken against (its own name for a reference).
    reference: str
    # Resident memory per process as the post read it off top (RES), MiB.
    rss_mib: float | None = None


class Direction(Enum):
    FASTER = "faster"
    SAME = "about as fast"


@dataclass(frozen=True)
class Claim:
    """``figure`` is ``direction`` than ``reference``, as the post says it in ``words``."""

    words: str
    figure: str
    reference: str
    direction: Direction


@dataclass(frozen=True)
class SeedExperiment:
    post: str  # the source document's number
    name: str
    rung: str
    conditions: str
    figures: tuple[SeedFigure, ...]
    claims: tuple[Claim, ...]
    # The matrix command that re-runs it (without "layerbench").
    command: str
    # Its claims are about what a request costs: with --measure, each is judged on served
    # instructions per request too (layerbench/replicate/count_claims.py).
    counted: bool = False
    # Its first measurement after a start (occurrence 0) is about the first requests: their
    # instructions are counted over this many requests after a fresh start, no warm-up.
    first_requests: int | None = None
    # Its second measurement (occurrence 1) is about a second run, every child warm: counted
    # after the first requests on the same start, settled and counted at this concurrency
    # (layerbench/replicate/second_run.py).
    second_run: int | None = None
    # Its columns counted settled at this concurrency instead of after a warm-up at 1 (its
    # server's processes keep changing: layerbench/replicate/settled_counts.py).
    settled: int | None = None

    def __post_init__(self) -> None:
        references = {figure.name: figure.reference for figure in self.figures}
        check_named(self.name, references, self.claims)

    def figure(self, name: str) -> SeedFigure:
        return next(figure for figure in self.figures if figure.name == name)


def check_named(experiment: str, references: dict[str, str], claims: tuple[Claim, ...]) -> None:
    """A ValueError when a figure's reference (``references``: figure → reference) or a claim
    names no figure of the experiment."""
    named = set(references.values())
    named |= {name for claim in claims for name in (claim.figure, claim.reference)}
    if named - references.keys():
        raise ValueError(f"{experiment} names no figure {named - references.keys()}")


# Within this of 1 (either way) two rates count as "about as fast" when the interval cannot say.
SAME_TOLERANCE = 0.10
