"""A stored document read back into its typed result, whatever kind and version wrote it: the
kinds the store knows (:mod:`layerbench.store.run_summary`) tell them apart, each slice's reader
reads its own (:mod:`layerbench.ladder.ladder_document`, :mod:`layerbench.matrix.matrix_document`).
A document edited by hand into something unreadable is a ConfigError naming the field."""

from layerbench.errors import ConfigError
from layerbench.ladder.ladder_document import read_ladder
from layerbench.ladder.ladder_kind import LADDER_KIND
from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_document import read_matrix
from layerbench.matrix.matrix_kind import MATRIX_KIND
from layerbench.matrix.matrix_result import MatrixResult
from layerbench.store.run_summary import kind_of, with_fields_named
from layerbench.typed_documents import JsonObject


def read_result(document: object) -> LadderResult | MatrixResult:
    """A ladder's, a mix's or a matrix's document, told apart by its shape."""
    kind = kind_of(document)
    assert isinstance(document, dict)  # kind_of recognises JSON objects only
    stored: JsonObject = document
    if kind is MATRIX_KIND:
        return with_fields_named(read_matrix, stored)
    if kind is LADDER_KIND:
        return with_fields_named(read_ladder, stored)
    raise ConfigError(f"a {kind.name} document: neither a ladder nor a matrix")
