"""Each profiled rung's layers as a text table (:mod:`layerbench.profile.layer_text`), printed
after the ladder's."""

from layerbench.ladder.ladder_result import LadderResult
from layerbench.profile.layer_text import layer_table


def profile_tables(result: LadderResult) -> list[str]:
    """Each profiled rung's table (``ladder --profile``), in the ladder's order."""
    return [
        "\n".join(layer_table(result.label(rung), rung.profile))
        for rung in result.rungs
        if rung.profile is not None
    ]
