"""How often does each smoke gate fail an unchanged application, and miss a slower one? One run.

    .venv/bin/python bench/gate_error_rates.py [--runs 20] [--gates instructions,against,baseline]
        [--slowdowns 0.05,0.10] [--repeats 5] [-d 2] [--rps-tolerance 0.03]
        [--max-minutes 90]

A test application (gateapp.py: 20 rows of an in-memory SQLite table as JSON) is written to a
temporary directory, and copies of it made slower by a loop of K empty iterations per request,
one copy per gate and slowdown, K calibrated for what the gate measures:

- the **instruction gate** (``smoke --measure instructions --repeats 2``, tolerance 1 %): K makes
  the copy cost ``s`` more instructions per request, calibrated with callgrind as
  ``bench/instructions_gate.py`` does, and the copy's count measured to show it;
- the **req/s gates**: K makes the copy's req/s under gunicorn ``1 - s`` of the original's. A
  copy with a large loop (K0) is measured against the original side by side
  (``run_smoke_against``, 10 paired passes), its paired ratio r0 gives the loop's cost relative
  to a request's, and K = K0 (1/(1-s) - 1) / (1/r0 - 1), a request's time being linear in K.
  ``--against``: the original's directory is the reference, each copy (and the original itself,
  for the false alarms) the candidate, measured interleaved in one run. ``baseline``: a baseline
  of the original saved once, each run compared with it (measured apart).

Then ``--runs`` runs of each application against each gate, the applications taking turns (so
that the machine's load falls on all alike, and a run cut short by ``--max-minutes`` leaves
counts of the same size). A run of the unchanged application that exits 1 (regressed) is a
false alarm; a run of a slower copy that does not is a miss. The req/s gates run with
``--fail-inconclusive``, so that an undecided run (exit 3) is counted apart from a pass.

The req/s gates judge at ``--rps-tolerance`` (3 %), not smoke's default 10 %: a slowdown
equal to the tolerance is caught half the time by definition, whatever the gate's precision.

Prints the table, with each application's median now/before ratio over its runs (with
``--against``, the paired ratio each run printed: it shows what the slowdown came out as);
nothing is asserted: the figures are for the project's notes.

Time, measured on a shared 2-vCPU VM under load: a run of the instruction gate takes 25 to
70 s, of the ``--against`` gate about 35 s with ``-d 1`` (5 passes, two servers), of the
``--baseline`` gate about 15 s with ``-d 1``, plus a minute or two of calibration. A full run
(20 runs of 3 applications under the 3 gates, the default 2 s trials) takes about two hours;
``--max-minutes`` (90) stops starting runs after that long and prints what it has, and
``--gates``, ``--runs`` and ``-d`` make a shorter one.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from instructions_gate import APP  # the calibrated application, one definition

from layerbench.smoke.smoke import SmokeOptions
from layerbench.smoke.smoke_cost import measure_urls
from layerbench.smoke.smoke_run import run_smoke_against
from layerbench.stats.paired import paired_ratio

SPEC = "gateapp:application"
INSTRUCTIONS_CALIBRATION = 2_000
RPS_CALIBRATION = 20_000
CALIBRATION_PASSES = 10
GATES = ("instructions", "against", "baseline")
# A smoke run that takes longer than this is stopped and counted as an error.
RUN_TIMEOUT_S = 600


def write_app(directory: Path, extra: int) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "gateapp.py").write_text(APP.format(extra=extra))
    return directory


def instructions_per_request(directory: Path) -> float:
    counted = measure_urls(SPEC, ("/",), (str(directory),), repeats=3)
    return statistics.median(counted.instructions["/"])


def rps_ratio(original: Path, copy: Path, duration_s: float) -> tuple[float, float, float]:
    """The copy's req/s over the original's from CALIBRATION_PASSES paired passes, with its
    95 % interval."""
    options = SmokeOptions(
        app=SPEC,
        repeats=CALIBRATION_PASSES,
        duration_s=duration_s,
        app_path=(str(copy),),
    )
    measured = run_smoke_against(options, str(original))
    estimate = paired_ratio(measured.before["/"], measured.now["/"])
    assert estimate.ci_low is not None and estimate.ci_high is not None
    return estimate.ratio, estimate.ci_low, estimate.ci_high


@dataclass
class Counts:
    """The outcomes of one application's runs under one gate, and how long each took."""

    outcomes: list[str] = field(default_factory=list)
    times_s: list[float] = field(default_factory=list)
    # now/before of each run that printed one (with --against: the paired ratio).
    ratios: list[float] = field(default_factory=list)

    def count(self, outcome: str) -> int:
        return self.outcomes.count(outcome)


@dataclass(frozen=True)
class Gate:
    name: str
    args: tuple[str, ...]
    # Each application's directory under this gate: "unchanged", "5 % slower", ...
    apps: dict[str, Path]
    # The reference's directory (--against) or the baseline file (baseline gates).
    reference: Path | None = None
    baseline: Path | None = None

    def command(self, app: Path) -> list[str]:
        where = ["--app-path", str(app)]
        if self.reference is not None:
            where += ["--against", str(self.reference)]
        if self.baseline is not None:
            where += ["--baseline", str(self.baseline)]
        return [sys.executable, "-m", "layerbench.cli", "smoke", SPEC, *where, *self.args]


def run_once(command: list[str], cwd: Path) -> tuple[str, float, float | None]:
    """The verdict: "passed", "regressed" (exit 1 and a URL marked REGRESSED), "inconclusive"
    or "error: <what it said>"; how long it took; and the ratio of now to before it printed
    for "/" (None when it printed none)."""
    started = time.monotonic()
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=cwd, check=False, timeout=RUN_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return f"error: no result in {RUN_TIMEOUT_S} s", time.monotonic() - started, None
    took = time.monotonic() - started
    outcome = {0: "passed", 1: "regressed", 3: "inconclusive"}.get(done.returncode)
    if outcome == "regressed" and "REGRESSED" not in done.stdout:
        outcome = None  # exit 1 without a regression in the table: a crash, not a verdict
    if outcome is None:
        lines = done.stderr.strip().splitlines() or [""]
        said = [line for line in lines if line.startswith("layerbench:")] or lines
        outcome = f"error: exit {done.returncode}: {said[-1]}"
    return outcome, took, printed_ratio(done.stdout)


def printed_ratio(stdout: str) -> float | None:
    """The now/before column of the verdict table's row of "/"."""
    for line in stdout.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[0] == "/":
            try:
                return float(fields[3])
            except ValueError:
                return None
    return None


def save_baseline(gate: Gate, original: Path) -> None:
    command = [*gate.command(original), "--save"]
    outcome, took, _ = run_once(command, original)
    if outcome != "passed":
        raise SystemExit(f"{gate.name}: the baseline was not saved: {outcome}")
    print(f"{gate.name}: baseline saved in {took:.0f} s", flush=True)


def table(results: dict[str, dict[str, Counts]]) -> list[str]:
    rows = [
        (
            "gate",
            "application",
            "runs",
            "passed",
            "inconclusive",
            "regressed",
            "errors",
            "false alarms / misses",
            "median now/before",
            "median s",
        )
    ]
    for gate, per_app in results.items():
        for app, counts in per_app.items():
            runs = len(counts.outcomes)
            regressed = counts.count("regressed")
            errors = runs - regressed - counts.count("passed") - counts.count("inconclusive")
            if app == "unchanged":
                wrong = f"{regressed} false alarms"
            else:
                wrong = f"{runs - regressed - errors} missed"
            median_s = f"{statistics.median(counts.times_s):.0f}" if counts.times_s else "-"
            ratio = f"{statistics.median(counts.ratios):.3f}" if counts.ratios else "-"
            rows.append(
                (
                    gate,
                    app,
                    str(runs),
                    str(counts.count("passed")),
                    str(counts.count("inconclusive")),
                    str(regressed),
                    str(errors),
                    wrong,
                    ratio,
                    median_s,
                )
            )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def prepare_gates(root: Path, args: argparse.Namespace) -> list[Gate]:
    original = write_app(root / "original", 0)
    labels = {s: f"{s:.0%} slower" for s in args.slowdowns}
    gates = []
    if "instructions" in args.gates:
        base = instructions_per_request(original)
        calibration = write_app(root / "instructions-calibration", INSTRUCTIONS_CALIBRATION)
        per_item = (instructions_per_request(calibration) - base) / INSTRUCTIONS_CALIBRATION
        apps = {"unchanged": original}
        for s in args.slowdowns:
            extra = round(s * base / per_item)
            copy = write_app(root / f"instructions-{s:g}", extra)
            measured = instructions_per_request(copy)
            print(
                f"instructions: original {base:,.0f}/request; {labels[s]}: K = {extra:,}, "
                f"{measured:,.0f}/request ({measured / base - 1:+.2%})",
                flush=True,
            )
            apps[labels[s]] = copy
        instructions_args = ("--measure", "instructions", "--repeats", "2")
        gates.append(
            Gate("instructions", instructions_args, apps, baseline=root / "instructions.json")
        )
    rps_gates = [name for name in ("against", "baseline") if name in args.gates]
    if rps_gates:
        calibration = write_app(root / "rps-calibration", RPS_CALIBRATION)
        r0, low, high = rps_ratio(original, calibration, args.duration)
        print(
            f"req/s: K0 = {RPS_CALIBRATION:,}: {r0:.3f} of the original's req/s "
            f"[{low:.3f}, {high:.3f}] over {CALIBRATION_PASSES} paired passes",
            flush=True,
        )
        apps = {"unchanged": original}
        for s in args.slowdowns:
            extra = round(RPS_CALIBRATION * (1 / (1 - s) - 1) / (1 / r0 - 1))
            apps[labels[s]] = write_app(root / f"rps-{s:g}", extra)
            print(f"req/s: {labels[s]}: K = {extra:,}", flush=True)
        rps_args = (
            "--repeats",
            str(args.repeats),
            "-d",
            str(args.duration),
            "--tolerance",
            str(args.rps_tolerance),
            "--fail-inconclusive",
        )
        if "against" in rps_gates:
            gates.append(Gate("req/s --against", rps_args, apps, reference=original))
        if "baseline" in rps_gates:
            gates.append(Gate("req/s --baseline", rps_args, apps, baseline=root / "rps.json"))
    return gates


def fraction_list(text: str) -> list[float]:
    values = [float(part) for part in text.split(",") if part]
    if not values or not all(0 < value < 0.5 for value in values):
        raise argparse.ArgumentTypeError(f"fractions between 0 and 0.5, not {text!r}")
    return values


def gate_list(text: str) -> list[str]:
    names = [part for part in text.split(",") if part]
    unknown = [name for name in names if name not in GATES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"gates among {', '.join(GATES)}, not {text!r}")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each application (20)")
    parser.add_argument("--gates", type=gate_list, default=list(GATES))
    parser.add_argument("--slowdowns", type=fraction_list, default=[0.05, 0.10])
    parser.add_argument("--repeats", type=int, default=5, help="req/s gates' trials (5)")
    parser.add_argument("-d", "--duration", type=float, default=2.0, help="seconds a trial (2)")
    parser.add_argument("--rps-tolerance", type=float, default=0.03)
    parser.add_argument(
        "--max-minutes",
        type=float,
        default=90.0,
        help="start no run after this long; the table counts the runs made (90)",
    )
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    started = time.monotonic()
    deadline = started + 60 * args.max_minutes
    with tempfile.TemporaryDirectory(prefix="layerbench-gate-errors-") as name:
        root = Path(name)
        gates = prepare_gates(root, args)
        for gate in gates:
            if gate.baseline is not None:
                save_baseline(gate, gate.apps["unchanged"])
        results = {gate.name: {app: Counts() for app in gate.apps} for gate in gates}
        cut_short = False
        for number in range(args.runs):
            for gate in gates:
                for app, directory in gate.apps.items():
                    if time.monotonic() >= deadline:
                        cut_short = True
                        break
                    outcome, took, ratio = run_once(gate.command(directory), root)
                    counts = results[gate.name][app]
                    counts.outcomes.append(outcome)
                    counts.times_s.append(took)
                    if ratio is not None:
                        counts.ratios.append(ratio)
                    said = f"{number + 1} {gate.name} {app}: {outcome} in {took:.0f} s"
                    print(f"  {said}", flush=True)
        print("\n".join(table(results)))
        minutes = (time.monotonic() - started) / 60
        print(
            f"{minutes:.0f} minutes"
            + (f"; cut short by --max-minutes {args.max_minutes:g}" if cut_short else ""),
            flush=True,
        )


if __name__ == "__main__":
    main()
