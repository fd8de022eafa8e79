"""Where ``smoke --against`` imports the reference's application from: another directory as it
is, or a git ref checked out into a temporary worktree (``git worktree add --detach``) of the
repository the application's paths are in, removed afterwards however the run ends (an error,
Ctrl-C: the ``finally`` runs on KeyboardInterrupt). A run killed outright leaves the checkout
in its marked work directory, swept by a later run, and git's record of it, pruned by the next
``--against`` (``git worktree prune``)."""

import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError


@dataclass(frozen=True)
class Reference:
    # The directories to import the reference's application from, in order.
    app_path: tuple[str, ...]
    # What it is, for the table: "main (3f2a9c1d0b7e)", "the application in ../old".
    description: str


@contextmanager
def reference_checkout(against: str, app_path: Sequence[str], workdir: Path) -> Iterator[Reference]:
    """The reference named by ``against``: a directory, or a git ref of the repository that
    holds ``app_path`` (the candidate's directories, each mapped to the same place in the
    checkout). A ConfigError for a ref git does not know, or a path outside the repository."""
    directory = Path(against)
    if directory.is_dir():
        yield Reference((str(directory.resolve()),), f"the application in {against}")
        return
    paths = [Path(path).resolve() for path in app_path]
    top = Path(
        _git(paths[0], "rev-parse", "--show-toplevel", what=f"{paths[0]} in a git repository")
    )
    commit = _git(top, "rev-parse", "--verify", "--quiet", f"{against}^{{commit}}", what=against)
    mapped = []
    for path in paths:
        if not path.is_relative_to(top):
            raise ConfigError(f"--app-path {path} is outside the repository {top}")
        mapped.append(path.relative_to(top))
    checkout = workdir / "reference"
    _git(top, "worktree", "prune", what="git worktree prune")
    try:
        _git(
            top,
            "worktree",
            "add",
            "--detach",
            str(checkout),
            commit,
            what=f"a checkout of {against}",
        )
        yield Reference(
            tuple(str(checkout / relative) for relative in mapped), f"{against} ({commit[:12]})"
        )
    finally:
        subprocess.run(
            ["git", "-C", str(top), "worktree", "remove", "--force", str(checkout)],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(checkout, ignore_errors=True)
        subprocess.run(
            ["git", "-C", str(top), "worktree", "prune"], capture_output=True, check=False
        )


def _git(where: Path, *args: str, what: str) -> str:
    """git's output, stripped; a ConfigError saying ``what`` was not found otherwise."""
    if shutil.which("git") is None:
        raise ConfigError("--against REF needs git on PATH (or give --against a directory)")
    completed = subprocess.run(
        ["git", "-C", str(where), *args], capture_output=True, text=True, check=False
    )
    if completed.returncode != 0:
        detail = completed.stderr.strip().splitlines()
        raise ConfigError(
            f"--against: no {what}"
            + (f" ({detail[-1]})" if detail else "")
            + "; give a git ref (a branch, a tag, a commit) or a directory"
        )
    return completed.stdout.strip()
