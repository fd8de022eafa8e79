"""The callgrind shim (``callgrind_shim.c``): compiled with gcc against valgrind's own header
into a cache directory, once per version of its source, and found there afterwards.

``scripts/setup.sh`` builds it; a run builds it too when it is missing. valgrind (which ships
``<valgrind/callgrind.h>``) and gcc missing are each one line naming the apt package."""

import hashlib
import os
import subprocess
from pathlib import Path

from layerbench.errors import LayerbenchError, MissingBinaryError
from layerbench.proc.binaries import find_program

SOURCE = Path(__file__).with_name("callgrind_shim.c")
HEADER = Path("/usr/include/valgrind/callgrind.h")
CACHE_VARIABLE = "LAYERBENCH_CACHE_DIR"


def cache_directory() -> Path:
    """``$LAYERBENCH_CACHE_DIR``, else ``$XDG_CACHE_HOME/layerbench`` (``~/.cache/layerbench``)."""
    explicit = os.environ.get(CACHE_VARIABLE)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "layerbench"


def find_valgrind() -> Path:
    """valgrind's path; a MissingBinaryError naming Debian's package when it is not installed."""
    return find_program("valgrind", "valgrind")


def shim_library() -> Path:
    """The compiled shim, built now if this version of its source has not been."""
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:16]
    library = cache_directory() / f"callgrind_shim-{digest}.so"
    if library.is_file():
        return library
    if not HEADER.is_file():
        raise MissingBinaryError(str(HEADER), "valgrind")
    gcc = find_program("gcc", "gcc")
    library.parent.mkdir(parents=True, exist_ok=True)
    partial = library.with_suffix(f".{os.getpid()}.tmp")
    completed = subprocess.run(
        [str(gcc), "-O2", "-shared", "-fPIC", "-o", str(partial), str(SOURCE)],
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        partial.unlink(missing_ok=True)
        last = (completed.stderr.strip().splitlines() or ["no message"])[-1]
        raise LayerbenchError(f"gcc could not build the callgrind shim: {last}")
    partial.rename(library)  # whole or absent: never half a library
    return library


if __name__ == "__main__":
    print(shim_library())
