"""What the results database keeps of a run for its queries, and the kinds of run it can read.

The store names no experiment: each slice registers its kind of document here
(:func:`register_kind`; ``layerbench/ladder/`` registers the ladder's and the mix's documents,
``layerbench/matrix/`` the matrix's), with what tells its documents apart (a ladder's has
``rungs``, a matrix's ``cells``) and how to summarize one of any version. In the database a
matrix's cells are its rungs, each named after its column and concurrency (``gunicorn c=100``;
a level given twice adds its place, ``#2``).

A document whose fields are not what its version says (edited by hand) is refused with the
field named.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from layerbench.errors import ConfigError, LoadGeneratorError
from layerbench.typed_documents import JsonObject


@dataclass(frozen=True)
class RungTrials:
    # What the rung is shown and compared as: its name, or ``APP RUNG`` in a run over several
    # applications (a matrix's cell: ``COLUMN c=N``).
    rung: str
    status: str
    # req/s of each trial, in the order they ran (none when the rung was not measured).
    rates: tuple[float, ...]
    # The application that answered it ("": not recorded, as in a matrix's cell, whose column
    # names its application, or a run stored before the results database had the column).
    app: str = ""
    # The rung's own name, without its application ("": the same as ``rung``).
    name: str = ""

    @property
    def rung_name(self) -> str:
        return self.name or self.rung


@dataclass(frozen=True)
class RunSummary:
    kind: str
    started_at: str | None
    finished_at: str | None
    interrupted: bool
    # The server (a matrix's columns), the settings chosen with --set ("" for the defaults),
    # and the rest of what was asked: "embedded c=10 x3", "template c=10,100".
    server: str
    settings: str
    description: str
    rungs: tuple[RungTrials, ...]


@dataclass(frozen=True)
class RunKind:
    # The kind's name in messages ("ladder", "matrix") and the key its documents have.
    name: str
    key: str
    # Whether a document (a JSON object) is of this kind.
    recognises: Callable[[Mapping[str, object]], bool]
    # The document, of any version, summarized; a wrong field raises KeyError, TypeError,
    # ValueError or ConfigError.
    summarize: Callable[[JsonObject], RunSummary]


_KINDS: dict[str, RunKind] = {}
Read = TypeVar("Read")


def register_kind(kind: RunKind) -> None:
    """Done by each slice when it is imported (its package's ``__init__``)."""
    _KINDS[kind.name] = kind


def kind_of(document: object) -> RunKind:
    """The registered kind that recognises the document (a JSON object)."""
    kinds = sorted(_KINDS.values(), key=lambda kind: kind.name)
    if isinstance(document, dict):
        for kind in kinds:
            if kind.recognises(document):
                return kind
    names = " or ".join(kind.name for kind in kinds) or "known"
    keys = ", ".join(f"no {kind.key}" for kind in kinds)
    raise ConfigError(f"not a layerbench {names} document ({keys})")


def with_fields_named(read: Callable[[JsonObject], Read], document: JsonObject) -> Read:
    """A document read, its wrong field (edited by hand) a ConfigError naming it."""
    try:
        return read(document)
    except (KeyError, TypeError, ValueError, AttributeError, LoadGeneratorError) as error:
        what = f"no {error}" if isinstance(error, KeyError) else str(error)
        raise ConfigError(f"a layerbench document with a wrong field: {what}") from None


def summarize_document(document: JsonObject) -> RunSummary:
    """What the database keeps of a document: its kind, times, description and rates."""
    return with_fields_named(kind_of(document).summarize, document)


def labelled(name: str, app: str, several_apps: bool) -> str:
    """How a rung is shown and compared: ``APP RUNG`` in a run over several applications (as
    :meth:`layerbench.ladder.ladder_result.LadderResult.label` names it)."""
    return f"{app} {name}" if several_apps and app else name


def format_settings(book: Mapping[str, Mapping[str, object]]) -> str:
    """``SECTION.KEY=VALUE`` of every setting of a settings book, space-separated."""
    return " ".join(
        f"{section}.{key}={value}"
        for section, values in sorted(book.items())
        for key, value in sorted(dict(values).items())
    )
