"""The command reference (generated into the docs by scripts/cli_reference.py from the argument
parsers) lists every command and option that ``--help`` shows, each in its command's section.

What ``--help`` shows is read from its printed text, not from the parser the generator walks:
a subcommand listed under a command's positional arguments, every option string on an option
line. So an option added with a help text of its own, or a command added to main.py, appears in
the reference, and one hidden from ``--help`` (argparse.SUPPRESS) stays out of both.
"""

import re

import pytest

from layerbench.cli.main import run
from scripts.cli_reference import command_parsers, reference_markdown
from tests.cli.test_cli_help import command_lines

OPTION_LINE = re.compile(r"^  (-{1,2}\w[^ ]*(?:[ ,][^ ]+)*?)(?:  |$)")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
COMMAND_LINE = re.compile(r"^    ([a-z][\w-]*)(?:  |$)")


def shown_by_help(words: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[set, set]:
    """The options and the subcommands that ``layerbench WORDS --help`` prints."""
    with pytest.raises(SystemExit):
        run([*words, "--help"])
    text = capsys.readouterr().out
    options: set[str] = set()
    commands: set[str] = set()
    section = ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line
            continue
        if section.startswith("options") and (match := OPTION_LINE.match(line)):
            options.update(OPTION.findall(match.group(1)))
        elif section.startswith("positional") and (match := COMMAND_LINE.match(line)):
            commands.add(match.group(1))
    return options, commands


def reference_sections() -> dict[str, str]:
    """Each command's section of the generated page, by its command words."""
    page = reference_markdown()
    sections: dict[str, str] = {}
    heading = re.compile(r"^#{2,4} `(layerbench[^`]*)`", re.MULTILINE)
    found = list(heading.finditer(page))
    for match, following in zip(found, [*found[1:], None], strict=True):
        end = following.start() if following else len(page)
        sections[match.group(1)] = page[match.start() : end]
    return sections


SECTIONS = reference_sections()


@pytest.mark.parametrize("words", command_lines(), ids=lambda words: " ".join(words) or "-")
def test_the_reference_has_what_help_shows(
    words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    title = " ".join(["layerbench", *words])
    assert title in SECTIONS, f"{title}: no section in the command reference"
    section = SECTIONS[title]
    options, commands = shown_by_help(words, capsys)
    assert options, f"{title} --help: no option read (has its format changed?)"
    missing = [
        option
        for option in sorted(options)
        if f"`{option}" not in section and f" {option}" not in section
    ]
    assert not missing, f"{title}: --help shows {missing}, the reference does not"
    for command in commands:
        assert f"{title} {command}" in SECTIONS, f"{title} {command}: not in the reference"


def test_every_command_has_a_section() -> None:
    from layerbench.cli.main import build_parser  # noqa: PLC0415

    walked = {
        " ".join(["layerbench", *words]) for words, _, _ in command_parsers(build_parser(), [])
    }
    assert walked == set(SECTIONS)
