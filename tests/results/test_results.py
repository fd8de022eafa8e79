"""The ladder's derived figures and its table, on results built by hand."""

import json
from dataclasses import replace
from typing import Any

from layerbench.ladder.ladder_document import read_ladder
from layerbench.ladder.ladder_result import LADDER_JSON_VERSION, LadderResult, RungResult
from layerbench.ladder.ladder_table import format_ladder_table
from layerbench.matrix.matrix_result import Cell
from layerbench.render.noise_notes import noise_causes
from layerbench.results.load_result import LoadResult
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.results.usage import ProcessUsage, RoleUsage, Usage


def load(requests_per_s: float) -> LoadResult:
    latency = {"p50": 1500, "p99": 4000, "mean": 1600.0}
    return LoadResult(
        requests_completed=int(requests_per_s * 8),
        requests_failed=1,
        non_2xx_responses=2,
        elapsed_s=8.0,
        requests_per_s=requests_per_s,
        latency_us=latency,
        client_cpu_s=0.5,
        document={"version": 1},
    )


def test_a_load_with_error_answers_has_the_rate_of_its_successful_ones() -> None:
    # MariaDB killed mid-rung: ab's figure, 1,299 req/s, counted 664 responses that were 500s.
    document = {
        "version": 1,
        "requests_completed": 1299,
        "requests_failed": 0,
        "non_2xx_responses": 664,
        "elapsed_s": 1.0,
        "requests_per_s": 1299.0,
        "latency_us": {"p50": 1000},
        "client_cpu_s": {"user": 0.1, "system": 0.1},
        "status_counts": {"200": 635, "500": 664},
    }
    load = LoadResult.from_document(document)
    assert load.requests_per_s == 635.0
    assert load.errors == 664 and load.errors_and_statuses == {"HTTP 500": 664}
    assert load.document["requests_per_s"] == 1299.0  # the document as it came


MIB = 1024 * 1024


def usage() -> Usage:
    """Over 8 s: two workers with 3 and 1 CPU-seconds (10 and 6 MiB PSS); the client 4 s."""
    workers = (
        ProcessUsage(10, "gunicorn", "server", 3.0, 20 * MIB, 10 * MIB, 4 * MIB),
        ProcessUsage(11, "gunicorn", "server", 1.0, 20 * MIB, 6 * MIB, 2 * MIB),
    )
    client = (ProcessUsage(12, "layerbench-load", "client", 4.0, 5 * MIB, 5 * MIB, 5 * MIB),)
    roles = {
        "server": RoleUsage("server", workers, 8.0),
        "client": RoleUsage("client", client, 8.0),
    }
    return Usage(roles, 8.0, 17, 0.2)


def unsampled() -> Usage:
    return Usage({}, 8.0, 1, 0.0)


def seed_table() -> LadderResult:
    """The seed's figures: hello.txt 9700, python string 7500, memcached 2100."""
    result = LadderResult(options={}, conditions={}, started_at="2026-11-22T00:00:00+00:00")
    result.rungs = [
        RungResult("static", "nginx", Status.OK, trials=(Trial(load(9700), unsampled()),)),
        RungResult("string", "gunicorn", Status.OK, trials=(Trial(load(7500), usage()),)),
        RungResult("broken", "gunicorn", Status.ERROR, message="rung broken: wrong body"),
        RungResult("cache", "gunicorn", Status.OK, trials=(Trial(load(2100), unsampled()),)),
        RungResult("absent", "x", Status.SKIPPED, message="x is not installed"),
    ]
    return result


def test_change_is_relative_to_the_nearest_measured_rung_above() -> None:
    changes = seed_table().change_vs_above()
    assert changes[0] is None
    assert changes[1] is not None and round(changes[1], 3) == round(7500 / 9700 - 1, 3)
    assert changes[2] is None
    assert changes[3] is not None and round(changes[3], 2) == -0.72  # the seed's "72 %"
    assert changes[4] is None


def test_change_vs_top_is_the_product_of_the_changes_down_the_ladder() -> None:
    result = seed_table()
    tops = result.change_vs_top()
    assert tops[0] is None and tops[2] is None and tops[4] is None
    assert tops[3] is not None and round(tops[3], 3) == round(2100 / 9700 - 1, 3)
    above = result.change_vs_above()
    assert above[1] is not None and above[3] is not None
    product = (1 + above[1]) * (1 + above[3]) - 1
    assert round(product, 6) == round(tops[3], 6)


def _chain_rung(name: str, rate: float | None, chain: tuple[str, ...]) -> RungResult:
    if rate is None:
        return RungResult(name, "mod_wsgi-embedded", Status.ERROR, message="broken", chain=chain)
    trials = (Trial(load(rate), unsampled()),)
    return RungResult(name, "mod_wsgi-embedded", Status.OK, trials=trials, chain=chain)


def seed_chains(mariadb: float | None = 880) -> LadderResult:
    """Seed 000's chains: memcached and _mysql each from the string, MySQLdb from _mysql,
    SQLAlchemy from MySQLdb; PostgreSQL's beside them."""
    result = LadderResult(options={}, conditions={}, started_at="2026-11-22T00:00:00+00:00")
    result.rungs = [
        _chain_rung("static", 9700, ()),
        _chain_rung("string", 7500, ("static",)),
        _chain_rung("memcached", 2100, ("string", "static")),
        _chain_rung("mariadb-raw", 1400, ("string", "static")),
        _chain_rung("mariadb", mariadb, ("mariadb-raw", "string", "static")),
        _chain_rung("orm-mariadb", 700, ("mariadb", "mariadb-raw", "string", "static")),
        _chain_rung("postgres", 1600, ("string", "static")),
        _chain_rung("orm", 1200, ("postgres", "string", "static")),
    ]
    return result


def test_each_rung_is_against_the_rung_it_adds_a_layer_to_in_its_chain() -> None:
    result = seed_chains()
    above = [reference.rung if reference else None for reference in result.references()]
    assert above == [
        None, "static", "string", "string", "mariadb-raw", "mariadb", "string", "postgres"
    ]  # fmt: skip
    changes = dict(zip([rung.rung for rung in result.rungs], result.change_vs_above(), strict=True))
    # The seed's hits: _mysql -82 % against the string (not against memcached), MySQLdb -37 %,
    # SQLAlchemy -20 %; and the ORM on PostgreSQL against psycopg, not against MariaDB's ORM.
    assert [round(changes[name] or 0, 2) for name in ("mariadb-raw", "mariadb", "orm-mariadb")] \
        == [-0.81, -0.37, -0.2]  # fmt: skip
    assert changes["orm"] == 1200 / 1600 - 1
    assert not result.follows_the_rows()
    # A rung whose above failed is against the next of its chain, and the table says so.
    broken = seed_chains(mariadb=None)
    assert broken.references()[5] is broken.rungs[3]
    wide = format_ladder_table(broken, wide=True, colour=False)
    assert any(line.split()[:2] == ["orm-mariadb", "mariadb-raw"] for line in wide.splitlines())
    compact = format_ladder_table(seed_chains(), colour=False).splitlines()
    assert "   orm-mariadb " in [line[:15] for line in compact]
    assert "above" not in compact[1]


def test_a_chain_is_stored_and_read_back_and_a_document_without_one_reads_as_before() -> None:
    document = seed_chains().to_dict()
    assert document["rungs"][5]["chain"] == ["mariadb", "mariadb-raw", "string", "static"]
    assert document["rungs"][5]["above"] == "mariadb"
    read = read_ladder(json.loads(json.dumps(document)))
    assert read.change_vs_above() == seed_chains().change_vs_above()
    for rung in document["rungs"]:
        del rung["chain"]
    unchained = read_ladder(document)
    assert unchained.follows_the_rows()
    assert unchained.references()[3] is unchained.rungs[2]  # memcached, the row above


def test_failed_when_any_rung_failed_but_not_when_one_was_skipped() -> None:
    result = seed_table()
    assert result.failed
    result.rungs = [rung for rung in result.rungs if rung.rung != "broken"]
    assert not result.failed


def test_json_document_carries_version_figures_and_reasons() -> None:
    document: dict[str, Any] = seed_table().to_dict()
    assert document["version"] == LADDER_JSON_VERSION
    string = document["rungs"][1]
    assert string["requests_per_s"] == 7500
    assert round(string["ms_per_request"], 4) == round(1000 / 7500, 4)
    assert string["latency_p50_ms"] == 1.5
    assert string["errors"] == 3
    server = string["roles"]["server"]
    assert (server["cpu_s"], server["cpu_percent"], server["pss_bytes"]) == (4.0, 50.0, 16 * MIB)
    # 60,000 requests (7,500 req/s for 8 s) for 4 CPU-seconds.
    assert round(server["cpu_s_per_1000_requests"], 4) == round(4.0 / 60, 4)
    assert [p["pid"] for p in server["processes"]] == [10, 11]
    assert string["sampler_cpu_percent"] == 0.2
    assert document["rungs"][0]["roles"] == {}
    assert document["rungs"][2]["status"] == "error"
    assert document["rungs"][2]["message"] == "rung broken: wrong body"


def test_table_shows_rates_changes_and_why_rungs_were_not_measured() -> None:
    table = format_ladder_table(seed_table(), wide=True)
    lines = table.splitlines()[1:]  # under the line of "CPU % of a core" and "PSS MiB"
    assert lines[0].split() == [
        "rung", "server", "req/s", "vs", "above", "vs", "top", "ms/req", "p50", "ms", "p99", "ms",
        "p99.9", "ms", "errors", "CV", "%", "server", "client", "server", "client",
    ]  # fmt: skip
    assert lines[1].split()[:5] == ["static", "nginx", "9,700", "—", "—"]
    assert lines[2].split()[:7] == ["string", "gunicorn", "7,500", "-23", "%", "-23", "%"]
    # server and client CPU % of a core, then their PSS.
    assert lines[2].split()[-4:] == ["50", "50", "16.0", "5.0"]
    assert lines[4].split()[:7] == ["cache", "gunicorn", "2,100", "-72", "%", "-78", "%"]
    assert "  broken: rung broken: wrong body" in lines
    assert "  absent: x is not installed" in lines


def test_a_rung_that_failed_after_its_trials_shows_them_and_says_why_it_failed() -> None:
    result = LadderResult(options={}, conditions={}, started_at="")
    message = "664 requests failed or answered an error (HTTP 500 664)"
    result.rungs = [
        RungResult("string", "gunicorn", Status.OK, trials=(Trial(load(7500), usage()),)),
        RungResult("db-raw", "gunicorn", Status.ERROR, message=message,
                   trials=(Trial(load(635), usage()),)),
        RungResult("broken", "gunicorn", Status.ERROR, message="rung broken: wrong body"),
    ]  # fmt: skip
    lines = format_ladder_table(result, wide=True).splitlines()
    assert lines[3].split()[:3] == ["db-raw", "gunicorn", "635"]
    failed, measured = lines.index("failed (its figures above):"), lines.index("not measured:")
    assert lines[failed + 1] == f"  db-raw: {message}"
    assert lines[measured + 1] == "  broken: rung broken: wrong body"


def test_the_median_trial_is_shown_and_a_spread_over_3_percent_is_noisy() -> None:
    trials = tuple(Trial(load(rate), usage()) for rate in (1000.0, 1200.0, 900.0))
    rung = RungResult("string", "gunicorn", Status.OK, trials=trials)
    assert rung.requests_per_s == 1000.0
    assert rung.usage is trials[0].usage
    spread = rung.spread
    assert spread is not None and spread.n == 3 and spread.median == 1000.0
    assert rung.noisy
    # The client used 4 CPU-seconds in 8 s: 50 % of a core, not the bottleneck.
    assert noise_causes(rung.diagnosis()) == []
    steady = RungResult("string", "gunicorn", Status.OK, trials=trials[:1] * 3)
    assert not steady.noisy
    result = LadderResult(options={}, conditions={}, started_at="")
    result.rungs = [rung]
    table = format_ladder_table(result)
    assert " !" in table.splitlines()[2]
    assert "string: noisy, 95 % interval" in table
    assert "median of 3 interleaved trials" in table


def test_a_cpu_that_changed_speed_is_named_with_the_rates_scaled_by_it() -> None:
    # req/s moved with the probe's speed: the machine changed speed, not the server's cost.
    speeds = (100.0, 120.0, 90.0)
    trials = tuple(Trial(load(10.0 * s), usage(), cpu_speed=s) for s in speeds)
    rung = RungResult("string", "gunicorn", Status.OK, trials=trials)
    assert rung.noisy
    assert rung.speed_scaled_cv == 0.0
    [cause] = noise_causes(rung.diagnosis())
    assert cause.startswith("the CPU's speed varied with it (14.8 % CV of a probe loop before")
    assert cause.endswith("req/s scaled by it vary by only 0.0 %)")
    # The probe moved, but not with req/s: said so, not claimed as the cause.
    unrelated = tuple(
        Trial(load(rate), usage(), cpu_speed=s)
        for rate, s in zip((1000.0, 1200.0, 900.0), (120.0, 90.0, 100.0), strict=True)
    )
    [cause] = noise_causes(
        RungResult("string", "gunicorn", Status.OK, trials=unrelated).diagnosis()
    )
    assert "though not in step with req/s" in cause
    # The speed held while req/s moved: the table says so rather than guess at the frequency.
    steady = tuple(Trial(load(rate), usage(), cpu_speed=100.0) for rate in (1000.0, 1200.0, 900.0))
    result = LadderResult(options={}, conditions={}, started_at="")
    result.rungs = [RungResult("string", "gunicorn", Status.OK, trials=steady)]
    assert "no busy process seen, and the CPU's speed held (0.0 % CV" in format_ladder_table(result)
    # Without a probe for every trial, no speed is claimed.
    partial = (*steady[:2], Trial(load(900.0), usage()))
    assert RungResult("s", "g", Status.OK, trials=partial).cpu_speed_spread is None


def test_client_bound_is_the_busiest_thread_for_the_ladder_and_the_matrix_alike() -> None:
    """One definition: the load generator's busiest thread at 90 % of its wall time. A client
    process over 90 % of a core with no thread saturated is not client-bound (the ladder said it
    was, the matrix not, of the same run)."""

    def trial(rate: float, busiest: float, client_cpu_s: float) -> Trial:
        measured = replace(load(rate), client_busiest_thread_cpu_fraction=busiest)
        client = (ProcessUsage(12, "layerbench-load", "client", client_cpu_s, MIB, MIB, MIB),)
        return Trial(measured, Usage({"client": RoleUsage("client", client, 8.0)}, 8.0, 17, 0.2))

    # Four threads half busy: 200 % of a core, no thread saturated.
    spread_out = tuple(trial(rate, 0.5, 16.0) for rate in (1000.0, 1200.0, 900.0))
    # One thread saturated, the process at 95 % of a core... and at 50 %.
    saturated = tuple(trial(rate, 0.95, 4.0) for rate in (1000.0, 1200.0, 900.0))
    for trials, bound in ((spread_out, False), (saturated, True)):
        rung = RungResult("string", "gunicorn", Status.OK, trials=trials)
        cell = Cell("gunicorn", 0, 10, Status.OK, trials=trials)
        causes = noise_causes(rung.diagnosis())
        assert rung.client_bound is cell.client_bound is bound
        assert any("the client was the bottleneck" in cause for cause in causes) is bound
    [cause] = noise_causes(RungResult("s", "g", Status.OK, trials=saturated).diagnosis())
    assert cause == "the client was the bottleneck (its busiest thread up to 95 % busy)"


def test_the_load_result_reads_what_the_lab_uses_as_typed_fields() -> None:
    document = {
        "version": 1,
        "requests_completed": 90,
        "requests_failed": 3,
        "non_2xx_responses": 7,
        "elapsed_s": 1.0,
        "requests_per_s": 90.0,
        "latency_us": {"p50": 1000},
        "client_cpu_s": {"user": 0.5, "system": 0.25},
        "errors_by_kind": {"ECONNRESET": 3, "timeout": 0},
        "status_counts": {"200": 83, "503": 7},
        "client_busiest_thread_cpu_fraction": 0.93,
        "by_url": [{"requests_completed": 81}, {"requests_completed": 9}],
    }
    result = LoadResult.from_document(document)
    assert result.errors_and_statuses == {"ECONNRESET": 3, "HTTP 503": 7}
    assert result.client_bound and result.client_cpu_s == 0.75
    assert result.requests_completed_by_url == (81, 9)
    # A document from before those fields grew: nothing seen.
    old = LoadResult.from_document(
        {key: value for key, value in document.items() if key in list(document)[:8]}
    )
    assert old.errors_and_statuses == {} and not old.client_bound
    assert old.requests_completed_by_url == ()
