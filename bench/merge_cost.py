"""What merging N clients' load documents costs: ``layerbench-load merge`` (a process, the
documents on stdin, as the lab calls it) against an anchor measured in the same run, repeats
interleaved, medians printed with their ratio.

    .venv/bin/python bench/merge_cost.py [--clients 2,8,32] [--repeats 15]

The anchor is the Python merge (``layerbench.results.load_merge``) where this checkout still
has it, else ``layerbench-load --version``: the cost of starting the process at all. The
documents are load/tests/vectors/known_uncorrected_and_urls.json's clients (a real open-loop
run of two URLs carrying 7,001 and 12,000 known latencies), repeated to N clients.
"""

import argparse
import importlib
import json
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from layerbench.lab.loadgen import find_load_generator

VECTOR = Path(__file__).parent.parent / "load/tests/vectors/known_uncorrected_and_urls.json"


def python_merge() -> Callable[[list[dict[str, Any]]], object] | None:
    try:
        module = importlib.import_module("layerbench.results.load_merge")
    except ImportError:
        return None
    merge: Callable[[list[dict[str, Any]]], object] = module.merge_documents
    return merge


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="2,8,32")
    parser.add_argument("--repeats", type=int, default=15)
    options = parser.parse_args()
    binary = find_load_generator()
    template = json.loads(VECTOR.read_text())["clients"]
    python = python_merge()
    anchor_name = "Python merge" if python else "process start (--version)"
    print(f"anchor: {anchor_name}; {options.repeats} repeats, medians")
    print(f"{'clients':>7}  {'rust merge':>12}  {'anchor':>12}  {'rust / anchor':>13}")
    for count in (int(n) for n in options.clients.split(",")):
        documents = [template[i % len(template)] for i in range(count)]
        r, a = measure(binary, documents, python, options.repeats)
        print(f"{count:>7}  {r * 1000:>9.2f} ms  {a * 1000:>9.2f} ms  {r / a:>13.3f}")


def measure(
    binary: Path,
    documents: list[dict[str, Any]],
    python: Callable[[list[dict[str, Any]]], object] | None,
    repeats: int,
) -> tuple[float, float]:
    """The median seconds of the Rust merge of ``documents`` and of the anchor."""
    stdin = "\n".join(json.dumps(d) for d in documents)

    def rust() -> object:
        merge = [str(binary), "merge", "-"]
        return json.loads(
            subprocess.run(merge, input=stdin, capture_output=True, check=True, text=True).stdout
        )

    def anchor() -> object:
        if python is not None:
            return python(documents)
        return subprocess.run([str(binary), "--version"], capture_output=True, check=True)

    rust_s, anchor_s = [], []
    for _ in range(repeats):
        rust_s.append(timed(rust))
        anchor_s.append(timed(anchor))
    return statistics.median(rust_s), statistics.median(anchor_s)


if __name__ == "__main__":
    main()
