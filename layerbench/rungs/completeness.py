"""An application answers the rungs by name: its handlers are a mapping from rung name to
handler (whatever a handler is in that application), checked against the definitions. A rung
without a handler, or a handler without a rung, is an error."""

from collections.abc import Iterable

from layerbench.rungs.definitions import APPLICATION_RUNGS


class IncompleteApplicationError(Exception):
    pass


def check_answers_every_rung(application: str, answered: Iterable[str]) -> None:
    """Raise :class:`IncompleteApplicationError` unless ``answered`` names every rung an
    application answers, and no other."""
    names = set(answered)
    missing = [rung.name for rung in APPLICATION_RUNGS if rung.name not in names]
    unknown = sorted(names - {rung.name for rung in APPLICATION_RUNGS})
    problems = [
        *([f"no handler for {', '.join(missing)}"] if missing else []),
        *([f"handlers for no rung: {', '.join(unknown)}"] if unknown else []),
    ]
    if problems:
        raise IncompleteApplicationError(f"{application}: {'; '.join(problems)}")
