"""layerbench-load's JSON documents for the tests: a real nginx to load (loopback, two
files), the load generator run to its document, and the one schema check of a document (the
committed schema, a full draft 2020-12 validator), for one client's and a merged one alike."""

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE
from layerbench.servers.nginx import NginxStatic

SCHEMA_PATH = Path(__file__).parent.parent / "load" / "schema" / "load-result.schema.json"
# nginx's second file, for runs of several URLs (--urls).
OTHER_FILE = "other.txt"
OTHER_BODY = b"Another file, longer than the first.\n"


@pytest.fixture
def nginx(nginx_binary: Path, workdir: Path) -> Iterator[NginxStatic]:
    files = {STATIC_FILE: STATIC_BODY, OTHER_FILE: OTHER_BODY}
    server = NginxStatic(workdir / "nginx", free_port(), files)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def run_load(load_binary: Path, *args: str) -> dict[str, Any]:
    """The load generator's document of one run (it must succeed), bounded to 60 s."""
    completed = subprocess.run(
        [str(load_binary), "-q", "--json", "-", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    document: dict[str, Any] = json.loads(completed.stdout)
    return document


def validate(document: dict[str, Any]) -> None:
    """The document is valid under the committed schema (the schema itself checked first)."""
    schema = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    errors = sorted(Draft202012Validator(schema).iter_errors(document), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)
