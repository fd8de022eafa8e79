"""What an instruction count depends on, recorded beside it: the interpreter (its version,
build and path), the architecture, the hash seed, valgrind's version and every installed
package's version. Counts from another interpreter or architecture are not comparable."""

import platform
import subprocess
import sys
from importlib.metadata import distributions
from pathlib import Path

from layerbench import __version__
from layerbench.cost.cost_run import HASH_SEED
from layerbench.typed_documents import JsonObject

# The conditions under which two counts are comparable at all.
COMPARABLE = ("python", "python_build", "python_executable", "architecture")


def cost_conditions(valgrind: Path) -> JsonObject:
    return {
        "layerbench_version": __version__,
        "python": platform.python_version(),
        "python_build": " ".join(platform.python_build()),
        "python_executable": str(Path(sys.executable).resolve()),
        "architecture": platform.machine(),
        "hash_seed": HASH_SEED,
        "valgrind": _valgrind_version(valgrind),
        "packages": installed_packages(),
    }


def installed_packages() -> dict[str, str]:
    found = {}
    for distribution in distributions():
        name = distribution.metadata["Name"]
        if name:
            found[name] = distribution.version
    return dict(sorted(found.items(), key=lambda item: item[0].lower()))


def _valgrind_version(valgrind: Path) -> str:
    completed = subprocess.run(
        [str(valgrind), "--version"], capture_output=True, text=True, check=False
    )
    return completed.stdout.strip()
