"""What ``smoke --measure instructions`` prints: the baseline it saved, or its verdicts."""

from collections.abc import Sequence
from pathlib import Path

from layerbench.cost.instructions_verdict import InstructionsVerdict
from layerbench.render.text_table import format_table
from layerbench.stats.median import median


def saved_instructions_line(path: Path, instructions: dict[str, list[float]]) -> str:
    return f"baseline saved to {path}: " + ", ".join(
        f"{url} {median(values):,.0f} instructions/request" for url, values in instructions.items()
    )


def instructions_verdict_lines(
    verdicts: Sequence[InstructionsVerdict], tolerance: float
) -> list[str]:
    rows = [["url", "baseline instr/req", "now instr/req", "now/baseline", ""]]
    for verdict in verdicts:
        rows.append(
            [
                verdict.url,
                f"{verdict.baseline_median:,.0f}",
                f"{verdict.now_median:,.0f}",
                f"{verdict.ratio:.4f}",
                "REGRESSED" if verdict.regressed else "ok",
            ]
        )
    lines = format_table(rows, right_from=1)
    for verdict in verdicts:
        if verdict.regressed:
            lines.append(
                f"{verdict.url} regressed: {verdict.ratio - 1:.2%} more instructions per "
                f"request than the baseline (beyond the {tolerance:.0%} tolerated)"
            )
    return lines
