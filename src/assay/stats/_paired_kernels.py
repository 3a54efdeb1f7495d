"""Vectorised p-value kernels of the paired tests: each takes rows of paired differences (one
row per pair of systems) and returns one p-value per row, so that :func:`paired_pvalues` and
the single-pair tests of :mod:`assay.stats.paired` share one implementation."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import _resampling as rs
from ._checks import FloatArray

__all__ = [
    "bootstrap_null_pvalues",
    "sign_pvalues",
    "signflip_pvalues",
    "t_pvalues",
    "wilcoxon_rows",
]


def signflip_pvalues(
    diffs: FloatArray, n_resamples: int, seed: int, alternative: str
) -> tuple[FloatArray, bool]:
    """Sign-flip p-values of the mean of every row of ``diffs`` (m, n), one shared sign matrix.

    The statistic of a resample with flip set F is ``sum(d) - 2 * sum_{i in F} d_i`` (the sum,
    a monotone function of the mean), computed for all rows at once as ``flips @ diffs.T``.
    """
    m, n = diffs.shape
    exact = rs.is_exact(n, n_resamples)
    total = diffs.sum(axis=1)
    tol = rs.tolerance(n, np.abs(diffs).sum(axis=1))
    dt = np.ascontiguousarray(diffs.T)
    counts = np.zeros(m, dtype=np.int64)
    blocks = rs.exact_flip_blocks(n) if exact else rs.flip_blocks(seed, n, n_resamples)
    for bits in blocks:
        flipped = bits.astype(np.float64) @ dt
        counts += rs.exceed(total - 2.0 * flipped, total, tol, alternative)
    if exact:
        return np.asarray(counts / float(1 << n), dtype=np.float64), True
    return np.asarray((counts + 1.0) / (n_resamples + 1.0), dtype=np.float64), False


def bootstrap_null_pvalues(
    diffs: FloatArray, n_resamples: int, seed: int, alternative: str
) -> FloatArray:
    """Paired bootstrap p-values of mean(d) = 0 for every row of ``diffs``, counted block by
    block (nothing of size n_resamples is held)."""
    n = diffs.shape[1]
    observed = diffs.mean(axis=1)
    tol = rs.tolerance(n, np.abs(diffs).max(axis=1))
    counts = np.zeros(diffs.shape[0], dtype=np.int64)
    for means in rs.mean_blocks(diffs, n_resamples, seed)():
        counts += rs.exceed(means - observed, observed, tol, alternative)
    return np.asarray((counts + 1.0) / (n_resamples + 1.0), dtype=np.float64)


def wilcoxon_rows(
    d: FloatArray, zero_method: str, continuity: bool, pvalue_method: str, alternative: str
) -> tuple[FloatArray, FloatArray]:
    """``scipy.stats.wilcoxon`` of every row of ``d`` (m, n), vectorised over rows.

    scipy decides ``method="auto"`` once for the whole array (any zero or tie anywhere turns
    every row to the normal approximation), so rows are grouped by whether they hold a zero
    or a tied |d|: within a group scipy's decision is the one it takes for each row alone."""
    from scipy import stats

    statistic = np.empty(d.shape[0])
    pvalue = np.empty(d.shape[0])
    if pvalue_method == "auto":
        srt = np.sort(np.abs(d), axis=1)
        irregular = (srt[:, 0] == 0) | (np.diff(srt, axis=1) == 0).any(axis=1)
        groups = [np.flatnonzero(irregular), np.flatnonzero(~irregular)]
    else:
        groups = [np.arange(d.shape[0])]
    for rows in groups:
        if rows.shape[0] == 0:
            continue
        with warnings.catch_warnings():  # all-zero rows: 0/0 in scipy's z, p as scipy
            warnings.simplefilter("ignore", RuntimeWarning)
            res = stats.wilcoxon(
                d[rows],
                zero_method=zero_method,
                correction=continuity,
                method=pvalue_method,
                alternative=alternative,
                axis=1,
            )
        statistic[rows] = res.statistic
        pvalue[rows] = res.pvalue
    return statistic, pvalue


def sign_pvalues(wins: NDArray[Any], losses: NDArray[Any], alternative: str) -> FloatArray:
    """Exact binomial p-values, X ~ Bin(wins + losses, 1/2): two-sided min(1, 2 P(X ≤ min)),
    greater P(X ≥ wins), less P(X ≤ wins); 1 when there is no non-tied pair."""
    from scipy.stats import binom

    n = wins + losses
    if alternative == "two-sided":
        p = np.minimum(1.0, 2.0 * binom.cdf(np.minimum(wins, losses), n, 0.5))
    elif alternative == "greater":
        p = binom.sf(wins - 1, n, 0.5)
    else:
        p = binom.cdf(wins, n, 0.5)
    return np.where(n > 0, p, 1.0).astype(np.float64)


def t_pvalues(d: FloatArray, alternative: str) -> FloatArray:
    """Paired t-test p-values of every row (constant rows: ±inf or NaN, as :func:`ttest`)."""
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.ttest_1samp(d, 0.0, axis=1, alternative=alternative)
    return np.asarray(res.pvalue, dtype=np.float64).reshape(d.shape[0])
