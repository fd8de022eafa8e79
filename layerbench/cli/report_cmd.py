"""``layerbench report FILE|RUN -o OUT``: a run as a self-contained HTML page with charts, or
as Markdown, CSV or JSON (by OUT's suffix). FILE is a ladder or matrix JSON file; RUN a run in
the results database."""

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from layerbench.cli.output import print_out
from layerbench.documents import read_json
from layerbench.errors import ConfigError, ResultsDatabaseError
from layerbench.report.exports import to_csv, to_json, to_markdown
from layerbench.report.html_report import html_report
from layerbench.results.ladder_result import LadderResult
from layerbench.results.matrix_result import MatrixResult
from layerbench.results.result_documents import read_result
from layerbench.store.results_db import ResultsDatabase, default_path

WRITERS: dict[str, Callable[[LadderResult | MatrixResult], str]] = {
    ".html": html_report,
    ".md": to_markdown,
    ".csv": to_csv,
    ".json": to_json,
}


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "report",
        help="a run as HTML with charts, Markdown, CSV or JSON",
        description="A run as one self-contained HTML file with charts (nothing fetched from "
        "the network), or Markdown, CSV or JSON, chosen by the output's suffix.",
    )
    parser.add_argument("source", help="a ladder or matrix JSON file, or a stored run's number")
    parser.add_argument(
        "-o", "--output", type=Path, required=True, help="report.html, .md, .csv or .json"
    )
    parser.set_defaults(handler=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    writer = WRITERS.get(args.output.suffix)
    if writer is None:
        raise ConfigError(f"{args.output}: the output ends in one of {', '.join(WRITERS)}")
    document = _load(args.source)
    try:
        text = writer(read_result(document))
    except ConfigError as error:
        # A document edited by hand: its fields are not those its version has.
        if _stored(args.source):
            raise ResultsDatabaseError(f"run {args.source}'s stored document: {error}") from None
        raise ConfigError(f"{args.source}: {error}") from None
    try:
        args.output.write_text(text)
    except OSError as error:
        raise ConfigError(f"cannot write {args.output}: {error.strerror}") from None
    print_out(f"wrote {args.output}")
    return 0


def _stored(source: str) -> bool:
    """A run's number, not a file's name."""
    return source.isdigit() and not Path(source).exists()


def _load(source: str) -> dict[str, Any]:
    path = Path(source)
    if _stored(source):
        with ResultsDatabase(default_path()) as database:
            return database.document(int(source))
    document = read_json(path, source)
    if not isinstance(document, dict) or not ("rungs" in document or "cells" in document):
        raise ConfigError(f"{source} is not a layerbench ladder or matrix result")
    return document
