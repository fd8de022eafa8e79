"""Where a run's results go, and where it works: a JSON file checked before the run starts (or
``-``, stdout), written after every step and once more at the end, whatever the end; the
results database, which keeps every run; the timestamps a result records."""

import sys
from datetime import UTC, datetime
from pathlib import Path

from layerbench.errors import LayerbenchError
from layerbench.store.document_file import check_writable, write_document
from layerbench.store.results_db import ResultsDatabase, default_path
from layerbench.typed_documents import JsonObject


class ResultsFile:
    def __init__(self, path: Path, label: str | None = None) -> None:
        """Refuses, before anything runs, a path whose directory is not writable. ``label``
        names the run in the results database (``--label``)."""
        self.path = path
        self.label = label
        self.to_stdout = str(path) == "-"
        check_writable(path, "results")

    def save(self, document: JsonObject) -> None:
        """The results so far, in the file (stdout gets them once, at the end)."""
        self.label_of(document)
        if not self.to_stdout:
            write_document(document, self.path)

    def label_of(self, document: JsonObject) -> None:
        """The run's ``--label`` in its document's options, so that its file and every report
        of it name it as the results database does."""
        options = document.get("options")
        if self.label and isinstance(options, dict):
            options["label"] = self.label

    def save_last(self, document: JsonObject) -> None:
        """The final save, however the run ended, said on stderr. An interrupted run is also
        stored in the results database, marked partial (a finished one is, by :func:`publish`,
        after its table); its messages start on a line of their own, not after the ``^C``."""
        interrupted = bool(document.get("interrupted"))
        if interrupted:
            print(file=sys.stderr)
        self.save(document)
        if not self.to_stdout:
            print(f"results written to {self.path}", file=sys.stderr)
        if interrupted:
            store_run(document, self.label)

    def print_if_stdout(self, document: JsonObject) -> None:
        if self.to_stdout:
            write_document(document, self.path)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def store_run(document: JsonObject, label: str | None = None) -> None:
    """Adds the run to the results database; a database that cannot take it is a warning (the
    JSON file has the results)."""
    path = default_path()
    try:
        with ResultsDatabase(path) as database:
            run_id = database.add_run(document, label)
    except LayerbenchError as error:
        print(f"layerbench: warning: the run was not stored: {error}", file=sys.stderr)
        return
    partial = ", partial" if document.get("interrupted") else ""
    print(
        f"stored as run {run_id}{partial} in {path} (layerbench results show {run_id})",
        file=sys.stderr,
    )


def publish(results: ResultsFile, document: JsonObject, table: str) -> None:
    """What a finished run shows and keeps: its table, the document on stdout when the results
    file is ``-`` (the table then on stderr: stdout is the document's alone), and the run in
    the results database."""
    print(table, file=sys.stderr if results.to_stdout else sys.stdout)
    results.label_of(document)
    results.print_if_stdout(document)
    store_run(document, results.label)
