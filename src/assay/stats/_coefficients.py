"""Shared maths of the correlation coefficients: Pearson's r, the t approximation of a
coefficient's p-value, Fisher-z and percentile-bootstrap intervals, resampling indices."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any, cast

import numpy as np

NAN = float("nan")

#: Largest number of resampled values (resamples x n) held in memory at once.
_CHUNK_ELEMENTS = 1 << 21


def is_constant(a: np.ndarray) -> bool:
    return bool(np.all(a == a[0]))


def pearson_r(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r, computed as scipy.stats.pearsonr does (scaled to avoid overflow)."""
    xm = x - x.mean()
    ym = y - y.mean()
    xmax = np.abs(xm).max()
    ymax = np.abs(ym).max()
    if xmax == 0 or ymax == 0:
        return NAN
    normx = xmax * np.linalg.norm(xm / xmax)
    normy = ymax * np.linalg.norm(ym / ymax)
    r = float(np.dot(xm / normx, ym / normy))
    return min(1.0, max(-1.0, r))


def rowwise_r(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson's r of each row of ``a`` with the same row of ``b``; NaN for constant rows."""
    am = a - a.mean(axis=1, keepdims=True)
    bm = b - b.mean(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (am * bm).sum(axis=1) / np.sqrt((am * am).sum(axis=1) * (bm * bm).sum(axis=1))
    degenerate = np.all(a == a[:, :1], axis=1) | np.all(b == b[:, :1], axis=1)
    r[degenerate] = np.nan
    return cast(np.ndarray, np.clip(r, -1.0, 1.0))


def t_pvalue(r: float, n: int, alternative: str) -> float:
    """p-value of a correlation coefficient r from n pairs against 0 by the t approximation.

    t = r sqrt((n - 2) / (1 - r²)) has Student's t distribution with n - 2 degrees of freedom
    under independence of normal variables; equivalently P(|R| ≥ |r|) = I_{1-r²}((n-2)/2, 1/2)
    (the regularized incomplete beta function), which is what is evaluated here (no
    division by zero at r = ±1). scipy.stats.pearsonr (exact for normal data) and
    scipy.stats.spearmanr (an approximation for ranks) use this same distribution.
    """
    from scipy import special

    if math.isnan(r):
        return NAN
    two_tail = float(special.betainc((n - 2) / 2.0, 0.5, (1.0 - r) * (1.0 + r)))
    if alternative == "two-sided":
        return two_tail
    # P(R >= r) for "greater", P(R <= r) for "less"; the null distribution is symmetric.
    toward = r >= 0 if alternative == "greater" else r <= 0
    return two_tail / 2.0 if toward else 1.0 - two_tail / 2.0


def fisher_ci(r: float, se: float, confidence: float, alternative: str) -> tuple[float, float]:
    """tanh(atanh(r) ± z·se), two-sided or one-sided (as scipy's Pearson interval)."""
    from scipy import special

    if math.isnan(r):
        return (NAN, NAN)
    with np.errstate(divide="ignore"):
        z = float(np.arctanh(r))  # ±inf at r = ±1: the interval collapses to (r, r)
    if alternative == "two-sided":
        h = float(special.ndtri(0.5 + confidence / 2.0))
        return (math.tanh(z - h * se), math.tanh(z + h * se))
    h = float(special.ndtri(confidence))
    if alternative == "less":
        return (-1.0, math.tanh(z + h * se))
    return (math.tanh(z - h * se), 1.0)


def percentile_ci(
    values: np.ndarray, confidence: float, alternative: str
) -> tuple[tuple[float, float], int]:
    """Percentile interval of the finite resampled values, and the number left out."""
    ok = values[~np.isnan(values)]
    n_degenerate = int(values.size - ok.size)
    if ok.size == 0:
        return (NAN, NAN), n_degenerate
    if alternative == "two-sided":
        lo, hi = np.quantile(ok, [(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0])
        return (float(lo), float(hi)), n_degenerate
    if alternative == "less":
        return (-1.0, float(np.quantile(ok, confidence))), n_degenerate
    return (float(np.quantile(ok, 1.0 - confidence)), 1.0), n_degenerate


def bootstrap_indices(n: int, n_resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Chunks of resampling indices, together ``rng.integers(0, n, (n_resamples, n))``."""
    rng = np.random.default_rng(seed)
    rows = max(1, _CHUNK_ELEMENTS // n)
    done = 0
    while done < n_resamples:
        size = min(rows, n_resamples - done)
        yield rng.integers(0, n, size=(size, n))
        done += size


def dense_codes(a: np.ndarray) -> np.ndarray:
    """0-based dense ranks (equal values share a code; larger values get larger codes)."""
    return np.unique(a, return_inverse=True)[1].reshape(-1).astype(np.int64)


def interval_settings(confidence: float | None, ci_method: str) -> dict[str, Any]:
    """The interval's entries of a correlation's details: the confidence level and the
    interval method (None without an interval)."""
    return {"confidence": confidence, "ci_method": None if confidence is None else ci_method}


def bootstrap_interval(
    coefficients: Callable[[np.ndarray], np.ndarray],
    n: int,
    n_resamples: int,
    seed: int,
    confidence: float,
    alternative: str,
    constant: bool,
) -> tuple[tuple[float, float], dict[str, Any]]:
    """Percentile bootstrap interval of a coefficient over resampled pairs, and its details.

    ``coefficients(idx)`` gives the coefficient of every row of resampling indices ``idx``
    (resamples x n), NaN where undefined; those resamples are left out and counted. A constant
    input has no interval: (NaN, NaN), every resample degenerate."""
    if constant:
        return (NAN, NAN), {"n_resamples": n_resamples, "seed": seed, "n_degenerate": n_resamples}
    boot = np.concatenate([coefficients(idx) for idx in bootstrap_indices(n, n_resamples, seed)])
    ci, n_degenerate = percentile_ci(boot, confidence, alternative)
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "n_degenerate": n_degenerate,
        "ci_kind": "percentile",
    }
    return ci, details
