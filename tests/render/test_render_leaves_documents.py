"""A renderer reads a document and never changes it: a stored ladder (on a topology, so that the
per-host table is drawn) and a stored matrix, each rendered as the HTML report, the terminal
tables and every export, are what was read before, field for field, and so is the JSON they
were read from. A run's per-host rows go into the document it saves, a new one, not into the
one it was given."""

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from layerbench.lab.publish import ResultsFile
from layerbench.lab.topology_run import save_with_hosts
from layerbench.ladder.ladder_result import LadderResult
from layerbench.matrix.matrix_result import MatrixResult
from layerbench.render.host_table import per_host
from layerbench.report.exports import to_csv, to_json, to_markdown
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from layerbench.report.terminal_tables import terminal_tables
from tests.report_documents import full_ladder, seed_000_matrix

TOPOLOGY = {
    "subnet": "10.77.0.0/24",
    "hosts": [
        {"name": "client1", "address": "10.77.0.1", "roles": ["client"], "namespace": "lb-c1"},
        {"name": "app1", "address": "10.77.0.2", "roles": ["app"], "namespace": "lb-a1"},
    ],
}
Render = Callable[[LadderResult | MatrixResult], str]
RENDERERS: dict[str, Render] = {
    "html": html_report,
    "terminal": terminal_tables,
    "csv": to_csv,
    "markdown": to_markdown,
    "json": to_json,
}


def ladder_on_a_topology() -> dict[str, Any]:
    """A stored ladder whose conditions name a topology and whose processes its hosts."""
    document: dict[str, Any] = json.loads(json.dumps(full_ladder().to_dict()))
    document["conditions"]["topology"] = TOPOLOGY
    for rung in document["rungs"]:
        for trial in [rung, *rung["repeats"]]:
            for name, role in (trial.get("roles") or {}).items():
                for process in role["processes"]:
                    process["host"] = "client1" if name == "client" else "app1"
    return document


DOCUMENTS = {
    "ladder on a topology": ladder_on_a_topology,
    "matrix": lambda: json.loads(json.dumps(seed_000_matrix().to_dict())),
}


@pytest.mark.parametrize("renderer", list(RENDERERS))
@pytest.mark.parametrize("stored", list(DOCUMENTS))
def test_rendering_a_stored_document_leaves_it_as_read(stored: str, renderer: str) -> None:
    document = DOCUMENTS[stored]()
    as_stored = copy.deepcopy(document)
    result = read_result(document)
    as_read = copy.deepcopy(result)
    rendered = RENDERERS[renderer](result)
    assert rendered
    assert result == as_read
    assert document == as_stored
    assert "per_host" not in json.dumps(result.conditions)


def test_the_per_host_table_is_drawn_from_the_document_not_into_it() -> None:
    document = ladder_on_a_topology()
    result = read_result(document)
    assert isinstance(result, LadderResult)
    as_read = copy.deepcopy(result)
    items = [(rung.rung, rung) for rung in result.rungs]
    rows = per_host(result.conditions, items)
    assert [(row.host, row.role) for row in rows] == [
        ("client1", "client"),
        ("app1", "server"),
        ("app1", "database"),
        ("app1", "cache"),
    ]
    assert all(row.cpu_percent[rung.rung] > 0 for row in rows for rung in result.rungs[1:])
    assert "<h2>Per host</h2>" in html_report(result)
    assert result == as_read and "per_host" not in document


def test_a_run_saves_its_per_host_rows_without_changing_its_document(tmp_path: Path) -> None:
    """The run's checkpoint holds ``per_host``; the document it was given does not (the
    per-host table wrote its rows into it)."""
    result = read_result(ladder_on_a_topology())
    document = result.to_dict()
    as_given = copy.deepcopy(document)
    save_with_hosts(
        ResultsFile(tmp_path / "run.json"), document, [(rung.rung, rung) for rung in result.rungs]
    )
    assert document == as_given
    saved = json.loads((tmp_path / "run.json").read_text())
    assert [row["host"] for row in saved["per_host"]] == ["client1", "app1", "app1", "app1"]
