"""A proportion counted from samples, with its Wilson score interval.

A sampling profiler's share of one layer is ``k`` of ``n`` samples. Treated as binomial (each
sample independently in the layer with probability ``p``), the Wilson score interval (Wilson,
"Probable inference, the law of succession, and statistical inference", JASA 22, 1927) holds
``p`` with the asked confidence; unlike the normal approximation ``k/n ± z·sqrt(p(1-p)/n)`` it
stays inside [0, 1] and is not empty at ``k = 0`` or ``k = n``: a layer never seen in 2,000
samples is below 0.2 %, not exactly absent.
"""

import math
from dataclasses import dataclass

# z of a two-sided 95 % interval.
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Proportion:
    count: int
    total: int
    low: float
    high: float

    @property
    def value(self) -> float:
        return self.count / self.total if self.total else 0.0


def wilson(count: int, total: int, z: float = Z_95) -> Proportion:
    """``count`` of ``total`` with its Wilson score interval (0 to 1 when ``total`` is 0)."""
    if not 0 <= count <= total:
        raise ValueError(f"a count of {count} out of {total}")
    if total == 0:
        return Proportion(0, 0, 0.0, 1.0)
    p = count / total
    z2 = z * z
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    low = 0.0 if count == 0 else max(0.0, centre - half)
    high = 1.0 if count == total else min(1.0, centre + half)
    return Proportion(count, total, low, high)
