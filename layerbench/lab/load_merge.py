"""Several clients' runs at the same time as one load document, made by the load generator
itself: ``layerbench-load merge`` adds their histograms exactly (the hdrhistogram crate) and
reads every percentile from the sum, never an average of percentiles; it sums the counts, takes
the longest client's ``elapsed_s`` and the rates over it, and lists the clients' own documents
in ``clients`` (its rules: docs/load-generator.md, "Several clients as one"; load/src/merge/).

Only version 3 documents of one histogram setting merge, all in the closed loop or all with
``--rate``; anything else is refused in the load generator's one line, raised here as a
:class:`~layerbench.errors.LoadGeneratorError`.
"""

import json
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from layerbench.errors import LoadGeneratorError
from layerbench.lab.loadgen import find_load_generator
from layerbench.results.load_result import LoadResult
from layerbench.typed_documents import JsonObject

PREFIX = "layerbench-load merge: "


def merge_loads(results: Sequence[LoadResult], binary: Path | None = None) -> LoadResult:
    """The clients' results as one; its document lists theirs (``clients``)."""
    return LoadResult.from_document(merge_documents([r.document for r in results], binary))


def merge_documents(
    documents: Sequence[Mapping[str, object]], binary: Path | None = None
) -> JsonObject:
    """The clients' documents as one document of the same schema, merged by ``binary`` (the
    load generator beside this layerbench by default), the documents on its stdin."""
    if not documents:
        raise LoadGeneratorError("no client's result to merge")
    program = binary if binary is not None else find_load_generator()
    completed = subprocess.run(
        [str(program), "merge", "-"],
        input="\n".join(json.dumps(document) for document in documents),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        lines = completed.stderr.strip().splitlines() or [f"exit status {completed.returncode}"]
        if not lines[-1].startswith(PREFIX):
            raise LoadGeneratorError(
                f"{program} cannot merge load documents ({lines[-1]}); install layerbench and "
                "its layerbench-load of one release (pip install --force-reinstall layerbench, "
                "or cargo install --path load from its clone)"
            )
        raise LoadGeneratorError(lines[-1].removeprefix(PREFIX))
    merged: JsonObject = json.loads(completed.stdout)  # read typed by LoadResult.from_document
    return merged
