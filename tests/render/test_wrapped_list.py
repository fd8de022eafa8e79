"""A list in a cell broken to a width (layerbench.render.wrapped_list): between items, an item
and its figure kept together, a sentence longer than the width broken at spaces."""

from layerbench.render.wrapped_list import wrapped_list

CALLS = "newfstatat 12.0, read 5.7 to 6.5 (timing), fcntl 2.0; idle: pselect6 1.1/s, times 1.1/s"


def test_broken_between_items_never_inside_one() -> None:
    assert wrapped_list(CALLS, 40) == [
        "newfstatat 12.0,",
        "read 5.7 to 6.5 (timing), fcntl 2.0;",
        "idle: pselect6 1.1/s, times 1.1/s",
    ]


def test_a_text_that_fits_is_one_line() -> None:
    assert wrapped_list(CALLS, len(CALLS)) == [CALLS]
    assert wrapped_list("", 10) == [""]


def test_an_item_longer_than_the_width_is_broken_at_spaces() -> None:
    sentence = "not counted: not warm: no two of 8 windows within 5% of the least"
    lines = wrapped_list(sentence, 20)
    assert all(len(line) <= 20 for line in lines)
    assert " ".join(lines) == sentence
