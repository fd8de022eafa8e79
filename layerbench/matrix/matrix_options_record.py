"""A matrix's options as its document recorded them (:class:`~layerbench.matrix.
matrix_options.MatrixOptions` written out, and ``label`` from ``--label``), as every report
reads them: decoded by :mod:`layerbench.typed_documents`, every key optional (an older
version recorded fewer). A result keeps the JSON as it was written; this record is its
reader's view."""

from collections.abc import Mapping
from dataclasses import dataclass

from layerbench.typed_documents import decode_at


@dataclass(frozen=True)
class RecordedColumn:
    label: str | None = None
    # The settings given to this column alone (``--servers NAME[SECTION.KEY=VALUE]``).
    book: dict[str, dict[str, object]] | None = None


@dataclass(frozen=True)
class MatrixOptionsRecord:
    columns: tuple[RecordedColumn, ...] | None = None
    concurrency: tuple[int, ...] | None = None
    rung: str | None = None
    duration_s: float | None = None
    warmup_s: float | None = None
    # --rerun-warmup: the warm-up of a level measured again on the same start.
    rerun_warmup_s: float | None = None
    repeats: int | None = None
    keep_alive: bool | None = None
    settings: dict[str, dict[str, object]] | None = None
    label: str | None = None


def matrix_options(options: Mapping[str, object], where: str) -> MatrixOptionsRecord:
    """``where`` names them in an error ("the matrix: options")."""
    return decode_at(MatrixOptionsRecord, options, where)
