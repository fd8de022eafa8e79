"""The in-process anchor (layerbench.served.served_columns) is left out for an application that
is not called in-process: a Rails column counted under Passenger has its served cost without an
anchor, rather than ending the run ('cost calls a WSGI application in-process')."""

from layerbench.rungs.definitions import LADDER
from layerbench.served.served_columns import CountedTarget, in_process_anchors


def test_a_rack_application_has_no_anchor() -> None:
    string = next(rung for rung in LADDER if rung.name == "string")
    targets = [
        CountedTarget("passenger", "passenger", None, string, "rails"),
        CountedTarget("puma", "puma", None, string, "rails"),
    ]
    assert in_process_anchors(targets) == {}
