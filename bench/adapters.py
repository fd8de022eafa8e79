"""The string rung under every server adapter, as a share of nginx serving a static file, in
one run.

    .venv/bin/python bench/adapters.py [--duration 5] [--repeats 3] [--concurrency 10,100]
                                       [--servers NAME,NAME…] [--set SERVER.KEY=VALUE …]

Every adapter runs with its defaults (see ``layerbench matrix --help``) and ``--set``; the
servers are pinned to the first CPU, the load generator (keep-alive, one second of warm-up) to
the last. Each pass runs every server at every concurrency level (``layerbench matrix`` does
the work: each rung verified before it is measured, every process sampled); passes repeat, so
a server's cells are spread over the run, and the medians are printed with their ratio to
``nginx-static``'s median at the same concurrency, then what each role cost in the last pass.
"""

import argparse
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.lab.loadgen import find_load_generator
from layerbench.matrix.matrix import Matrix
from layerbench.matrix.matrix_options import Column, MatrixOptions, parse_concurrency
from layerbench.matrix.matrix_result import Cell, ColumnInfo, MatrixResult
from layerbench.matrix.matrix_table import format_matrix_table
from layerbench.results.status import Status
from layerbench.servers.adapters import ADAPTERS
from layerbench.servers.server_settings import add_assignments

ANCHOR = "nginx-static"


class Quiet:
    def pass_starting(self, number: int, passes: int) -> None:
        pass

    def column_starting(self, column: ColumnInfo) -> None:
        print(f"  {column.label}", file=sys.stderr, flush=True)

    def cell_starting(self, column: ColumnInfo, concurrency: int) -> None:
        pass

    def cell_finished(self, cell: Cell) -> None:
        pass


def run_pass(options: MatrixOptions, workdir: Path) -> MatrixResult:
    workdir.mkdir(mode=0o711)
    workdir.chmod(0o711)
    result = MatrixResult(options={}, conditions={}, started_at="")
    matrix = Matrix(
        options=options,
        layout=plan_cpu_layout(),
        load_binary=find_load_generator(),
        workdir=workdir,
        result=result,
        observer=Quiet(),
    )
    matrix.run(matrix.plan())
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--concurrency", default="10,100")
    parser.add_argument("--servers", default=",".join(ADAPTERS))
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    common = add_assignments({}, args.set)
    names = [name for name in args.servers.split(",") if name]
    if ANCHOR not in names:
        names.append(ANCHOR)
    names = [name for name in names if name != "apache-static"] + (
        ["apache-static"] if "apache-static" in names else []
    )
    options = MatrixOptions(
        columns=tuple(Column.parse(name, common) for name in names),
        concurrency=parse_concurrency(args.concurrency),
        rung="string",
        duration_s=args.duration,
        warmup_s=1.0,
    )
    rates: dict[tuple[str, int], list[float]] = defaultdict(list)
    failures: dict[tuple[str, int], list[str]] = defaultdict(list)
    last: MatrixResult | None = None
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as root:
        Path(root).chmod(0o711)
        for repeat in range(args.repeats):
            print(f"pass {repeat + 1} of {args.repeats}", file=sys.stderr, flush=True)
            last = run_pass(options, Path(root) / f"pass-{repeat}")
            for cell in last.cells:
                key = (cell.column, cell.concurrency)
                if cell.status is Status.OK and cell.load is not None:
                    rates[key].append(cell.load.requests_per_s)
                    if cell.load.errors:
                        failures[key].append(f"{cell.load.errors} errors")
                else:
                    failures[key].append(f"{cell.status.value}: {cell.message}")
    print(
        f"string rung, keep-alive, {args.duration:g} s x {args.repeats}, "
        f"{plan_cpu_layout().describe()}; medians, and each as a share of {ANCHOR}'s:"
    )
    levels = options.concurrency
    header = f"{'server':<20}" + "".join(f"{f'c={c} req/s':>16}{'x static':>10}" for c in levels)
    print(header)
    for name in names:
        line = f"{name:<20}"
        for c in levels:
            median = statistics.median(rates[(name, c)]) if rates[(name, c)] else None
            anchor = rates[(ANCHOR, c)]
            ratio = median / statistics.median(anchor) if median and anchor else None
            line += f"{median or 0:>16,.0f}" + (f"{ratio:>10.3f}" if ratio else f"{'—':>10}")
        print(line)
    for (name, c), problems in failures.items():
        print(f"  {name} c={c}: {'; '.join(problems)}")
    if last is not None:
        print()
        print(format_matrix_table(last).split("\n\n", 2)[-1])


if __name__ == "__main__":
    main()
