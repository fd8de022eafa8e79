"""``smoke --profile-diff FILE``: one difference graph per URL, FILE itself for one URL, beside
it with the URL in the name for several, never two URLs in one file."""

from pathlib import Path

from layerbench.profile.rung_profile import RungProfile, empty_profile
from layerbench.smoke.smoke_profiles import graph_paths, profile_changes

VIEW = "view (/site/views.py:1)"


def profile(samples: int) -> RungProfile:
    return empty_profile("py-spy 0.4.3", 100).with_trial(
        {(VIEW,): samples}, {VIEW: "site"}.get, server_cpu_s=0.3, requests=1000
    )


def test_one_url_is_drawn_in_the_file_named() -> None:
    assert graph_paths(Path("out/diff.svg"), ["/"]) == {"/": Path("out/diff.svg")}


def test_urls_that_would_share_a_name_get_one_file_each() -> None:
    paths = graph_paths(Path("out/diff.svg"), ["/", "/a/b", "/a-b", "/a_b"])
    assert paths == {
        "/": Path("out/diff-root.svg"),
        "/a/b": Path("out/diff-a-b.svg"),
        "/a-b": Path("out/diff-a-b-2.svg"),
        "/a_b": Path("out/diff-a-b-3.svg"),
    }


def test_each_url_profiled_on_both_sides_gets_its_graph(tmp_path: Path) -> None:
    before = {"/": profile(100), "/api/items": profile(100), "/gone": profile(10)}
    now = {"/": profile(100), "/api/items": profile(300), "/new": profile(10)}
    lines = profile_changes(before, now, tmp_path / "diff.svg")
    drawn = sorted(path.name for path in tmp_path.iterdir())
    assert drawn == ["diff-api-items.svg", "diff-root.svg"]
    for name in drawn:
        svg = (tmp_path / name).read_text()
        assert svg.startswith("<?xml") or svg.startswith("<svg")
        assert f"  difference graph: {tmp_path / name}" in lines
    assert "/api/items: now against the baseline" in (tmp_path / "diff-api-items.svg").read_text()
