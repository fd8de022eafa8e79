"""Does the instructions gate catch a 2 % regression, where the req/s gate cannot? One run.

    .venv/bin/python bench/instructions_gate.py [--runs 20] [--rps-runs 20] [--repeats 2]
        [--extra 0.02]

A test application (gateapp.py, written to a temporary directory: 20 rows of an in-memory
SQLite table as JSON) and a copy of it made more expensive by a measured amount of extra work
per request (a loop of K empty iterations): K is calibrated with callgrind so that the copy costs
``--extra`` (2 %) more instructions per request than the original, and the copy's cost is
measured to show it. Then:

- ``smoke --measure instructions`` (tolerance 1 %, ``--repeats`` processes each): a baseline of
  the original saved once, then ``--runs`` runs of the original and of the copy against it;
- ``smoke`` on req/s (gunicorn, its default tolerance 10 %, its default 5 repeats of 2 s): a
  baseline saved once, then ``--rps-runs`` runs of each.

Prints per gate how many runs of the original passed and of the copy were caught, and how long
each run took (median). Nothing is asserted: the figures are for the project's notes.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from layerbench.smoke.smoke_cost import measure_urls

APP = """
import itertools
import json
import sqlite3

EXTRA = {extra}
_db = sqlite3.connect(":memory:", check_same_thread=False)
_db.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL)")
_db.executemany("INSERT INTO item VALUES (?, ?, ?)",
                [(n, f"item {{n}}", n * 1.25) for n in range(1, 51)])


def application(environ, start_response):
    rows = _db.execute("SELECT id, name, price FROM item ORDER BY id LIMIT 20").fetchall()
    body = json.dumps([{{"id": i, "name": n, "price": p}} for i, n, p in rows]).encode()
    for _ in itertools.repeat(None, EXTRA):
        pass
    start_response("200 OK", [("Content-Type", "application/json"),
                              ("Content-Length", str(len(body)))])
    return [body]
"""
CALIBRATION_EXTRA = 2_000


def write_app(directory: Path, module: str, extra: int) -> str:
    (directory / f"{module}.py").write_text(APP.format(extra=extra))
    return f"{module}:application"


def per_request(directory: Path, spec: str, repeats: int) -> float:
    counted = measure_urls(spec, ("/",), (str(directory),), repeats=repeats)
    return statistics.median(counted.instructions["/"])


def smoke(directory: Path, spec: str, *args: str) -> tuple[str, float]:
    """A smoke run's verdict ("passed", "regressed", or "error: …", its last line on stderr)
    and how long it took."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "smoke", spec, "--app-path", str(directory),
         *args],
        capture_output=True, text=True, cwd=directory, check=False,
    )  # fmt: skip
    took = time.monotonic() - started
    if done.returncode == 0:
        return "passed", took
    if done.returncode == 1 and "REGRESSED" in done.stdout:
        return "regressed", took
    last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
    return f"error: {last}", took


def gate(directory: Path, name: str, args: list[str], runs: int, specs: dict[str, str]) -> None:
    if runs < 1:
        return
    baseline = str(directory / f"{name.replace('/', '-')}.json")
    verdict, took = smoke(directory, specs["original"], "--baseline", baseline, "--save", *args)
    if verdict != "passed":
        raise SystemExit(f"{name}: the baseline was not saved: {verdict}")
    print(f"{name}: baseline saved in {took:.0f} s", flush=True)
    for label, spec in specs.items():
        verdicts, times = [], []
        for _ in range(runs):
            verdict, took = smoke(directory, spec, "--baseline", baseline, *args)
            verdicts.append(verdict)
            times.append(took)
            print(f"  {name} {label}: {verdict} in {took:.0f} s", flush=True)
        passed = verdicts.count("passed")
        regressed = verdicts.count("regressed")
        errors = runs - passed - regressed
        print(
            f"{name} gate, {label}: passed {passed}, regressed {regressed}, failed to measure "
            f"{errors}, of {runs} runs (median {statistics.median(times):.0f} s a run)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rps-runs", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--extra", type=float, default=0.02)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="layerbench-gate-") as name:
        directory = Path(name)
        original = write_app(directory, "gateapp", 0)
        calibration = write_app(directory, "gateapp_calibration", CALIBRATION_EXTRA)
        base = per_request(directory, original, 3)
        with_extra = per_request(directory, calibration, 3)
        per_item = (with_extra - base) / CALIBRATION_EXTRA
        extra = round(args.extra * base / per_item)
        costlier = write_app(directory, "gateapp_costlier", extra)
        measured = per_request(directory, costlier, 3)
        print(
            f"original {base:,.0f} instructions/request; {per_item:.2f} per iteration; "
            f"K = {extra:,}: the copy {measured:,.0f}, {measured / base - 1:+.2%}",
            flush=True,
        )
        specs = {"original": original, "costlier": costlier}
        instructions = ["--measure", "instructions", "--repeats", str(args.repeats)]
        gate(directory, "instructions", instructions, args.runs, specs)
        gate(directory, "req/s", [], args.rps_runs, specs)
        print(json.dumps({"base": base, "extra_items": extra, "costlier": measured}))


if __name__ == "__main__":
    main()
