"""The OpenAPI document is what the application does: schemathesis generates requests from
``/openapi.json`` (its coverage, fuzzing and stateful phases, every check) against the live
application under gunicorn, as ``layerbench app serve`` runs it, and finds 0 failures.
(Not under wsgiref's validator: schemathesis also sends methods such as QUERY, which the
validator flags as the server's fault.) Plus the short-id pattern the document
publishes agrees exactly with the id codec."""

import random
import re
import sys
from pathlib import Path

from layerbench.proc.ports import free_port
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench_sites.app.api.schemas import SHORT_ID
from layerbench_sites.app.app_config import DATABASE_URL_VARIABLE
from layerbench_sites.datalayer.open_repository import prepare
from layerbench_sites.ids.codec import ALPHABET, MAX_NUMBER, encode
from tests.while_working import run_while_working

MAX_EXAMPLES = 60
SEED = 20261123
# A request's own limit, past which schemathesis counts it failed: the application answers
# each in milliseconds; a limit of 60 s is reached by a hung request, not by a busy machine.
REQUEST_TIMEOUT_S = 60


def test_schemathesis_finds_no_failure(tmp_path: Path) -> None:
    url = str(tmp_path / "site.sqlite3")
    prepare(url)
    schemathesis = Path(sys.executable).with_name("schemathesis")
    assert schemathesis.exists(), "schemathesis is a dev dependency: make setup-dev"
    server = GunicornServer(
        tmp_path / "gunicorn",
        free_port(),
        create_seeded_database(tmp_path),
        # No request line limit: gunicorn answers 414 to a URI over 4,094 bytes before the
        # application sees it (schemathesis generated one, 4,140 bytes of repeated query
        # parameters), and what is checked here is the application's contract.
        GunicornSettings(worker_class="gthread", threads=4, limit_request_line=0),
        app_environment={DATABASE_URL_VARIABLE: url},
    )
    with server:
        # Its examples are a fixed amount of work, done in the time the machine's load makes
        # it take (35 s alone; past 300 s at a load average of 37): it runs while it works.
        run = run_while_working(
            [
                str(schemathesis),
                "run",
                f"{server.base_url}/openapi.json",
                "--checks",
                "all",
                "--max-examples",
                str(MAX_EXAMPLES),
                "--seed",
                str(SEED),
                "--request-timeout",
                str(REQUEST_TIMEOUT_S),
                "--no-color",
            ],
            also=[server.pid],
        )
        server.check_alive()
    report = run.stdout
    assert run.returncode == 0, report[-6000:]
    assert re.search(r"\d+ generated", report), report[-2000:]


def test_the_short_id_pattern_is_the_codec() -> None:
    pattern = re.compile(SHORT_ID["pattern"])
    rng = random.Random(7)
    numbers = [0, 1, 35, 36, MAX_NUMBER - 1, MAX_NUMBER]
    numbers += [rng.randrange(MAX_NUMBER + 1) for _ in range(5000)]
    assert all(pattern.fullmatch(encode(number)) for number in numbers)
    strings = ["".join(rng.choice(ALPHABET) for _ in range(13)) for _ in range(5000)]
    strings += ["3w5e11264sgsg", "zzzzzzzzzzzzz", "3w5e11264sgs", "3w5e11264sgsf0"]
    for text in strings:
        expected = len(text) == 13 and int(text, 36) <= MAX_NUMBER
        assert bool(pattern.fullmatch(text)) == expected, text
