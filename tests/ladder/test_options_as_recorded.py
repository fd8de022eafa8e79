"""A run's options are written as JSON has them, so the record every report reads decodes them
the same whether the document is still in memory (a run being printed) or read back from a
file: a tuple option (``apps``, ``concurrency``) was refused in memory as "not a list"."""

import json

from layerbench.ladder.ladder_options_record import ladder_options
from layerbench.ladder.options import LadderOptions
from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.matrix.matrix_options_record import matrix_options


def test_a_ladders_options_decode_in_memory_as_after_a_file() -> None:
    written = LadderOptions(apps=("bare", "django"), rungs=("string", "orm")).to_dict()
    in_memory = ladder_options(written, "the ladder: options")
    from_file = ladder_options(json.loads(json.dumps(written)), "the ladder: options")
    assert in_memory == from_file
    assert in_memory.apps == ("bare", "django")


def test_a_matrix_options_decode_in_memory_as_after_a_file() -> None:
    columns = (Column.parse("gunicorn", {}), Column.parse("uwsgi", {}))
    written = MatrixOptions(columns=columns, concurrency=(1, 10)).to_dict()
    in_memory = matrix_options(written, "the matrix: options")
    assert in_memory == matrix_options(json.loads(json.dumps(written)), "the matrix: options")
    assert written == json.loads(json.dumps(written))
