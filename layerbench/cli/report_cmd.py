"""``layerbench report FILE|RUN``: a stored run's tables again, as the terminal showed them
(``-o -``, the default), or as a self-contained HTML page with charts, Markdown, CSV or JSON
(``--format``, or OUT's suffix). FILE is a ladder or matrix JSON file; RUN a run in the results
database. ``--published NAME`` adds a published experiment's figures beside the run's."""

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from layerbench.console.numbers import MAX_RUN_ID
from layerbench.console.output import print_out
from layerbench.documents import read_json
from layerbench.errors import ConfigError, ResultsDatabaseError
from layerbench.ladder.ladder_result import LadderResult
from layerbench.ladder.seed_ladder_table import format_ladder_seed_table
from layerbench.matrix.matrix_result import MatrixResult
from layerbench.matrix.seed_table import format_seed_table
from layerbench.replicate.published import LADDER, MATRIX, published_named
from layerbench.report.exports import to_csv, to_json, to_markdown
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from layerbench.report.terminal_tables import terminal_tables
from layerbench.store.document_file import check_writable, write_text
from layerbench.store.results_db import ResultsDatabase, default_path
from layerbench.typed_documents import JsonObject, as_json

Result = LadderResult | MatrixResult
WRITERS: dict[str, Callable[[Result], str]] = {
    "text": lambda result: terminal_tables(result, colour=False) + "\n",
    "markdown": to_markdown,
    "html": html_report,
    "csv": to_csv,
    "json": to_json,
}
SUFFIXES = {".txt": "text", ".md": "markdown", ".html": "html", ".csv": "csv", ".json": "json"}
STDOUT = "-"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "report",
        help="a stored run's tables again, or as HTML with charts, Markdown, CSV or JSON",
        description="A stored run's tables as the terminal showed them (-o -, the default), or "
        "one self-contained HTML file with charts (nothing fetched from the network), "
        "Markdown, CSV or JSON: chosen by --format, else by the output's suffix.",
    )
    parser.add_argument("source", help="a ladder or matrix JSON file, or a stored run's number")
    parser.add_argument(
        "-o",
        "--output",
        default=STDOUT,
        help="report.html, .md, .csv, .json or .txt; - for stdout (the default)",
    )
    parser.add_argument(
        "--format",
        choices=list(WRITERS),
        help="text (the terminal's tables), markdown, html, csv or json "
        "(by the output's suffix; text on stdout)",
    )
    parser.add_argument(
        "--published",
        metavar="NAME",
        help="then a published experiment's figures beside the run's (text and markdown; "
        "see layerbench replicate --list)",
    )
    parser.set_defaults(handler=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    kind = _format(args.format, args.output)
    if args.published is not None and kind not in ("text", "markdown"):
        raise ConfigError("--published goes with --format text or markdown")
    check_writable(args.output, "the report")
    document = _load(args.source)
    try:
        result = read_result(document)
        text = WRITERS[kind](result)
        if args.published is not None:
            text += _beside(result, args.published, fenced=kind == "markdown")
    except ConfigError as error:
        # A document edited by hand: its fields are not those its version has.
        if _stored(args.source):
            raise ResultsDatabaseError(f"run {args.source}'s stored document: {error}") from None
        raise ConfigError(f"{args.source}: {error}") from None
    if args.output == STDOUT:
        print_out(text.rstrip("\n"))
        return 0
    write_text(text, args.output)
    print_out(f"wrote {args.output}")
    return 0


def _format(given: str | None, output: str) -> str:
    if given is not None:
        return given
    if output == STDOUT:
        return "text"
    kind = SUFFIXES.get(Path(output).suffix)
    if kind is None:
        raise ConfigError(
            f"{output}: the output ends in one of {', '.join(SUFFIXES)}, or give --format"
        )
    return kind


def _beside(result: Result, name: str, *, fenced: bool) -> str:
    """The published experiment's table beside the run's: text, or a fenced Markdown block."""
    kind = published_named(name).kind
    if isinstance(result, MatrixResult) != (kind == MATRIX):
        raise ConfigError(f"{name} is a {kind} experiment; this run is not a {kind}")
    if isinstance(result, MatrixResult):
        table = format_seed_table(result, name, colour=False)
    else:
        assert kind == LADDER
        table = format_ladder_seed_table(result, name, colour=False)
    return f"\n```text\n{table}\n```\n" if fenced else f"\n{table}\n"


def _stored(source: str) -> bool:
    """A run's number, not a file's name."""
    if not source.isdigit():
        return False
    try:
        return not Path(source).exists()
    except OSError:  # a name too long to be a file's
        return True


def _load(source: str) -> JsonObject:
    """The stored run, or the JSON file, as it was written (read_result types it)."""
    path = Path(source)
    if _stored(source):
        if len(source) > len(str(MAX_RUN_ID)):
            raise ConfigError(f"no run {source[:19]}… (a run's number is at most {MAX_RUN_ID})")
        with ResultsDatabase(default_path()) as database:
            document = database.document(int(source))
            label = database.run(int(source)).label
        options = document.get("options")
        if label and isinstance(options, dict):
            document["options"] = {"label": label, **options}
        return document
    document = read_json(path, source)
    if not isinstance(document, dict) or not ("rungs" in document or "cells" in document):
        raise ConfigError(f"{source} is not a layerbench ladder or matrix result")
    return as_json(document)
