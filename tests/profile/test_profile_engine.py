"""The layer attribution engine: collapsed stacks read and written, each frame's layer, the
leaf rule with its intervals, and the Wilson interval it rests on."""

import importlib.util
import math
from pathlib import Path

import pytest

from layerbench.profile.collapsed_stacks import (
    Frame,
    from_document,
    merged,
    parse_collapsed,
    parse_frame,
    to_collapsed,
    to_document,
    without_processes,
)
from layerbench.profile.frame_layers import (
    CPYTHON,
    SITE,
    SITE_TEMPLATES,
    STDLIB,
    UNATTRIBUTED,
    LayerMap,
)
from layerbench.profile.layer_shares import attribute, stack_layers
from layerbench.stats.proportion import wilson

PACKAGES = "/venv/lib/python3.11/site-packages"
STD = "/usr/lib/python3.11"
SITE_DIR = "/work/site"


def fake_map() -> LayerMap:
    return LayerMap(
        package_dirs=(PACKAGES + "/",),
        stdlib_dirs=(STD + "/",),
        site_dirs=(SITE_DIR + "/",),
        top_levels={"sqlalchemy": "SQLAlchemy", "jinja2": "Jinja2", "six": "six"},
    )


def test_wilson_matches_the_published_interval() -> None:
    # 50 of 100: 0.4038 to 0.5962 (Newcombe, Statistics in Medicine 17, 1998, method 3).
    half = wilson(50, 100)
    assert (round(half.low, 4), round(half.high, 4)) == (0.4038, 0.5962)
    # None seen of n: the interval is [0, z²/(n + z²)], not empty.
    none = wilson(0, 2000)
    assert none.low == 0.0
    assert math.isclose(none.high, 1.959963984540054**2 / (2000 + 1.959963984540054**2))
    assert wilson(7, 7).high == 1.0
    with pytest.raises(ValueError, match="a count of 8 out of 7"):
        wilson(8, 7)


def test_frames_are_parsed_with_and_without_a_line() -> None:
    assert parse_frame("Session.get (/a/b/session.py:120)") == Frame(
        "Session.get", "/a/b/session.py", 120
    )
    assert parse_frame("poll (/usr/lib/libc.so.6)") == Frame("poll", "/usr/lib/libc.so.6", None)
    assert parse_frame("f (<frozen runpy>:65)") == Frame("f", "<frozen runpy>", 65)
    assert parse_frame("0x7ff03e (libc.so.6)").name == "0x7ff03e"
    assert parse_frame("all") == Frame("all", "", None)


def test_collapsed_text_round_trips_and_adds_up() -> None:
    text = "a (x.py:1);b (x.py:2) 3\na (x.py:1) 2\nnot a stack line\n\na (x.py:1);b (x.py:2) 4\n"
    stacks = parse_collapsed(text)
    assert stacks == {("a (x.py:1)", "b (x.py:2)"): 7, ("a (x.py:1)",): 2}
    assert parse_collapsed(to_collapsed(stacks)) == stacks
    assert from_document(to_document(stacks)) == stacks
    # Each distinct frame is stored once.
    assert to_document(stacks)["frames"] == ["a (x.py:1)", "b (x.py:2)"]
    assert merged([stacks, {("c",): 1}]) == {**stacks, ("c",): 1}


def test_process_frames_are_dropped_so_that_workers_add_up() -> None:
    stacks = {
        ('process 1:"gunicorn"', 'process 2:"gunicorn"', "run (w.py:1)"): 3,
        ('process 1:"gunicorn"', 'process 3:"gunicorn"', "run (w.py:1)"): 4,
        ('process 1:"gunicorn"',): 1,
    }
    assert without_processes(stacks) == {("run (w.py:1)",): 7}


@pytest.mark.parametrize(
    ("frame", "layer"),
    [
        (f"Session.get ({PACKAGES}/sqlalchemy/orm/session.py:120)", "SQLAlchemy"),
        (f"render ({PACKAGES}/jinja2/environment.py:1290)", "Jinja2"),
        (f"wraps ({PACKAGES}/six.py:40)", "six"),
        (
            f"row ({PACKAGES}/sqlalchemy/engine/_row_cy.cpython-311-x86_64-linux-gnu.so)",
            "SQLAlchemy",
        ),
        (f"unknown_dist ({PACKAGES}/nobody/thing.py:1)", None),
        (f"loads ({STD}/json/__init__.py:299)", STDLIB),
        (f"execute ({STD}/lib-dynload/_sqlite3.cpython-311-x86_64-linux-gnu.so)", STDLIB),
        ("_run_code (<frozen runpy>:65)", STDLIB),
        (f"on_get ({SITE_DIR}/app/pages.py:97)", SITE),
        (f"block_content ({SITE_DIR}/app/templates/video.html:28)", SITE_TEMPLATES),
        ("sqlite3VdbeExec (/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6)", "libsqlite3.so"),
        ("poll (/usr/lib/x86_64-linux-gnu/libc.so.6)", "libc.so"),
        ("_PyEval_EvalFrameDefault (/usr/lib/libpython3.11.so.1.0)", CPYTHON),
        ("main (/usr/bin/python3.11)", CPYTHON),
        ("row (/project/lib/sqlalchemy/engine/_row_cy.c:1263)", "SQLAlchemy"),
        ("Py_XDECREF (/opt/_internal/cpython-3.11.18/include/python3.11/object.h:601)", None),
        ("<module> (<string>:1)", None),
        ("0x7ff03e2d324a", None),
    ],
)
def test_each_frame_has_the_layer_that_owns_its_file(frame: str, layer: str | None) -> None:
    assert fake_map().layer_of(frame) == layer


def test_this_pythons_distributions_are_found_without_importing_them() -> None:
    spec = importlib.util.find_spec("jinja2")
    assert spec is not None and spec.origin is not None
    layers = LayerMap.of_this_python([str(Path(__file__).parent)])
    assert layers.layer_of(f"Environment.render ({spec.origin}:1)") == "Jinja2"
    assert layers.layer_of(f"test ({__file__}:1)") == SITE
    assert layers.layer_of(f"dumps ({json_file()}:1)") == STDLIB


def json_file() -> str:
    import json  # noqa: PLC0415

    return json.__file__


ORM = f"Session.get ({PACKAGES}/sqlalchemy/orm/session.py:1)"
SQLITE = f"execute ({STD}/sqlite3/dbapi2.py:1)"
VIEW = f"view ({SITE_DIR}/app/views.py:1)"
INLINED = "Py_DECREF (/opt/include/object.h:5)"


def test_a_sample_goes_to_its_leafs_layer_and_an_unknown_frame_to_its_callers() -> None:
    layers = stack_layers((VIEW, ORM, INLINED), fake_map().layer_of)
    assert layers == [SITE, "SQLAlchemy", "SQLAlchemy"]
    assert stack_layers((INLINED, VIEW), fake_map().layer_of) == [UNATTRIBUTED, SITE]


def test_shares_add_up_to_the_whole_with_their_intervals_and_cpu() -> None:
    stacks = {(VIEW, ORM): 60, (VIEW, ORM, SQLITE): 25, (VIEW,): 10, (INLINED,): 5}
    breakdown = attribute(stacks, fake_map().layer_of, server_cpu_s_per_request=0.001)
    assert breakdown.samples == 100
    assert [share.layer for share in breakdown.layers] == [
        "SQLAlchemy",
        STDLIB,
        SITE,
        UNATTRIBUTED,
    ]
    orm = breakdown.share_of("SQLAlchemy")
    assert orm is not None
    assert orm.self_share.count == 60
    assert orm.inclusive_share.count == 85
    assert orm.self_share.low < 0.6 < orm.self_share.high
    assert orm.cpu_us_per_request == pytest.approx(600.0)
    assert sum(share.self_share.count for share in breakdown.layers) == 100
    assert sum(share.cpu_us_per_request or 0 for share in breakdown.layers) == pytest.approx(1000)
    # No CPU measured: the shares alone.
    alone = attribute(stacks, fake_map().layer_of, server_cpu_s_per_request=None)
    assert all(share.cpu_us_per_request is None for share in alone.layers)
