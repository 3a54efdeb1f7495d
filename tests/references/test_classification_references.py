"""assay.classification against definitions evaluated the slow way."""

from __future__ import annotations

import numpy as np

from assay import classification as C
from support.numeric import close


def brute_iprec(y: np.ndarray, s: np.ndarray, levels: np.ndarray) -> np.ndarray:
    out = []
    pos = y.sum()
    thresholds = np.unique(s)
    prec = np.array([(y[s >= t]).sum() / (s >= t).sum() for t in thresholds])
    rec = np.array([(y[s >= t]).sum() / pos for t in thresholds])
    for lv in levels:
        m = rec >= lv
        out.append(prec[m].max() if m.any() else 0.0)
    return np.array(out)


def test_interpolated_precision_brute_force() -> None:
    # The definition (Manning et al. 2008 §8.4) evaluated threshold by threshold.
    rng = np.random.default_rng(7)
    for _ in range(60):
        n = int(rng.integers(2, 30))
        y = rng.integers(0, 2, n)
        if y.sum() == 0:
            y[0] = 1
        s = rng.integers(0, 6, n).astype(float)
        ip = C.interpolated_precision(y, s)
        close(ip.precision, brute_iprec(y, s, np.arange(11) / 10))
