"""Finding the programs we run, with the apt package to install when one is missing."""

import os
import shutil
from pathlib import Path

from layerbench.errors import MissingBinaryError

SYSTEM_DIRS = ("/usr/sbin", "/sbin", "/usr/local/sbin")


def find_program(program: str, apt_package: str) -> Path:
    search_path = os.pathsep.join([os.environ.get("PATH", ""), *SYSTEM_DIRS])
    found = shutil.which(program, path=search_path)
    if found is None:
        raise MissingBinaryError(program, apt_package)
    return Path(found)
