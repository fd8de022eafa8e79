"""Words for the user: a count with its noun in the right number."""


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 rung``, ``3 rungs``, ``1 pass``, ``2 passes`` (``plural`` when adding s is wrong)."""
    word = noun if number == 1 else plural or f"{noun}s"
    return f"{number:,} {word}"
