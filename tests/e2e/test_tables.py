"""The terminal tables and the Markdown report on the README's experiments (built with the
result structures, see ``tests/report_documents.py``): they fit a 120-column terminal, every
column is there with ``wide``, matrix figures line up from row to row, and colour goes only to
a terminal, never with NO_COLOR set."""

import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from layerbench.ladder.ladder_table import LOAD_COLUMNS, format_ladder_table
from layerbench.matrix.matrix_result import MatrixResult
from layerbench.matrix.matrix_table import format_matrix_table
from layerbench.render.colour import colour_wanted
from layerbench.report.exports import to_markdown
from layerbench.report.stored_result import read_result
from tests.report_documents import (
    SEED_000_COLUMNS,
    SEED_002_COLUMNS,
    full_ladder,
    seed_000_matrix,
    seed_002_matrix,
)

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
ESCAPE = "\033["
# A figure of a matrix cell (not the count after an E mark).
FIGURE = re.compile(r"(?<!E )(?<![\w,.])\d[\d,.]*")


def _widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_the_full_ladder_fits_120_columns_and_wide_has_every_column() -> None:
    compact = format_ladder_table(full_ladder(), colour=False)
    assert _widest(compact) < 120, compact
    wide = format_ladder_table(full_ladder(), wide=True, colour=False)
    group, header = wide.splitlines()[:2]
    for name in LOAD_COLUMNS:
        assert name in header
    assert "CPU % of a core" in group and "PSS MiB" in group
    # Every role twice: its CPU, then its memory.
    for role in ("database", "cache", "client"):
        assert header.split().count(role) == 2
    assert header.split().count("server") == 3  # the rung's server too
    assert _widest(wide) > 120
    compact_header = compact.splitlines()[1]
    assert "ms/req" not in compact_header and "p99.9 ms" not in compact_header
    assert compact_header.split()[-4:] == ["server", "database", "cache", "client"]


def test_every_row_of_seed_000s_matrix_has_its_figures_at_the_same_offsets() -> None:
    table = format_matrix_table(seed_000_matrix(), colour=False)
    assert _widest(table) < 120, table
    lines = table.splitlines()
    data = [line for line in lines if re.match(r"\d+ ", line)][:3]
    assert [line.split()[0] for line in data] == ["100", "200", "500"]
    ends = [[match.end() for match in FIGURE.finditer(line)] for line in data]
    assert len(ends[0]) == 1 + 3 * len(SEED_000_COLUMNS)
    assert ends[0] == ends[1] == ends[2], "\n".join(data)
    # Each figure under its header: req/s, ms/req, p99 ms per configuration.
    header = next(line for line in lines if line.startswith("c "))
    header_ends = [m.end() for m in re.finditer(r"req/s|ms/req|p99 ms", header)]
    assert ends[0][1:] == header_ends
    # The names, whole, over their figures (wrapped after a colon).
    heading = " ".join(lines[: lines.index(header)])
    assert "mod_wsgi-daemon:" in heading and "processes=20:" in heading
    assert "E 1,234" in data[2]


def test_seed_002s_seven_columns_turn_into_rows_that_fit() -> None:
    table = format_matrix_table(seed_002_matrix(), colour=False)
    assert _widest(table) < 120, table
    grid = table.split("\n\n")[0].splitlines()
    rows = {line.split()[0]: line for line in grid}
    for label in SEED_002_COLUMNS:
        assert label in rows
    assert rows["mod_python"].split()[1] == "skipped"
    assert "mod_python c=1: skipped: mod_python is not installed" in table
    wide = format_matrix_table(seed_002_matrix(), wide=True, colour=False)
    assert all(label in wide.splitlines()[0] for label in SEED_002_COLUMNS)


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    leader, follower = pty.openpty()
    read, write = os.pipe()
    with open(follower, "w") as terminal, open(write, "w") as pipe:
        assert colour_wanted((terminal,), {})
        assert colour_wanted((terminal,), {"NO_COLOR": ""})  # set but empty: not a request
        assert not colour_wanted((terminal,), {"NO_COLOR": "1"})
        assert not colour_wanted((terminal,), {"TERM": "dumb"})
        assert not colour_wanted((pipe,), {})
        assert not colour_wanted((terminal, pipe), {})
    os.close(leader)
    os.close(read)
    painted = format_ladder_table(full_ladder(), colour=True)
    assert ESCAPE in painted
    plain = re.sub(r"\033\[[\d;]*m", "", painted)
    assert plain == format_ladder_table(full_ladder(), colour=False)
    assert ESCAPE not in format_ladder_table(full_ladder())  # pytest's stdout is no terminal


def test_results_list_is_coloured_on_a_terminal_only_and_fits(tmp_path: Path) -> None:
    document = tmp_path / "matrix.json"
    document.write_text(json.dumps(seed_000_matrix().to_dict()))
    imported = subprocess.run(
        [*LAYERBENCH, "results", "import", str(document)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    on_terminal = _on_terminal([*LAYERBENCH, "results", "list"], {})
    assert ESCAPE in on_terminal
    assert ESCAPE not in _on_terminal([*LAYERBENCH, "results", "list"], {"NO_COLOR": "1"})
    piped = subprocess.run(
        [*LAYERBENCH, "results", "list"], capture_output=True, text=True, timeout=60, check=False
    )
    assert piped.returncode == 0, piped.stderr
    assert ESCAPE not in piped.stdout
    assert all(len(line) < 120 for line in piped.stdout.splitlines()), piped.stdout
    assert "mod_wsgi-embedded" in piped.stdout


def _on_terminal(argv: list[str], environment: dict[str, str]) -> str:
    """What ``argv`` prints with its stdout and stderr on a pseudo-terminal."""
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm", **environment}
    env.pop("NO_COLOR", None) if "NO_COLOR" not in environment else None
    process = subprocess.Popen(argv, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    output = b""
    try:
        while True:
            ready, _, _ = select.select([leader], [], [], 30)
            if not ready:
                break
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other end closed: the command is done
                break
            if not chunk:
                break
            output += chunk
    finally:
        assert process.wait(timeout=30) == 0, output
        os.close(leader)
    return output.decode()


def test_markdown_has_human_headers_and_the_terminals_percentages() -> None:
    lines = to_markdown(read_result(full_ladder().to_dict())).splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header[:12] == [
        "rung", "server", "status", "req/s", "vs above", "vs top", "ms/req", "p50 ms", "p99 ms",
        "p99.9 ms", "errors", "CV %",
    ]  # fmt: skip
    assert "server CPU %" in header and "database PSS MiB" in header
    assert not any("_" in cell for cell in header)
    string = [cell.strip() for cell in lines[3].strip("|").split("|")]
    assert string[:6] == ["string", "gunicorn", "ok", "22,676", "-38 %", "-38 %"]
    assert string[11] == "5.6"


@pytest.mark.parametrize("document", [seed_000_matrix(), seed_002_matrix()])
def test_matrix_markdown_has_human_headers(document: object) -> None:
    assert isinstance(document, MatrixResult)
    header = to_markdown(read_result(document.to_dict())).splitlines()[0]
    assert header.startswith("| server | c | status | req/s | ms/req | p99 ms | errors |")
