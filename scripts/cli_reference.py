"""The command reference of the documentation, generated from layerbench's argument parsers.

``reference_markdown()`` walks the parser that ``layerbench`` itself parses with
(``layerbench.cli.main.build_parser``) and writes one section per command and action: its usage,
description, options and epilog, as ``--help`` shows them. MkDocs calls ``on_files`` (this file
is a hook in mkdocs.yml) and serves the result as ``reference/commands.md``, so the reference is
made afresh on every build and cannot drift from ``--help``; tests/docs/test_docs_reference.py
checks that every command and option ``--help`` shows is in it.

    python scripts/cli_reference.py > commands.md     # the same page, to read it outside MkDocs
"""

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from mkdocs.structure.files import File

from layerbench.cli.main import build_parser

PAGE = "reference/commands.md"
USAGE_WIDTH = 100


def reference_markdown() -> str:
    parser = build_parser()
    lines = [
        "# Command reference",
        "",
        "Every command and option of `layerbench`, generated from its argument parser at each "
        "build of this site: what `layerbench COMMAND --help` prints, as one page. The load "
        "generator's own flags are in [the load generator](../load-generator.md).",
        "",
        "Exit statuses, for every command: 0 done; 1 an error, or a rung, cell or URL that "
        "failed or regressed; 2 a usage error (a wrong option, setting, name or file; a smoke "
        "test that measured nothing); 130 interrupted (Ctrl-C or SIGTERM); 141 its output "
        "closed by its reader (`| head -1`).",
        "",
    ]
    commands = list(command_parsers(parser, []))
    lines += ["| command | what it does |", "|---|---|"]
    for words, _parser, summary in commands[1:]:
        name = " ".join(["layerbench", *words])
        lines.append(f"| [`{name}`](#{anchor(words)}) | {cell(summary)} |")
    lines.append("")
    for words, sub, _summary in commands:
        lines += section(words, sub)
    return "\n".join(lines) + "\n"


def command_parsers(
    parser: argparse.ArgumentParser, words: list[str], summary: str = ""
) -> Iterator[tuple[list[str], argparse.ArgumentParser, str]]:
    """Each parser with its command words, depth first, in the order ``--help`` lists them."""
    yield words, parser, summary
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            formatter: Any = parser.formatter_class(prog=parser.prog)
            helps = {
                choice.dest: formatter._expand_help(choice) if choice.help else ""
                for choice in action._choices_actions
            }
            for name, sub in action.choices.items():
                if name in helps:  # aliases are listed under their command's name only
                    yield from command_parsers(sub, [*words, name], helps[name])


def anchor(words: list[str]) -> str:
    return "-".join(["layerbench", *words])


def section(words: list[str], parser: argparse.ArgumentParser) -> list[str]:
    level = "#" * min(2 + max(len(words) - 1, 0), 4)
    title = " ".join(["layerbench", *words])
    lines = [f"{level} `{title}` {{#{anchor(words)}}}", "", "```text", usage(parser), "```", ""]
    raw = parser.formatter_class is argparse.RawDescriptionHelpFormatter
    if parser.description:
        lines += text_block(parser.description, raw)
    rows = [row for action in parser._actions if (row := option_row(parser, action))]
    if rows:
        lines += ["| option | meaning |", "|---|---|", *rows, ""]
    if parser.epilog:
        lines += text_block(parser.epilog, raw)
    return lines


def usage(parser: argparse.ArgumentParser) -> str:
    formatter = parser.formatter_class(prog=parser.prog, width=USAGE_WIDTH)
    formatter.add_usage(
        parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="usage: "
    )
    return formatter.format_help().strip()


def text_block(text: str, raw: bool) -> list[str]:
    if raw and "\n" in text.strip("\n"):
        return ["```text", text.strip("\n"), "```", ""]
    return [" ".join(text.split()), ""]


def option_row(parser: argparse.ArgumentParser, action: argparse.Action) -> str | None:
    if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
        return None
    formatter: Any = parser.formatter_class(prog=parser.prog, width=USAGE_WIDTH)
    invocation = formatter._format_action_invocation(action)
    meaning = formatter._expand_help(action) if action.help else ""
    if action.choices is not None and not action.option_strings:
        meaning = f"{meaning} ({', '.join(map(str, action.choices))})".strip()
    return f"| `{invocation}` | {cell(meaning)} |"


def cell(text: str) -> str:
    """Text as one Markdown table cell: one line, its pipes and angle brackets escaped."""
    text = " ".join(text.split())
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def on_files(files: Any, config: Any) -> Any:
    """MkDocs hook: the command reference, generated, as one more page of the site."""
    files.append(File.generated(config, PAGE, content=reference_markdown()))
    return files


if __name__ == "__main__":
    sys.stdout.write(reference_markdown())
