"""The served cost's arithmetic and parsers, on output captured from real runs: strace -c's
summary of a gunicorn worker over 150 requests, callgrind's dump of gunicorn's arbiter that vgdb
asked for at the end of a 50-request window."""

from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.served.per_request import estimated_cycles, per_request, summed
from layerbench.served.served_counting import COUNTED, counting_for
from layerbench.served.served_dumps import read_dump, window_dumps
from layerbench.served.served_windows import Windows
from layerbench.served.syscall_counts import parse_summary
from layerbench.servers.adapters import ADAPTERS

FIXTURES = Path(__file__).resolve().parent.parent / "served_fixtures"


def test_strace_summary_read_by_call_without_its_total() -> None:
    calls = parse_summary((FIXTURES / "strace-c-gunicorn-worker.txt").read_text())
    assert calls["sendto"] == 300
    assert calls["accept4"] == 302  # its errors column (152) is not its calls
    assert calls["getppid"] == 152
    assert "total" not in calls
    assert sum(calls.values()) == 3010  # the total line's calls


def test_strace_summary_of_several_threads() -> None:
    calls = parse_summary((FIXTURES / "strace-c-threads.txt").read_text())
    assert calls == {"clock_nanosleep": 585, "futex": 1213, "getpid": 585}


def test_strace_summary_of_nothing_is_empty() -> None:
    assert parse_summary("") == {}


def test_callgrind_window_dump_read() -> None:
    dump = read_dump(FIXTURES / "callgrind.out.11050.1")
    assert dump is not None
    assert (dump.pid, dump.label) == (11050, "window-50")
    assert dump.events == {"Ir": 73916}
    assert dump.instructions == 73916


def test_dumps_found_by_window(tmp_path: Path) -> None:
    text = (FIXTURES / "callgrind.out.11050.1").read_text()
    (tmp_path / "callgrind.out.11050.1").write_text(text)
    (tmp_path / "callgrind.out.11050").write_text(text)  # the exit's dump: not a window's
    (tmp_path / "callgrind.out.12.2").write_text(text.replace("window-50", "window-150"))
    assert list(window_dumps(tmp_path, "window-50")) == [11050]
    assert list(window_dumps(tmp_path, "window-150")) == [12]


def test_idle_work_cancels_in_the_difference() -> None:
    """A heartbeat's instructions (the same in both windows) leave the per-request figure as
    it is; only the requests' count is left."""
    idle, per = 1_234_567, 4_975
    short = {"server": idle, "application": idle + 100 * per}
    long = {"server": idle, "application": idle + 300 * per}
    assert per_request(short, 100, long, 300) == {"server": 0.0, "application": per}


def test_a_role_missing_from_a_window_counted_nothing_there() -> None:
    assert per_request({"read": 2}, 1, {"read": 4, "write": 6}, 3) == {"read": 1.0, "write": 3.0}


def test_the_long_window_must_serve_more() -> None:
    with pytest.raises(ValueError):
        per_request({}, 3, {}, 3)


def test_processes_summed_by_role() -> None:
    by_process = {1: {"Ir": 10.0}, 2: {"Ir": 5.0}, 3: {"Ir": 7.0}}
    roles = {1: "server", 2: "application", 3: "application"}
    assert summed(by_process, roles) == {"server": {"Ir": 10.0}, "application": {"Ir": 12.0}}


def test_estimated_cycles_weigh_cache_levels() -> None:
    events = {"Ir": 1000, "Dr": 300, "Dw": 200, "I1mr": 10, "D1mr": 20, "D1mw": 10}
    events |= {"ILmr": 1, "DLmr": 2, "DLmw": 1}
    # 1500 accesses, 40 L1 misses of which 4 LL misses: 1460 + 5 x 36 + 35 x 4.
    assert estimated_cycles(events) == 1460 + 180 + 140


def test_every_adapter_declares_how_it_is_counted() -> None:
    assert set(COUNTED) == set(ADAPTERS)
    assert counting_for("mod_wsgi-daemon") is COUNTED["mod_wsgi-daemon"]


def test_an_undeclared_adapter_refused_naming_it_and_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(COUNTED, "waitress")
    with pytest.raises(ConfigError, match="cannot count waitress: which of its processes"):
        counting_for("waitress")


@pytest.mark.parametrize(("short", "long"), [(0, 3), (3, 3), (5, 2), (1, 200_000)])
def test_windows_refused_unless_short_below_long(short: int, long: int) -> None:
    with pytest.raises(ConfigError, match="counted windows"):
        Windows(short, long)
