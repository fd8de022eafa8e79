"""Text from outside printed in a table is escaped where a terminal would act on it: a label of
escape sequences recoloured the terminal and rang its bell, and one with a newline forged a row
of ``results list`` (``99 2030-01-01 … FAKE ROW``)."""

import pytest

from layerbench.cli.main import run
from layerbench.render.terminal_text import escaped
from layerbench.render.text_table import format_table
from layerbench.store.results_db import ResultsDatabase, default_path
from tests.stored_runs import ladder_v3

FORGED = "\x1b[31mred\x1b[0m\x07\n99  2030-01-01 00:00  ladder  gunicorn  FAKE ROW"


def test_what_a_terminal_acts_on_is_escaped_and_the_rest_is_kept() -> None:
    assert escaped("plain text, é, 漢字, 10 %") == "plain text, é, 漢字, 10 %"
    assert escaped("\x1b[2J\x07\r\n\t\x7f\x9b") == "\\x1b[2J\\x07\\x0d\\x0a\\x09\\x7f\\x9b"
    assert escaped("a\u202eb\u2028c") == "a\\u202eb\\u2028c"


def test_a_table_cell_is_one_cell_of_one_row() -> None:
    lines = format_table([["label", "n"], [FORGED, "1"]], right_from=1, colour=False)
    assert len(lines) == 2
    assert "\x1b" not in lines[1] and "\n" not in lines[1] and "\x07" not in lines[1]
    assert lines[1].startswith("\\x1b[31mred\\x1b[0m\\x07\\x0a99")


@pytest.mark.parametrize("command", [["list"], ["show", "1"]])
def test_results_print_a_forged_label_escaped(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with ResultsDatabase(default_path()) as database:
        database.add_run(ladder_v3({"string": [1.0]}, server="gunicorn\x1b]0;owned\x07"), FORGED)
    assert run(["results", *command]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "FAKE ROW" in out or command == ["list"]  # the list shortens a long label
    assert not any(line.startswith("99") for line in out.splitlines())
    assert len(out.splitlines()) == (2 if command == ["list"] else 3)


def test_an_error_naming_what_was_typed_is_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    """An error repeats what it refuses: a rung named with escape sequences was printed raw."""
    assert run(["ladder", "--rungs", "\x1b[31mred\x07"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("layerbench: error: unknown rung \\x1b[31mred\\x07")
    assert "\x1b" not in error and "\x07" not in error and error.count("\n") == 1
