"""Read-your-write rounds on their own, against the real site (``app serve`` on SQLite, its page
cache in process) on loopback: however short the time given, enough rounds are made for a
per-host cache to show a stale page (round 1's page is cached; round 2 is the first that can
read it), and a write read back through the same host is never stale."""

from collections.abc import Iterator

import pytest

from layerbench.cluster.cluster_reads import MIN_ROUNDS, READS_PER_PAGE, read_your_write
from tests.app_serve_process import Serving, app_serve


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    url = str(tmp_path_factory.mktemp("site") / "site.sqlite3")
    with app_serve("--db", url, "--no-demo-data") as serving:
        yield serving


def test_no_time_still_makes_the_fewest_rounds_that_can_show_a_stale_page(site: Serving) -> None:
    result = read_your_write(site.base_url, site.base_url, duration_s=0.0)
    assert result.rounds == MIN_ROUNDS >= 2
    assert result.reads == MIN_ROUNDS * 2 * READS_PER_PAGE  # two pages a round
    assert result.stale_reads == 0, result  # written and read through one host: swept
