"""Sakai's paired bootstrap test (SIGIR 2006, Figs. 1 and 5) written pair by pair and resample
by resample, as in his procedure (and the MATTERS toolkit's transcription of his code)."""

from __future__ import annotations

import math

import numpy as np


def sakai_pair(x: np.ndarray, y: np.ndarray, idx: np.ndarray, alpha: float) -> tuple[float, float]:
    """(ASL, |w̄*| at the ⌈αB⌉-th largest |t*|) of one pair, with the resample indices idx (B, n)."""
    z = x - y
    n = len(z)
    b = idx.shape[0]
    # values within the rounding error of a sum of the differences count as zero
    tol = 8 * n * np.finfo(float).eps * np.abs(z).max()

    def t_of(v: np.ndarray) -> float:
        m, s = v.mean(), v.std(ddof=1)
        m, s = (0.0 if abs(m) <= tol else m), (0.0 if s <= tol else s)
        if s == 0:
            return math.nan if m == 0 else math.inf
        return abs(m) / (s / math.sqrt(n))

    t_obs = t_of(z)
    w = z - z.mean()
    ts, means = [], []
    for row in idx:
        ts.append(t_of(w[row]))
        means.append(w[row].mean())
    if math.isnan(t_obs):
        asl = 1.0
    else:
        asl = sum(1 for t in ts if not math.isnan(t) and t >= t_obs * (1 - 1e-12)) / b
    rank = max(1, math.ceil(alpha * b))
    ordered = sorted((t for t in ts if not math.isnan(t)), reverse=True)
    if len(ordered) < rank:
        return asl, math.nan
    threshold = ordered[rank - 1]
    first = next(k for k, t in enumerate(ts) if t == threshold)
    return asl, abs(means[first])
