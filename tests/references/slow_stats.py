"""Slow, literal implementations of statistics from their published formulas."""

from __future__ import annotations

import numpy as np


def naive_tau_ap(x: np.ndarray, y: np.ndarray) -> float:
    """Yilmaz et al.'s formula, literally: items in y's order, C(i) checked against x."""
    order = np.argsort(-np.asarray(y), kind="stable")
    n = len(order)
    total = 0.0
    for i in range(1, n):
        item = order[i]
        c = sum(1 for j in range(i) if x[order[j]] > x[item])
        total += c / i
    return 2.0 * total / (n - 1) - 1.0
