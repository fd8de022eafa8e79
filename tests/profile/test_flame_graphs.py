"""Flame graphs and difference graphs: self-contained SVG whose boxes are as wide as their
samples, labelled where the name fits, each with a title for hover."""

import xml.etree.ElementTree as ET

from layerbench.profile.flame_svg import (
    MIN_WIDTH_PX,
    WIDTH_PX,
    difference_graph_svg,
    flame_graph_svg,
)

NS = {"svg": "http://www.w3.org/2000/svg"}
RUN = "run (server.py:1)"
HANDLE = "handle (app.py:10)"
QUERY = "query (orm.py:5)"
RENDER = "render_a_template_with_a_long_name (templates.py:7)"


def boxes(svg: str) -> dict[str, tuple[float, str, str]]:
    """Each box's first title line -> (width, fill, label)."""
    root = ET.fromstring(svg)
    found = {}
    for group in root.findall("svg:g", NS):
        title = group.find("svg:title", NS)
        rect = group.find("svg:rect", NS)
        assert title is not None and title.text and rect is not None
        label = group.find("svg:text", NS)
        found[title.text.split("\n")[0]] = (
            float(rect.get("width", "0")),
            rect.get("fill", ""),
            label.text or "" if label is not None else "",
        )
    return found


STACKS = {(RUN, HANDLE, QUERY): 60, (RUN, HANDLE, RENDER): 30, (RUN,): 10}


def test_boxes_are_as_wide_as_their_samples_and_titled() -> None:
    svg = flame_graph_svg(STACKS, title="orm", layer_of=lambda f: "orm" if "orm" in f else None)
    drawn = boxes(svg)
    assert set(drawn) == {"all", RUN, HANDLE, QUERY, RENDER}
    assert drawn["all"][0] == WIDTH_PX
    assert drawn[QUERY][0] == WIDTH_PX * 0.6
    assert drawn[RENDER][0] == WIDTH_PX * 0.3
    assert drawn[QUERY][2] == "query"
    title = ET.fromstring(svg).find("svg:g/svg:title", NS)
    assert title is not None
    # The title gives samples, share and layer.
    assert "60 samples, 60.0 %, orm" in svg
    # Only the layer seen has a colour in the legend; the others are the unknown grey.
    assert drawn[QUERY][1] != drawn[HANDLE][1]


def test_a_label_is_cut_to_fit_or_left_out() -> None:
    stacks = {(RENDER,): 200, ("tiny (x.py:1)",): 5, ("other (y.py:1)",): 4000}
    drawn = boxes(flame_graph_svg(stacks, title="t"))
    width, _, label = drawn[RENDER]
    assert label.endswith("..")
    assert len(label) * 6.6 <= width
    assert drawn["tiny (x.py:1)"][2] == ""


def test_boxes_too_narrow_to_see_are_not_drawn() -> None:
    stacks = {(RUN,): 100_000, ("unseen (x.py:1)", "below (x.py:2)"): 1}
    drawn = boxes(flame_graph_svg(stacks, title="t"))
    assert WIDTH_PX / 100_001 < MIN_WIDTH_PX
    assert "unseen (x.py:1)" not in drawn
    assert "below (x.py:2)" not in drawn


def test_layers_keep_their_colours_across_graphs() -> None:
    def layer(frame: str) -> str:
        return frame.split(" ", maxsplit=1)[0]

    order = ["run", "handle", "query"]
    one = boxes(flame_graph_svg(STACKS, title="a", layer_of=layer, layer_order=order))
    two = boxes(flame_graph_svg({(RUN, QUERY): 1}, title="b", layer_of=layer, layer_order=order))
    assert one[QUERY][1] == two[QUERY][1]


def test_the_difference_graph_is_red_where_the_new_profile_spends_more() -> None:
    base = {(RUN, HANDLE): 90, (RUN,): 10}
    new = {(RUN, HANDLE, QUERY): 60, (RUN, HANDLE): 20, (RUN,): 20}
    drawn = boxes(
        difference_graph_svg(base, new, title="orm - db-raw", base_name="db-raw", new_name="orm")
    )
    # The new profile's shape.
    assert drawn[QUERY][0] == WIDTH_PX * 0.6
    assert drawn[QUERY][1] == "rgb(255,80,80)"  # the largest growth: the deepest red
    # handle: 80 % of the new samples against 90 % of the old: a drop, blue.
    assert drawn[HANDLE][1].startswith("rgb(") and drawn[HANDLE][1].endswith(",255)")
    # The run root: 100 % in both, no change: white.
    assert drawn[RUN][1] == "rgb(255,255,255)"
