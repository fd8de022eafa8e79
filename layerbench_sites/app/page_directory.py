"""The page-cache directory (the seed's Rails ``caches_page``): every cached page is a file
named after its URL, which a front server (nginx, ``try_files``) serves without Python.

    /                   → index.html
    /v/3j1pkh           → v/3j1pkh.html
    /videos/3j1pkh      → videos/3j1pkh.json

Only pages without a query string, on paths made of plain segments, are kept as files: the
others are always built (Rails did the same). Files are written to a temporary name and renamed,
so that a reader sees a whole page or none, and are readable by all (the front server's workers
run unprivileged).

Sweeps go by family, as in the key/value page cache: ``.families/FAMILY`` holds the family's
generation, ``.families/FAMILY.pages`` the files kept under it, and ``.families/FAMILY.lock`` is
locked (``flock``, across threads and processes) while a page is kept or the family swept. A
page is kept only if its family's generation is still the one read before the database was:
either the sweep came first and the page (maybe built from older data) is dropped, or the page
came first and the sweep deletes it. Once a write has returned, no file shows what it changed.
"""

import fcntl
import os
import re
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from layerbench.site_contract import PAGE_FAMILIES, PAGE_INDEX
from layerbench_sites.app.api.page_cache import CachedPage, Lookup, etag_of

FAMILIES = PAGE_FAMILIES
INDEX = PAGE_INDEX
SUFFIXES = {"text/html": ".html", "application/json": ".json"}
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
}
# A path segment that is a plain file name: no dot files, no "..", nothing to escape, and room
# for the suffix and a temporary name's within the 255 bytes a file name may have.
SEGMENT = re.compile(r"[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,199}")
# A page's whole name, well within PATH_MAX (4,096) whatever the directory's own path.
MAX_STEM_BYTES = 1024
# Marks the directory with the database its pages were built from.
DATABASE_FILE = "database"
FILE_MODE = 0o644
DIRECTORY_MODE = 0o755


def file_stem(path: str) -> str | None:
    """Where the page of ``path`` is kept, without its suffix; None if it is not kept."""
    if path == "/":
        return INDEX
    segments = path.removeprefix("/").split("/")
    if not path.startswith("/") or not all(SEGMENT.fullmatch(s) for s in segments):
        return None
    stem = "/".join(segments)
    return stem if len(stem) <= MAX_STEM_BYTES else None


def make_directories(directory: Path, stop: Path | None = None) -> None:
    """``directory`` and its missing parents (below ``stop``), readable by all: only those it
    creates (a directory that was there keeps its mode)."""
    missing = []
    for level in (directory, *directory.parents):
        if level == stop or level.is_dir():
            break
        missing.append(level)
    for level in reversed(missing):
        try:
            level.mkdir()
        except FileExistsError:
            continue  # another worker made it
        level.chmod(DIRECTORY_MODE)


class PageDirectory:
    """The pages of the database ``database`` (its identity, ``Repository.identity``): pages
    another database left in the directory are deleted first, never served."""

    def __init__(self, root: Path, database: str) -> None:
        self.root = root
        self.families = root / FAMILIES
        make_directories(self.families)
        with self._locked(DATABASE_FILE):
            marker = self.families / DATABASE_FILE
            try:
                kept_for = marker.read_text()
            except FileNotFoundError:
                kept_for = None
            if kept_for != database:
                self._clear()
                self._replace(marker, database.encode())

    def _clear(self) -> None:
        """Deletes every page kept (by the families' lists: nothing else in the directory is
        touched) and every family's generation."""
        for entry in self.families.iterdir():
            if entry.name.endswith(".lock") or entry.name == DATABASE_FILE:
                continue
            if entry.name.endswith(".pages"):
                for name in entry.read_text().split():
                    (self.root / name).unlink(missing_ok=True)
            entry.unlink(missing_ok=True)

    def lookup(self, family: str, path: str, query: str | None, *, shareable: bool) -> Lookup:
        stem = file_stem(path) if shareable and query == "" else None
        if stem is None:
            return Lookup(family, "", None, None)  # never kept: no generation needed
        generation = self._generation(family)
        for suffix, content_type in CONTENT_TYPES.items():
            try:
                body = (self.root / (stem + suffix)).read_bytes()
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
                continue
            return Lookup(family, generation, stem, CachedPage(body, content_type, etag_of(body)))
        return Lookup(family, generation, stem, None)

    def keep(self, lookup: Lookup, page: CachedPage) -> None:
        suffix = SUFFIXES.get(page.content_type.partition(";")[0].strip())
        if lookup.place is None or suffix is None:
            return
        name = lookup.place + suffix
        with self._locked(lookup.family):
            if self._generation(lookup.family) != lookup.generation:
                return
            self._write(name, page.body)
            with self._pages_file(lookup.family).open("a") as pages:
                pages.write(name + "\n")

    def sweep(self, families: set[str]) -> None:
        for family in sorted(families):
            with self._locked(family):
                self._replace(self._generation_file(family), secrets.token_hex(8).encode())
                pages = self._pages_file(family)
                try:
                    names = pages.read_text().split()
                except FileNotFoundError:
                    names = []
                for name in names:
                    (self.root / name).unlink(missing_ok=True)
                pages.unlink(missing_ok=True)

    def _write(self, name: str, body: bytes) -> None:
        target = self.root / name
        make_directories(target.parent, stop=self.root)
        self._replace(target, body)

    def _replace(self, target: Path, body: bytes) -> None:
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(body)
            os.chmod(temporary, FILE_MODE)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def _generation(self, family: str) -> str:
        try:
            return self._generation_file(family).read_text()
        except FileNotFoundError:
            return ""

    def _generation_file(self, family: str) -> Path:
        return self.families / quote(family, safe="")

    def _pages_file(self, family: str) -> Path:
        return self.families / (quote(family, safe="") + ".pages")

    @contextmanager
    def _locked(self, family: str) -> Iterator[None]:
        lock = self.families / (quote(family, safe="") + ".lock")
        with lock.open("a") as file:
            fcntl.flock(file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(file, fcntl.LOCK_UN)
