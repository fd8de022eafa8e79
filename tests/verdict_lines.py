"""A replication's conclusions as their reader takes them: each wrapped line joined back to the
one it continues (a verdict's under its label's text, a claim's words under the claim), so that
a test finds a verdict whole on one line; each of a verdict's lines within the terminal's 120
columns (the tables above them are the tables' own)."""

import re

# A verdict's line: its label, then the verdict.
LABEL = re.compile(r"^    (here|req/s|instructions|decided by):")
CLAIM = re.compile(r"^  \S")
WIDTH = 120


def unwrapped(text: str) -> list[str]:
    lines: list[str] = []
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        continues_verdict = lines and LABEL.match(lines[-1]) and indent >= len("    here: ")
        continues_claim = (
            lines and CLAIM.match(lines[-1]) and indent == len("    ") and not LABEL.match(line)
        )
        if LABEL.match(line) or continues_verdict:
            assert len(line) <= WIDTH, line
        if line.strip() and (continues_verdict or continues_claim):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines
