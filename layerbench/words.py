"""Words for the user: a count with its noun in the right number; the nearest of the choices
to a mistyped one."""

import difflib
from collections.abc import Iterable


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 rung``, ``3 rungs``, ``1 pass``, ``2 passes`` (``plural`` when adding s is wrong)."""
    word = noun if number == 1 else plural or f"{noun}s"
    return f"{number:,} {word}"


def nearest(given: str, choices: Iterable[str]) -> str | None:
    """The choice nearest a mistyped ``given`` (``gunicorn`` for ``gunicorm``): one it begins
    (``mod_wsgi-daemon`` for ``mod-wsgi``), else the closest by difflib's ratio, ``-`` and ``_``
    alike; None when none is near it."""
    known = {_plain(choice): choice for choice in dict.fromkeys(choices)}
    plain = _plain(given)
    if not plain:
        return None
    starting = [choice for key, choice in known.items() if key.startswith(plain)]
    if starting:
        return starting[0]
    close = difflib.get_close_matches(plain, list(known), n=1, cutoff=0.6)
    return known[close[0]] if close else None


def _plain(name: str) -> str:
    return name.lower().replace("-", "_")


def did_you_mean(
    head: str, given: str, choices: Iterable[str], otherwise: str | None = None
) -> str:
    """A mistyped choice's one line: ``HEAD; did you mean NEAREST?`` when a choice is near
    ``given``, else ``HEAD; OTHERWISE`` (by default ``one of: a, b, c``; "": ``HEAD``)."""
    known = list(dict.fromkeys(choices))
    near = nearest(given, known)
    if near is not None:
        return f"{head}; did you mean {near}?"
    if otherwise is None:
        otherwise = "one of: " + ", ".join(known)
    return f"{head}; {otherwise}" if otherwise else head
