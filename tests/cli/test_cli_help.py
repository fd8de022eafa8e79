"""Every command's and action's --help prints (argparse formats help strings with %, so a
literal '%' in one breaks --help with a traceback)."""

import argparse

import pytest

from layerbench.cli.main import build_parser, run


def command_lines() -> list[list[str]]:
    lines: list[list[str]] = [[]]

    def walk(parser: argparse.ArgumentParser, prefix: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    lines.append([*prefix, name])
                    walk(sub, [*prefix, name])

    walk(build_parser(), [])
    return lines


@pytest.mark.parametrize("words", command_lines(), ids=lambda words: " ".join(words) or "-")
def test_help_prints(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run([*words, "--help"])
    assert exited.value.code == 0
    assert "usage: layerbench" in capsys.readouterr().out
