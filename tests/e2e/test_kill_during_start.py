"""``kill -9`` of layerbench at any moment of a start leaves no process behind.

For every adapter and every service, a driver (:mod:`tests.start_driver`) starts it through the
project's own code and is sent SIGKILL at a random moment of the start, by a subreaper
(:mod:`tests.kill_during_start`) that adopts whatever the driver leaves and reports anything
still alive a few seconds later. The moments are random (the seed is in the failure message);
uWSGI, which once outlived such a kill with its port open, gets more trials than the rest.
"""

import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from layerbench.servers.adapters import ADAPTERS
from layerbench.services.registry import SERVICES
from tests.conftest import REQUIRE_SERVICES

# The moment of the kill, after the driver says "starting": anywhere in a start (nginx's takes
# a tenth of a second, a database's two or three) or just after it.
KILL_WITHIN_S = 1.5
# How long what a killed start left may take to go: the watchdog's grace and then some.
SETTLE_S = 8.0
TRIALS_IN_PARALLEL = 3  # each mostly waits
MORE_TRIALS = ("uwsgi", "uwsgi-nginx")
TARGETS = [
    *(("adapter", name) for name in [*ADAPTERS, *MORE_TRIALS]),
    *(("service", name) for name in SERVICES),
]


def kill_during_start(kind: str, name: str, delay_s: float, root: Path) -> dict[str, Any]:
    root.mkdir()
    root.chmod(0o1777)  # as /tmp: MariaDB's unprivileged account writes its files there too
    # Services make their directories with tempfile: below ``root`` too, so none is left.
    environment = {**os.environ, "TMPDIR": str(root)}
    driver = [sys.executable, "-m", "tests.start_driver", kind, name, str(root / "plan")]
    (root / "plan").mkdir()
    completed = subprocess.run(
        [sys.executable, "-m", "tests.kill_during_start", str(delay_s), str(SETTLE_S), "--",
         *driver],
        capture_output=True, text=True, timeout=60, env=environment, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    outcome: dict[str, Any] = json.loads(completed.stdout)
    assert "failed" not in outcome, f"{kind} {name}: {outcome['failed']}\n{completed.stderr}"
    return outcome


def test_no_process_outlives_a_kill_at_any_moment_of_a_start(workdir: Path) -> None:
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    trials = [(kind, name, rng.uniform(0, KILL_WITHIN_S)) for kind, name in TARGETS]
    with ThreadPoolExecutor(TRIALS_IN_PARALLEL) as pool:
        outcomes = list(
            pool.map(
                lambda trial: kill_during_start(*trial[1], root=workdir / str(trial[0])),
                enumerate(trials),
            )
        )
    missing = [outcome["missing"] for outcome in outcomes if "missing" in outcome]
    assert not (REQUIRE_SERVICES and missing), missing
    assert len(trials) - len(missing) >= 10, missing
    left = {
        f"{kind} {name}, killed {delay_s:.2f} s into its start": outcome["left"]
        for (kind, name, delay_s), outcome in zip(trials, outcomes, strict=True)
        if outcome.get("left")
    }
    assert left == {}, f"random seed {seed}"
