"""Intervals of rates, for the arena's tables, the studies and the hints' win chances.

    wilson(7, 10)      # (0.397..., 0.892...): the 95% interval of 7 wins in 10 games
"""
from __future__ import annotations

import math

__all__ = ["wilson"]


def wilson(wins: float, n: int, z: float = 1.96):
    """The 95% Wilson score interval of a rate of wins/n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))
