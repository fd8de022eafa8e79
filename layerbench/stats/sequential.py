"""Looking again and again at a run that grows (``--until-decided``): each look at the
interval is another chance for noise to look like a difference, so the looks share the error
rate instead of each spending all of it.

Look k (1, 2, ...) uses the interval at confidence 1 - ALPHA/(k(k+1)): the error rate spent
over any number of looks is at most ALPHA times the sum of 1/(k(k+1)), which is 1 (a union
bound, as in alpha spending, Lan & DeMets 1983, with a spending sequence that never runs
out). The first look is at 97.5 %, the second at 99.2 %, the tenth at 99.95 %: a verdict
reached late needs a clearer difference.
"""

ALPHA = 0.05


def look_confidence(look: int, alpha: float = ALPHA) -> float:
    """The confidence of the interval at look ``look`` (from 1)."""
    if look < 1:
        raise ValueError(f"looks count from 1, not {look}")
    return 1 - alpha / (look * (look + 1))
