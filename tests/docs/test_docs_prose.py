"""The documentation states what the tool does and promises; it is not a lab notebook.

README.md, every page in docs/ and the command reference generated from the parsers must not
narrate how one afternoon's figures were obtained: who else used the machine, its load average,
issue numbers, "an earlier figure", what was not tried, the dates and times of a run told in
prose. Nor may they use the word "seed" for the original blog posts (a user cannot know what
"seed 000" is: they are "the published experiments", "the original posts"). Figures belong in
tables rendered from a stored run with its recorded conditions; tables, code blocks and a
table's caption (a line that says what the run *recorded*) are therefore not searched for dates
and times, but are for everything else.
"""

import re
from pathlib import Path

import pytest

from tests.doc_commands import REPOSITORY, documents

# A pattern (case-insensitive) and what to write instead.
NOTEBOOK = (
    (r"\bengineers?\b", "who else used the machine is not documentation"),
    (r"\bissues?\s*#?\s*[0-9]", "issue numbers are the tracker's, not the user's"),
    (r"\(#[0-9]+\)", "issue numbers are the tracker's, not the user's"),
    (r"\bload average", "a stored run's recorded conditions, not the load of one afternoon"),
    (r"\bearlier (figure|run|version of this)", "the current figure, rendered from a stored run"),
    (r"\bthis project's (VM|virtual machine|machine)", "the conditions a stored run recorded"),
    (r"\bon this (2-core|2-vCPU|two-core) (VM|machine)", "the conditions a stored run recorded"),
    (r"\bnot tried\b|\bnot looked into\b", "say what the tool does, not what was left undone"),
    (r"\bseeds?\s+0[0-9]{2}\b", "name the experiment (replicate --list), not 'seed NNN'"),
    (r"\bthe seeds?'?s?\b|\bseed's\b", "'the original post', 'the published experiments'"),
    (r"\bwhile other\b.*\b(jobs|tests)\b|\bbeside other\b.*\b(jobs|tests)\b", "the machine's use"),
)
# Only in prose (outside tables and code blocks): when a run was made, told as a story.
NARRATED_TIME = (
    (r"\b\d{1,2}:\d{2}(:\d{2})?\s*(\u2013|-|to)\s*\d{1,2}:\d{2}", "the time a run took place"),
    (r"\b\d{1,2}:\d{2}(:\d{2})? UTC\b", "the time a run took place"),
    (r"\b(run|ran|measured) on (\w+ )?20\d\d-\d\d-\d\d", "the date a run took place"),
)


def reference_page() -> str:
    from scripts.cli_reference import reference_markdown  # noqa: PLC0415 (needs mkdocs)

    return reference_markdown()


def findings(name: str, text: str) -> list[str]:
    found: list[str] = []
    in_code = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        patterns = NOTEBOOK
        caption = "recorded" in line.lower()
        if not in_code and not caption and not line.lstrip().startswith("|"):
            patterns = NOTEBOOK + NARRATED_TIME
        for pattern, instead in patterns:
            match = re.search(pattern, line, re.IGNORECASE)
            if match:
                found.append(f"{name}:{number}: {match.group(0)!r} ({instead}): {line.strip()}")
    return found


@pytest.mark.parametrize("path", documents(), ids=lambda path: str(path.relative_to(REPOSITORY)))
def test_no_lab_notebook_in(path: Path) -> None:
    found = findings(str(path.relative_to(REPOSITORY)), path.read_text())
    assert not found, "\n".join(found)


def test_no_lab_notebook_in_the_command_reference() -> None:
    found = findings("reference/commands.md (generated)", reference_page())
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        "Run on this project's VM while the other engineers' jobs ran",
        "(load average 26 when it ended)",
        "The issue 23 experiment",
        "An earlier figure here, gthread 97,619",
        "seed 000's chain on one database",
        "the seed's conclusions hold",
        "on 2026-11-24, 04:51:00\u201304:52:50 UTC",
        "Not tried: `apache2 -X`",
    ],
)
def test_the_patterns_catch(line: str) -> None:
    assert findings("example", line), line


@pytest.mark.parametrize(
    "line",
    [
        "the site's data is seeded afresh for each trial",
        "a random hash seed moves a count by whole percents",
        "| 2026-11-27 18:30 UTC | a stored run's date, in a table |",
        "Measured on 2026-11-27 18:30 UTC, as the run recorded: 2 CPUs, Python 3.11.",
    ],
)
def test_the_patterns_spare(line: str) -> None:
    assert not findings("example", line), line
