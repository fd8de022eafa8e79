"""``layerbench smoke … --measure instructions``: the smoke gate on instructions per request,
each URL called in-process under callgrind; exit 0 when none costs more than the tolerance
over the baseline (1 % by default), 1 when one does, 2 when nothing was counted or the
baseline is not comparable (another interpreter or architecture)."""

import argparse
import sys

from layerbench.console.output import print_out
from layerbench.cost.instructions_baseline import baseline_document
from layerbench.cost.instructions_table import (
    instructions_verdict_lines,
    saved_instructions_line,
)
from layerbench.cost.instructions_verdict import judge_instructions
from layerbench.errors import ConfigError
from layerbench.servers.server_settings import add_assignments
from layerbench.smoke.smoke_gate import (
    InstructionsSmoke,
    count_urls,
    passed_variables,
    read_checked_baseline,
)
from layerbench.smoke.smoke_served import check_same_serving, count_served_urls
from layerbench.store.document_file import check_writable, write_document

DEFAULT_TOLERANCE = 0.01
EXIT_REGRESSED = 1


def smoke_instructions(args: argparse.Namespace) -> int:
    if args.baseline is None:
        raise ConfigError("smoke needs --baseline FILE (with --save to measure it)")
    tolerance = DEFAULT_TOLERANCE if args.tolerance is None else args.tolerance
    if not 0 <= tolerance < 1:
        raise ConfigError(f"the tolerance is a fraction from 0 to 1, not {tolerance:g}")
    smoke = InstructionsSmoke(
        app=args.app,
        urls=tuple(args.url or ["/"]),
        app_path=tuple(args.app_path or ["."]),
        repeats=args.repeats,
        requests=args.requests,
        environment=passed_variables(args.env),
    )
    baseline = None
    if args.save:
        check_writable(args.baseline, "the baseline")
    else:
        baseline = read_checked_baseline(args.baseline, args.ignore_conditions, _note)
        check_same_serving(baseline.conditions, args.server if args.served else None)
        missing = [url for url in smoke.urls if url not in baseline.instructions]
        if missing:
            raise ConfigError(f"the baseline has no {missing[0]}: measure it with --save")
    if args.served:
        book = add_assignments({}, args.set, default_section=args.server)
        measured = count_served_urls(smoke, args.server, book)
    else:
        measured = count_urls(smoke)
    if baseline is None:
        document = baseline_document(smoke.app, measured.conditions, measured.instructions)
        write_document(document, args.baseline)
        print_out(saved_instructions_line(args.baseline, measured.instructions))
        return 0
    verdicts = judge_instructions(baseline.instructions, measured.instructions, tolerance)
    print_out(*instructions_verdict_lines(verdicts, tolerance))
    return EXIT_REGRESSED if any(v.regressed for v in verdicts) else 0


def _note(text: str) -> None:
    print(f"layerbench: note: {text}", file=sys.stderr)
