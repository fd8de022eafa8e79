"""The one rule that reduces a thing's repeated trials to the figures shown.

Its rate (req/s, commits/s, instructions per request) is the median of the trials': the middle
one, of an even number the mean of the middle two (:func:`statistics.median`), the centre its
bootstrap interval is built around (:mod:`layerbench.stats.spread`), so that the figure and the
interval printed beside it agree.

What cannot be averaged across trials (latency percentiles, errors, each process's CPU and
memory, the load generator's whole result) is one trial's: the representative trial, the one
nearest the median rate. Of an odd number it is the middle one; of an even number the middle
two are equally near and the slower is taken (the figures of the trial that did less, not a
trial flattered by luck); of trials with the same rate, the one that ran first.
"""

import statistics
from collections.abc import Sequence

# What the figures are, as a result's JSON document says it.
RATE_RULE = (
    "the median of the trials' rates: the middle one, of an even number the mean of the middle "
    "two (the centre of the spread's interval)"
)
REPRESENTATIVE_RULE = (
    "the index in repeats of the trial whose latency, errors, roles and load are shown (they "
    "cannot be averaged across trials): the one nearest the median rate, of an even number "
    "the slower of the middle two"
)


def median(values: Sequence[float]) -> float:
    """The middle value; of an even number, the mean of the middle two."""
    if not values:
        raise ValueError("no values")
    return float(statistics.median(values))


def representative_index(rates: Sequence[float]) -> int:
    """The index of the trial nearest the median of ``rates``: the middle one, of an even
    number the slower of the middle two, of equal rates the first."""
    if not rates:
        raise ValueError("no values")
    ranked = sorted(range(len(rates)), key=lambda index: rates[index])
    return ranked[(len(ranked) - 1) // 2]
