"""Results as JSON, written atomically so a crash or Ctrl-C never leaves half a file."""

import json
import os
from pathlib import Path
from typing import Any


def write_json(document: dict[str, Any], path: Path) -> None:
    if str(path) == "-":
        print(json.dumps(document, indent=2))
        return
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(document, indent=2) + "\n")
    os.replace(partial, path)
