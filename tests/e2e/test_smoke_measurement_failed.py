"""A smoke test whose measurement fails once it has begun (the server dies under the load, the
load generator fails) exits with a status of its own, 4: not 1, which says the application
regressed, and not 2, a usage error or nothing measured."""

from pathlib import Path

from layerbench.errors import EXIT_MEASUREMENT_FAILED
from layerbench.smoke.smoke_result import EXIT_REGRESSED, EXIT_STATUSES, EXIT_USAGE
from tests.cli_lines import said
from tests.smoke_runs import BRIEF, shop, smoke_here


def test_a_server_that_dies_during_the_measurement_exits_with_its_own_status(
    tmp_path: Path,
) -> None:
    baseline = tmp_path / "b.json"
    completed = smoke_here(
        *shop("shop.dies:application", "--set", "workers=1", "--baseline", str(baseline)),
        "--save",
        *BRIEF,
    )
    assert completed.returncode == EXIT_MEASUREMENT_FAILED, completed.stderr
    assert EXIT_MEASUREMENT_FAILED not in (EXIT_REGRESSED, EXIT_USAGE)
    first_line = said(completed.stderr).splitlines()[0]
    assert first_line.startswith("layerbench: error: the measurement failed: "), completed.stderr
    assert "REGRESSED" not in completed.stdout
    assert not baseline.exists()


def test_the_help_names_every_exit_status() -> None:
    assert f"{EXIT_MEASUREMENT_FAILED} when the measurement failed" in EXIT_STATUSES
