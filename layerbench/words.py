"""Words for the user: a count with its noun in the right number; the nearest of the choices
to a mistyped one."""

import difflib
from collections.abc import Iterable


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 rung``, ``3 rungs``, ``1 pass``, ``2 passes`` (``plural`` when adding s is wrong)."""
    word = noun if number == 1 else plural or f"{noun}s"
    return f"{number:,} {word}"


def nearest_hint(given: str, choices: Iterable[str]) -> str:
    """``did you mean gunicorn?`` for ``gunicorm`` among the choices, or, with none near it,
    ``one of: a, b, c``: what a mistyped choice's one-line message ends with."""
    known = list(dict.fromkeys(choices))
    close = difflib.get_close_matches(given, known, n=1, cutoff=0.6)
    if not close:
        # A choice the given one starts (gunicorn- for gunicorn-gthread) or that starts it.
        close = [name for name in known if name.startswith(given) or given.startswith(name)][:1]
    if close:
        return f"did you mean {close[0]}?"
    return f"one of: {', '.join(known)}"


def did_you_mean(what: str, given: str, choices: Iterable[str]) -> str:
    """``unknown server 'gunicorm'; did you mean gunicorn?``: one line."""
    return f"{what} {given!r}; {nearest_hint(given, choices)}"
