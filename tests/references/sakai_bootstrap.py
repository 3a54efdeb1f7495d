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
    sd = z.std(ddof=1)
    if sd == 0:
        t_obs = math.nan if z.mean() == 0 else math.inf
    else:
        t_obs = abs(z.mean()) / (sd / math.sqrt(n))
    w = z - z.mean()
    ts, means = [], []
    for row in idx:
        wb = w[row]
        m = wb.mean()
        s = wb.std(ddof=1)
        if s == 0:
            t = math.nan if m == 0 else math.inf
        else:
            t = abs(m) / (s / math.sqrt(n))
        ts.append(t)
        means.append(m)
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
