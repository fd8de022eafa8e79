"""`smoke --profile`: each URL's layers after its verdict, the server's workers sampled by
py-spy during every trial."""

from pathlib import Path

import pytest

from tests.smoke_runs import shop, smoke

pytestmark = [pytest.mark.services, pytest.mark.wide]


def test_a_saved_baseline_shows_where_each_urls_cpu_goes(tmp_path: Path) -> None:
    completed = smoke(
        *shop("--baseline", "b.json", "--save", "--profile", "-d", "1", "--warmup", "0.3",
              "--repeats", "2", "--url", "/", "--url", "/other"),
        cwd=tmp_path,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    for url in ("/", "/other"):
        (heading,) = [line for line in lines if line.startswith(f"{url}: ")]
        assert "samples of the workers holding the GIL" in heading
    assert any(line.split()[:1] == ["gunicorn"] for line in lines)
    totals = [line.split() for line in lines if line.split()[:1] == ["total"]]
    assert len(totals) == 2
    assert all(row[1] == "100.0" for row in totals)
