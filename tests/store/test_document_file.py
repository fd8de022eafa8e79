"""The one writer of documents (layerbench.store.document_file): atomic, so that a write that
fails, however, leaves the file as it was and no temporary file beside it; ``-`` is stdout; a
path that cannot be written is refused before anything runs."""

import json
import os
from pathlib import Path

import pytest

from layerbench.errors import ConfigError, OutputError
from layerbench.store import document_file
from layerbench.store.document_file import check_writable, write_document

OLD = {"version": 1, "trials": [1, 2, 3]}


class Unserialisable:
    """What a document cannot hold: json.dumps raises when it meets it, halfway through."""


def old_file(tmp_path: Path) -> Path:
    path = tmp_path / "results.json"
    write_document(OLD, path)
    return path


def test_a_document_is_written_whole_and_replaces_the_old(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    path.chmod(0o600)
    write_document({"version": 2}, path)
    assert path.read_text() == '{\n  "version": 2\n}\n'
    assert path.stat().st_mode & 0o777 == 0o600  # the file's own mode kept
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_document_that_raises_while_serialised_leaves_the_old_file(tmp_path: Path) -> None:
    path = old_file(tmp_path)
    with pytest.raises(TypeError):
        write_document({"version": 2, "trials": [1, Unserialisable()]}, path)
    assert json.loads(path.read_text()) == OLD
    assert sorted(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("interruption", [KeyboardInterrupt, OSError(28, "No space left")])
def test_a_write_interrupted_before_the_rename_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interruption: BaseException
) -> None:
    path = old_file(tmp_path)

    def interrupted(descriptor: int) -> None:
        raise interruption

    monkeypatch.setattr(os, "fsync", interrupted)
    expected = OutputError if isinstance(interruption, OSError) else KeyboardInterrupt
    with pytest.raises(expected):
        write_document({"version": 2}, path)
    assert json.loads(path.read_text()) == OLD
    assert sorted(tmp_path.iterdir()) == [path]


def test_the_disk_full_message_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(
        OutputError, match=r"^cannot write .*results\.json: No space left on device$"
    ):
        write_document(OLD, tmp_path / "results.json")


def test_dash_is_stdout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_document(OLD, "-")
    assert json.loads(capsys.readouterr().out) == OLD
    assert list(tmp_path.iterdir()) == []


def test_a_new_file_gets_a_shell_redirections_mode(tmp_path: Path) -> None:
    write_document(OLD, tmp_path / "new.json")
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == document_file.NEW_FILE_MODE


@pytest.mark.parametrize("where", ["no-such-dir/results.json", "."])
def test_an_unwritable_path_is_refused_in_one_line(tmp_path: Path, where: str) -> None:
    with pytest.raises(ConfigError, match=r"^cannot write the results to .*: .*(directory)$"):
        check_writable(tmp_path / where, "the results")
    check_writable("-", "the results")
    check_writable(tmp_path / "fine.json", "the results")
