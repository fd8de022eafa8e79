"""The commands of README.md, as a user pastes them: every line of every ```sh block, with its
backslash-newline continuations joined as the shell joins them and its comments dropped."""

import shlex
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
FENCE = "```"


@dataclass(frozen=True)
class ReadmeCommand:
    line: int  # where the command starts in README.md (1-based)
    text: str  # as the shell reads it: continuations joined
    argv: tuple[str, ...]

    def __str__(self) -> str:
        return f"README.md:{self.line}: {self.text}"


def readme_commands(readme: Path = README) -> list[ReadmeCommand]:
    commands: list[ReadmeCommand] = []
    in_shell_block = False
    pending: list[str] = []
    start = 0
    for number, line in enumerate(readme.read_text().splitlines(), start=1):
        if line.startswith(FENCE):
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
            commands.append(ReadmeCommand(start, text, argv))
    return commands
