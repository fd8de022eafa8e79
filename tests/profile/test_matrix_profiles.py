"""`matrix --profile`'s results: each cell's profile kept in the matrix's document (version 6)
and read back, a document of an older version still read (its cells without profiles), a layer
table per profiled cell, and the HTML report's flame graph per cell and difference graph of
each cell against its row's first column's, as well-formed SVG with boxes."""

from dataclasses import replace
from typing import Any
from xml.etree import ElementTree

import pytest

from layerbench.errors import ConfigError
from layerbench.matrix.cell_profiles import cell_profile_tables
from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.matrix.matrix_result import MATRIX_JSON_VERSION, MatrixResult
from layerbench.profile.rung_profile import RungProfile, empty_profile
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from tests.report_documents import seed_000_matrix

SERVER = "run (/pkgs/gunicorn/workers/sync.py:1)"
VIEW = "view (/site/views.py:1)"
ORM = "Session.get (/pkgs/sqlalchemy/orm/session.py:1)"
LAYERS = {SERVER: "gunicorn", VIEW: "site", ORM: "SQLAlchemy"}
SVG = "{http://www.w3.org/2000/svg}"


def cell_profile(orm_samples: int) -> RungProfile:
    return empty_profile("py-spy 0.4.3", 100).with_trial(
        {(SERVER, VIEW, ORM): orm_samples, (SERVER, VIEW): 40, (SERVER,): 20},
        LAYERS.get,
        server_cpu_s=1.0,
        requests=2000,
    )


def profiled_matrix() -> MatrixResult:
    """The seed's matrix with its first row profiled in every column, more ORM in each."""
    result = seed_000_matrix()
    result.cells = [
        replace(cell, profile=cell_profile(30 + 20 * k)) if cell.row == 0 else cell
        for k, cell in enumerate(result.cells)
    ]
    return result


def reread(document: dict[str, Any]) -> MatrixResult:
    result = read_result(document)
    assert isinstance(result, MatrixResult)
    return result


def test_the_document_keeps_each_cells_profile() -> None:
    result = profiled_matrix()
    document = result.to_dict()
    assert document["version"] == MATRIX_JSON_VERSION == 6
    again = reread(document)
    assert [cell.profile for cell in again.cells] == [cell.profile for cell in result.cells]
    assert again.to_dict() == document


def test_an_older_document_reads_without_profiles() -> None:
    document = seed_000_matrix().to_dict()
    document["version"] = 5
    for cell in document["cells"]:
        del cell["profile"]
    assert all(cell.profile is None for cell in reread(document).cells)


def test_a_table_per_profiled_cell() -> None:
    result = profiled_matrix()
    tables = cell_profile_tables(result)
    profiled = [cell for cell in result.cells if cell.profile is not None]
    assert len(tables) == len(profiled) > 1
    for table, cell in zip(tables, profiled, strict=True):
        heading, *rows = table.splitlines()
        assert heading.startswith(f"{cell.column} c={cell.concurrency}: ")
        assert rows[-1].split()[:2] == ["total", "100.0"]


def test_the_report_draws_a_graph_per_cell_and_a_difference_per_column() -> None:
    result = profiled_matrix()
    html = html_report(result)
    columns = len(result.columns)
    assert html.count('<div class="flame">') == columns
    assert html.count('<div class="flame diff">') == columns - 1
    first = f"{result.columns[0].label} c=100"
    for column in result.columns[1:]:
        assert f"{column.label} c=100 against {first}" in html
    for chunk in html.split('<div class="flame')[1:]:
        svg = ElementTree.fromstring(chunk[chunk.index("<svg") : chunk.index("</svg>") + 6])
        boxes = svg.findall(f".//{SVG}g/{SVG}rect")
        assert len(boxes) >= 3  # the server, the view and the ORM
        assert all(float(box.get("width") or 0) > 0 for box in boxes)


@pytest.mark.parametrize(
    ("column", "rate", "refusal"),
    [
        ("puma:app=rails", 100, "rails runs on Ruby"),
        ("gunicorn", 0, "--profile-rate must be 1 to 1000 Hz"),
    ],
)
def test_a_profile_that_cannot_be_taken_is_refused(column: str, rate: int, refusal: str) -> None:
    with pytest.raises(ConfigError, match=refusal):
        MatrixOptions(columns=(Column.parse(column, {}),), profile=True, profile_rate_hz=rate)
