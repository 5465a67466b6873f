"""Intervals of rates, for the arena's tables, the studies and the hints' win chances.

    wilson(7, 10)      # (0.397..., 0.892...): the 95% interval of 7 wins in 10 games
    t95(15)            # 2.131: mean +- t95(k - 1) standard errors, from k batch means
"""
from __future__ import annotations

import math

__all__ = ["wilson", "t95"]


def wilson(wins: float, n: int, z: float = 1.96):
    """The 95% Wilson score interval of a rate of wins/n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


# Student's t, two-sided 95% (its 0.975 quantile), by degrees of freedom; between two
# entries the larger (the lower degrees'): an interval never narrower than it should be.
_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
        18: 2.101, 19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def t95(dof: int) -> float:
    """The multiple of a standard error that makes a 95% interval of a mean estimated from
    dof + 1 batch means (Student's t; a normal 1.96 beyond 120 degrees)."""
    if dof < 1:
        raise ValueError(f"degrees of freedom: {dof} is not 1 or more")
    below = [d for d in _T95 if d <= dof]
    return _T95[max(below)] if dof <= 120 else 1.96
