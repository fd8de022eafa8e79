"""The best WSGI and the best ASGI deployment on the string, page and upstream rungs, at c=10 and
c=1000, in one run, as ratios.

    .venv/bin/python bench/asgi_vs_wsgi.py [-d 3] [--repeats 1] [--concurrency 10,1000]
        [--rungs string,page,upstream] [--set upstream.ms=20]
        [--wsgi gunicorn-gthread:app=flask,granian:app=flask:blocking_threads=8]
        [--asgi uvicorn:app=starlette,granian-asgi:app=starlette]

For each rung, one ``layerbench matrix`` over every candidate of both sides (each column
verified before it is measured, its repeats interleaved with the others', every process
sampled). A side's best at a concurrency level is its candidate with the highest median req/s
there (a cell with failed requests only when none is clean); the table shows both, their p99
and errors, and the ASGI one's req/s over the WSGI one's: above 1, the event loop serves more.
Only the ratios matter: both sides are measured in the same run on the same machine.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LAYERBENCH = Path(sys.executable).parent / "layerbench"
WSGI_CANDIDATES = "gunicorn-gthread:app=flask,granian:app=flask:blocking_threads=8"
ASGI_CANDIDATES = "uvicorn:app=starlette,granian-asgi:app=starlette"


@dataclass(frozen=True)
class Figure:
    column: str
    requests_per_s: float
    p99_ms: float | None
    errors: int

    def describe(self) -> str:
        p99 = f"{self.p99_ms:,.1f}" if self.p99_ms is not None else "—"
        errors = f", {self.errors:,} errors" if self.errors else ""
        return f"{self.requests_per_s:>9,.0f} req/s p99 {p99:>8} ms{errors}  {self.column}"


def run_matrix(rung: str, columns: list[str], args: argparse.Namespace, out: Path) -> Any:
    command = [
        str(LAYERBENCH), "matrix", "--servers", ",".join(columns), "--rung", rung,
        "--concurrency", args.concurrency, "-d", str(args.duration), "--warmup", "1",
        "--repeats", str(args.repeats), "--json", str(out),
        *(part for setting in args.set for part in ("--set", setting)),
    ]  # fmt: skip
    print(f"{rung}: {' '.join(command[1:])}", file=sys.stderr, flush=True)
    completed = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    if not out.exists():
        sys.exit(f"{rung}: layerbench matrix wrote no results (exit {completed.returncode})")
    return json.loads(out.read_text())


def best(document: Any, columns: list[str], level: int) -> Figure | None:
    """The candidate with the highest req/s at ``level``; one with errors only if all have."""
    figures = [
        Figure(
            cell["column"],
            cell["requests_per_s"],
            cell["latency_p99_ms"],
            cell["errors"] or 0,
        )
        for cell in document["cells"]
        if cell["column"] in columns
        and cell["concurrency"] == level
        and cell["status"] == "ok"
        and cell["requests_per_s"]
    ]
    clean = [figure for figure in figures if not figure.errors] or figures
    return max(clean, key=lambda figure: figure.requests_per_s, default=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-d", "--duration", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--concurrency", default="10,1000")
    parser.add_argument("--rungs", default="string,page,upstream")
    parser.add_argument("--wsgi", default=WSGI_CANDIDATES)
    parser.add_argument("--asgi", default=ASGI_CANDIDATES)
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    wsgi, asgi = args.wsgi.split(","), args.asgi.split(",")
    levels = [int(level) for level in args.concurrency.split(",")]
    rows: list[str] = []
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as root:
        os.environ.setdefault("LAYERBENCH_RESULTS_DB", str(Path(root) / "results.sqlite3"))
        for rung in args.rungs.split(","):
            # The two sides' columns interleaved: a drift of the machine touches both alike.
            columns = [c for pair in zip(wsgi, asgi, strict=False) for c in pair]
            columns += wsgi[len(asgi) :] + asgi[len(wsgi) :]
            document = run_matrix(rung, columns, args, Path(root) / f"{rung}.json")
            for level in levels:
                w, a = best(document, wsgi, level), best(document, asgi, level)
                ratio = f"{a.requests_per_s / w.requests_per_s:.2f}" if w and a else "—"
                rows.append(f"{rung:<9}{level:>6}  {ratio:>9}")
                rows.append(f"{'':<17}WSGI {w.describe() if w else '(none measured)'}")
                rows.append(f"{'':<17}ASGI {a.describe() if a else '(none measured)'}")
    print(
        f"best WSGI and best ASGI deployment per rung and concurrency, {args.duration:g} s x "
        f"{args.repeats}, settings {' '.join(args.set) or '(defaults)'}"
    )
    print(f"{'rung':<9}{'c':>6}  {'ASGI/WSGI':>9}")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
