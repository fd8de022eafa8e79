"""A published experiment's figures as a ladder re-runs them (the figures themselves are data,
``experiments/*.toml``, read by :mod:`layerbench.replicate.published`): each figure placed on the
ladder rung that measures the same layer, under the server and application the post measured
it with, beside the figure it is "vs above" of in the post's chain (memcached and _mysql each
against the string, MySQLdb against _mysql, as the full ladder's chains have them); and what
the post concluded, as claims that :mod:`layerbench.ladder.seed_ladder_table` checks (a
matrix's: :mod:`layerbench.replicate.seed_figures`)."""

from dataclasses import dataclass

from layerbench.replicate.seed_figures import Claim, check_named


@dataclass(frozen=True)
class RungPlace:
    """Where a ladder measures a post's figure."""

    rung: str
    server: str
    app: str = "bare"
    # The ladder it must be on: None for either (the rung is the same on both).
    full: bool | None = None
    # SECTION.KEY=VALUE the ladder must run with (not given: only VALUE "default" is it).
    settings: tuple[str, ...] = ()


@dataclass(frozen=True)
class LadderFigure:
    name: str  # as the post names it
    place: RungPlace
    requests_per_s: float
    # The figure above it in the post's chain (its own name at the top of the chain).
    reference: str
    # The CPU the post saw in top while it ran.
    cpu_seen: str = ""
    # Its hit against its reference as the post states it (0.82: "82 %"); None: not stated
    # (the table computes it from the two req/s).
    stated_hit: float | None = None


@dataclass(frozen=True)
class Unshown:
    """A conclusion of the post's that a ladder cannot test, and what would."""

    words: str
    why: str


@dataclass(frozen=True)
class LadderExperiment:
    post: str  # the source document's number
    name: str
    conditions: str
    # The post's connections (ab -c).
    concurrency: int
    figures: tuple[LadderFigure, ...]
    claims: tuple[Claim, ...]
    unshown: tuple[Unshown, ...]
    # The ladder command that re-runs it (without "layerbench").
    command: str

    def __post_init__(self) -> None:
        references = {figure.name: figure.reference for figure in self.figures}
        check_named(self.name, references, self.claims)

    def figure(self, name: str) -> LadderFigure:
        return next(figure for figure in self.figures if figure.name == name)
