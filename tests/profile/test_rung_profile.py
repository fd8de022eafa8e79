"""A rung's profile: trials added up, its document read back into the same profile, and its
layer table, whose self shares add up to 100 %."""

import re

import pytest

from layerbench.errors import ConfigError
from layerbench.profile.layer_text import layer_table
from layerbench.profile.rung_profile import RungProfile, empty_profile

VIEW = "view (/site/views.py:1)"
ORM = "Session.get (/pkgs/sqlalchemy/orm/session.py:1)"
LAYERS = {VIEW: "site", ORM: "SQLAlchemy"}


def profile() -> RungProfile:
    first = empty_profile("py-spy 0.4.3", 100).with_trial(
        {(VIEW, ORM): 30, (VIEW,): 10}, LAYERS.get, server_cpu_s=0.5, requests=1000
    )
    return first.with_trial({(VIEW, ORM): 30}, LAYERS.get, server_cpu_s=0.5, requests=1000)


def test_trials_add_up() -> None:
    both = profile()
    assert both.stacks == {(VIEW, ORM): 60, (VIEW,): 10}
    assert both.server_cpu_s_per_request == pytest.approx(0.0005)
    # 70 samples at 100 Hz stand for 0.7 s of the 1 s measured.
    assert both.sampled_cpu_fraction == pytest.approx(0.7)
    orm = both.breakdown().share_of("SQLAlchemy")
    assert orm is not None
    assert orm.cpu_us_per_request == pytest.approx(500 * 60 / 70)


def test_the_document_reads_back_into_the_same_profile() -> None:
    document = profile().to_dict()
    assert document["samples"] == 70
    assert document["frame_layers"] == ["site", "SQLAlchemy"]
    assert [layer["layer"] for layer in document["layers"]] == ["SQLAlchemy", "site"]
    again = RungProfile.from_dict(document)
    assert again == profile()
    assert again.to_dict() == document


def test_the_layer_table_adds_up_to_the_whole() -> None:
    lines = layer_table("orm", profile(), colour=False)
    assert lines[0].startswith("orm: 70 samples of the workers holding the GIL (py-spy 0.4.3")
    assert "70 % of the server's measured CPU" in lines[0]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert rows["SQLAlchemy"][1] == "85.7"
    assert rows["total"][1:] == ["100.0", "500.0"]


def test_a_profile_without_samples_says_so() -> None:
    lines = layer_table("string", empty_profile("py-spy 0.4.3", 100), colour=False)
    assert "no samples" in lines[1]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rate_hz": 0}, "x.profile.rate_hz is at least 1"),
        ({"stacks": [[0]]}, "x.profile.stacks[0]"),
        ({"stacks": [[7, 1]]}, "x.profile: stacks[0] names a frame past the 2"),
        ({"frame_layers": ["site"]}, "x.profile: frame_layers has 1 entries, frames 2"),
    ],
)
def test_a_malformed_profile_is_refused_in_one_line(
    change: dict[str, object], message: str
) -> None:
    document = {**profile().to_dict(), **change}
    with pytest.raises(ConfigError, match=re.escape(message)):
        RungProfile.from_dict(document, "x.profile")
