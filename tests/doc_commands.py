"""The commands of README.md and of every page in docs/, as a user pastes them: every line of
every ```sh block, with its backslash-newline continuations joined as the shell joins them and
its comments dropped."""

import shlex
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
README = REPOSITORY / "README.md"
DOCS = REPOSITORY / "docs"
FENCE = "```"


@dataclass(frozen=True)
class DocCommand:
    path: str  # the file, relative to the repository
    line: int  # where the command starts in it (1-based)
    text: str  # as the shell reads it: continuations joined
    argv: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def documents() -> list[Path]:
    """README.md and every Markdown page of the documentation."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def doc_commands(paths: list[Path] | None = None) -> list[DocCommand]:
    commands: list[DocCommand] = []
    for path in documents() if paths is None else paths:
        commands += file_commands(path)
    return commands


def file_commands(path: Path) -> list[DocCommand]:
    name = str(path.relative_to(REPOSITORY)) if path.is_relative_to(REPOSITORY) else str(path)
    commands: list[DocCommand] = []
    in_shell_block = False
    pending: list[str] = []
    start = 0
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.lstrip().startswith(FENCE):
            in_shell_block = line.strip() == FENCE + "sh"
            continue
        if not in_shell_block:
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending.append(line[:-1])
            continue
        text = "".join([*pending, line])
        pending = []
        argv = tuple(shlex.split(text, comments=True))
        if argv:
            commands.append(DocCommand(name, start, text, argv))
    return commands


def shell_block_languages(path: Path) -> list[tuple[int, str]]:
    """Each fenced block's opening line and its language ('' when it names none)."""
    found: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line.lstrip().startswith(FENCE):
            if not inside:
                found.append((number, line.strip()[len(FENCE) :].strip()))
            inside = not inside
    return found
