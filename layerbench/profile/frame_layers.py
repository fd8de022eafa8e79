"""Which layer a sampled frame belongs to.

A Python frame's layer is what owns its file:

- a file in a directory of installed packages (``site-packages``) belongs to the distribution
  that installed its top-level package or module (``importlib.metadata``: ``sqlalchemy/orm/…``
  → ``SQLAlchemy``, ``jinja2/…`` → ``Jinja2``);
- a file of the interpreter's standard library (``sysconfig``'s ``stdlib`` of the base
  installation, ``<frozen …>`` modules) is the ``stdlib``;
- a file under the measured site's directories is the ``site``'s: its Python code, and its
  templates (``.html`` and the like), which the template engine compiled into code that runs
  with the template's file name, are ``site templates``.

A native frame's file is its shared object: one inside a package directory is that
distribution's (a compiled extension: SQLAlchemy's Cython modules), one in the standard
library's directories (``lib-dynload/_sqlite3…so``) the ``stdlib``'s, ``libpython`` or the
``python`` executable ``CPython``; any other is named by the object itself (``libsqlite3.so``,
``libc.so``). A native frame with debug information names a source file from the machine it
was built on (``/project/lib/sqlalchemy/engine/_row_cy.c``): when that file is not here, the
last directory of its path that is a known top-level package names the distribution.

A frame whose layer cannot be told (a bare address, ``<string>``, a header file inlined into an
extension) has none: :mod:`layerbench.profile.layer_shares` gives it its caller's.
"""

import importlib.metadata
import inspect
import os
import re
import site
import sys
import sysconfig
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath

from layerbench.profile.collapsed_stacks import Frame, parse_frame

STDLIB = "stdlib"
SITE = "site"
SITE_TEMPLATES = "site templates"
CPYTHON = "CPython"
KERNEL = "kernel"
# A sample none of whose frames has a layer.
UNATTRIBUTED = "unattributed"

SOURCE_SUFFIXES = (".py", ".pyx", ".pyi")


def _normal(directory: str) -> str:
    return os.path.realpath(directory).rstrip("/") + "/"


@dataclass
class LayerMap:
    """Tells a frame's layer. ``top_levels``: a top-level package or module of the package
    directories → the distribution that installed it."""

    package_dirs: tuple[str, ...]
    stdlib_dirs: tuple[str, ...]
    site_dirs: tuple[str, ...]
    top_levels: Mapping[str, str]
    _known: dict[str, str | None] = field(default_factory=dict, init=False, repr=False)

    @classmethod
    def of_this_python(cls, site_dirs: Iterable[str]) -> "LayerMap":
        """The package directories, standard library and distributions of the interpreter
        layerbench runs in: the one its servers run the sites with."""
        packages = {*site.getsitepackages(), sysconfig.get_paths()["purelib"]}
        packages.add(sysconfig.get_paths()["platlib"])
        base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}
        stdlib = {sysconfig.get_paths(vars=base)[key] for key in ("stdlib", "platstdlib")}
        distributions = {
            top: names[0]
            for top, names in importlib.metadata.packages_distributions().items()
            if names
        }
        return cls(
            package_dirs=tuple(sorted(_normal(d) for d in packages)),
            stdlib_dirs=tuple(sorted(_normal(d) for d in stdlib)),
            site_dirs=tuple(sorted(_normal(d) for d in site_dirs)),
            top_levels=distributions,
        )

    def layer_of(self, frame: str) -> str | None:
        """The layer of a collapsed-stack frame; None when it cannot be told."""
        if frame not in self._known:
            self._known[frame] = self._layer_of(parse_frame(frame))
        return self._known[frame]

    def _layer_of(self, frame: Frame) -> str | None:
        place = frame.file
        if place.startswith("<frozen "):
            return STDLIB
        if frame.name.startswith("[k") or place == "kernel":
            return KERNEL
        if not place.startswith("/"):
            return None
        if _is_interpreter(place):
            return CPYTHON
        return self._owner(_normal(place).rstrip("/"), place)

    def _owner(self, path: str, place: str) -> str | None:
        """The layer of an absolute path (``place`` as the frame named it)."""
        for directory in self.site_dirs:
            if path.startswith(directory):
                source = path.endswith(SOURCE_SUFFIXES) or _is_shared_object(path)
                return SITE if source else SITE_TEMPLATES
        for directory in self.package_dirs:
            if path.startswith(directory):
                return self._distribution(path[len(directory) :])
        if any(path.startswith(directory) for directory in self.stdlib_dirs):
            return STDLIB
        if _is_shared_object(path):
            return _object_name(path)
        if not os.path.exists(place):
            return self._built_elsewhere(place)
        return None

    def _distribution(self, relative: str) -> str | None:
        first = relative.split("/", 1)[0]
        top = first if "/" in relative else (inspect.getmodulename(first) or first)
        return self.top_levels.get(top)

    def _built_elsewhere(self, place: str) -> str | None:
        """A native source path of the machine that built an extension: its innermost
        directory that is a known top-level package."""
        for part in reversed(PurePath(place).parts[:-1]):
            if part in self.top_levels:
                return self.top_levels[part]
        return None


def _is_shared_object(path: str) -> bool:
    name = os.path.basename(path)
    return name.endswith(".so") or ".so." in name


def _is_interpreter(path: str) -> bool:
    """``libpython3.11.so.1.0``, or an executable ``python3``, ``python3.11``."""
    name = os.path.basename(path)
    return name.startswith("libpython") or re.fullmatch(r"python[0-9.]*", name) is not None


def _object_name(path: str) -> str:
    """``/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6`` → ``libsqlite3.so``."""
    name = os.path.basename(path)
    return name[: name.index(".so") + 3]
