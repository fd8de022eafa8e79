"""A module whose import has a side effect: it writes the importing process's id into the file
``$SHOP_IMPORT_MARKER`` names."""

import os
from pathlib import Path

Path(os.environ["SHOP_IMPORT_MARKER"]).write_text(str(os.getpid()))


def application(environ: object, start_response: object) -> list[bytes]:
    return [b""]
