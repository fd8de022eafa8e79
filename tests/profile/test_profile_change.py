"""What a change added, now minus the baseline: each layer's and each function's own CPU per
request (its share of its profile's samples times its server CPU per request), the largest
growth first; in share points when a side's CPU was not measured."""

import pytest

from layerbench.profile.profile_change import change_lines, profile_change
from layerbench.profile.rung_profile import RungProfile, empty_profile

SERVER = "handle (/pkgs/gunicorn/workers/sync.py:1)"
VIEW = "view (/site/views.py:1)"
EXTRA = "calibrated_extra_work (/site/slower.py:9)"
LAYERS = {SERVER: "gunicorn", VIEW: "site", EXTRA: "site"}


def profile(stacks: dict[tuple[str, ...], int], cpu_s: float, requests: int = 1000) -> RungProfile:
    return empty_profile("py-spy 0.4.3", 100).with_trial(
        stacks, LAYERS.get, server_cpu_s=cpu_s, requests=requests
    )


def test_the_added_function_is_on_top_in_cpu_per_request() -> None:
    # 300 µs/req before, half the server's, half the view's; now 600 µs/req, of which the
    # extra work is half: the server and the view each keep their 150 µs/req.
    before = profile({(SERVER,): 50, (SERVER, VIEW): 50}, cpu_s=0.3)
    now = profile({(SERVER,): 100, (SERVER, VIEW): 100, (SERVER, VIEW, EXTRA): 200}, cpu_s=0.6)
    change = profile_change(before, now)
    assert change.unit == "µs/req"
    assert change.functions[0].name == EXTRA
    assert change.functions[0].added == pytest.approx(300)
    assert {c.name: c.added for c in change.functions[1:]} == pytest.approx({SERVER: 0, VIEW: 0})
    assert change.layers[0].name == "site"
    assert change.layers[0].added == pytest.approx(300)
    lines = change_lines("/", change)
    assert lines[1].split()[:3] == ["layer", "site:", "+300.0"]
    assert "  function calibrated_extra_work (slower.py:9): +300.0" in lines


def test_without_cpu_the_change_is_in_share_points() -> None:
    before = profile({(SERVER,): 50, (SERVER, VIEW): 50}, cpu_s=0.0)
    now = profile({(SERVER,): 25, (SERVER, VIEW): 75}, cpu_s=0.3)
    change = profile_change(before, now)
    assert change.unit == "% of samples"
    assert [(c.name, round(c.added)) for c in change.layers] == [("site", 25), ("gunicorn", -25)]
    assert change_lines("/", change)[-1] == "  most shrunk: layer gunicorn: -25.0"
