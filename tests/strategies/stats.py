"""Samples for the statistics: correlated pairs with or without ties."""

from __future__ import annotations

import numpy as np


def correlated_pairs(seed: int, n: int, ties: bool) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) with y = 0.6 x + noise; with ``ties`` both rounded to few distinct values."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = 0.6 * x + rng.normal(size=n)
    if ties:
        x = np.round(x * 2)
        y = np.round(y)
    return x, y
