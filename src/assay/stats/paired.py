"""Paired significance tests over per-item scores, one pair of systems at a time or many rows
of differences at once (:func:`paired_pvalues`), and the paired effect size.

Inputs are per-item scores (one value per query, topic or sentence) paired by position; see
``assay.stats._resampling`` for how resamples are drawn and compared, and for why the same
seed gives the same bits whatever the number of threads.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._arrays import finite_array
from .._options import Alternative, PairedTest, WilcoxonPValue, WilcoxonZeroMethod
from ..errors import InputError
from . import _checks as check
from . import _paired_kernels as kernels
from . import _resampling as rs
from ._checks import FloatArray
from .result import StatResult
from .shuffling import stratified_shuffling_test

__all__ = [
    "cohens_d_paired",
    "paired_bootstrap_test",
    "paired_pvalues",
    "randomization_test",
    "sign_test",
    "stratified_shuffling_test",
    "ttest",
    "wilcoxon",
]


# ----------------------------------------------------------------------------- kernels


# ----------------------------------------------------------------------------- paired tests


def randomization_test(
    a: ArrayLike,
    b: ArrayLike | None = None,
    statistic: Callable[..., ArrayLike] | None = None,
    *,
    n_resamples: int = 10000,
    seed: int = 0,
    alternative: Alternative = "two-sided",
) -> StatResult:
    """Paired sign-flip (approximate randomization) test on d = a - b (Fisher 1935; Noreen 1989;
    Smucker, Allan & Carterette 2007).

    Under H0 each d_i is symmetric about 0, so every sign vector s ∈ {-1, 1}ⁿ is equally likely.
    With T = statistic(d) (default: mean(d)), p = #{s : T(s·d) ≥ T(d)} / N for "greater",
    ``≤`` for "less", and |T(s·d)| ≥ |T(d)| for "two-sided". If 2ⁿ ≤ ``n_resamples`` all 2ⁿ
    sign vectors are enumerated (identity included) and p = c / 2ⁿ; otherwise ``n_resamples``
    random sign vectors give p = (c + 1) / (N + 1). Resampled values within
    ``8·n·eps·max(|T(d)|, |T(|d|)|)`` of T(d) count as ties.

    Parameters
    ----------
    a : array_like
        Per-item scores of the system (one per query, topic or sentence), or the differences
        d themselves when ``b`` is None.
    b : array_like, optional
        Per-item scores of the baseline, paired with ``a`` by position.
    statistic : callable, optional
        A function of one (sign-flipped) difference vector. If it has an ``axis`` parameter it
        is called once per block as ``statistic(D, axis=-1)`` on a (resamples × n) array and
        must return one value per row; otherwise it is called row by row (a Python loop).
    n_resamples : int, default 10000
        Random sign vectors drawn when 2ⁿ is larger.
    seed : int, default 0
        Seed of the random sign vectors.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": T(d) is larger than chance gives (``a`` better than ``b``).

    Returns
    -------
    StatResult
        ``statistic`` T(d), ``pvalue`` and ``ci`` None; ``details``: n_resamples, seed, exact,
        alternative, n_evaluated.

    Examples
    --------
    >>> from assay.stats import randomization_test
        >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
        >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> res = randomization_test(a, b, seed=0)
    >>> print(f"{res.statistic:.5f} {res.pvalue:.6f}", res.details["exact"])
    0.03875 0.015625 True
    """
    where = "randomization_test"
    d = check.difference(a, b, where, min_n=1)
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    alternative = check.alternative(alternative, where)
    n = d.shape[0]
    exact = rs.is_exact(n, n_resamples)
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "exact": exact,
        "alternative": alternative,
        "n_evaluated": (1 << n) if exact else n_resamples,
    }
    if statistic is None:
        p, _ = kernels.signflip_pvalues(d[None, :], n_resamples, seed, alternative)
        method = "paired randomization test (mean)"
        return StatResult.of(float(np.mean(d)), float(p[0]), None, method, details)
    if not callable(statistic):
        raise InputError(f"{where}: statistic must be callable (got {statistic!r})")
    observed, pvalue = _randomization_pvalue(d, statistic, n_resamples, seed, alternative)
    return StatResult.of(observed, pvalue, None, "paired randomization test", details)


def _randomization_pvalue(
    d: FloatArray,
    statistic: Callable[..., Any],
    n_resamples: int,
    seed: int,
    alternative: str,
) -> tuple[float, float]:
    """The observed user statistic and its sign-flip p-value (exact or Monte Carlo)."""
    where = "randomization_test"
    n = d.shape[0]
    exact = rs.is_exact(n, n_resamples)
    vectorised = rs.accepts_axis(statistic)
    observed = rs.statistic_of(statistic, [d], vectorised, where, axis=-1)
    if not math.isfinite(observed):
        raise InputError(f"{where}: statistic of the observed differences is {observed}")
    scale = rs.statistic_of(statistic, [np.abs(d)], vectorised, where, axis=-1)
    tol = rs.tolerance(n, max(abs(observed), abs(scale) if math.isfinite(scale) else 0.0))
    count = 0
    blocks = rs.exact_flip_blocks(n) if exact else rs.flip_blocks(seed, n, n_resamples)
    for bits in blocks:
        flipped = d * (1.0 - 2.0 * bits)
        values = rs.apply_rows(statistic, [flipped], vectorised, where)
        count += int(rs.exceed(values, observed, tol, alternative))
    pvalue = count / float(1 << n) if exact else (count + 1.0) / (n_resamples + 1.0)
    return observed, pvalue


def ttest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    confidence: float = 0.95,
    alternative: Alternative = "two-sided",
) -> StatResult:
    """Paired t-test (Student 1908) on d = a - b.

    t = mean(d) / (sd(d) / √n), sd with ddof=1, df = n - 1; computed by
    ``scipy.stats.ttest_1samp(d, 0)`` (the same as ``ttest_rel``). ``ci`` is the t-based
    confidence interval of the mean difference, mean(d) ± t_{df} · sd/√n (one-sided bounds for
    one-sided alternatives, as scipy). Constant d gives scipy's answer: t = ±inf (p = 0) if
    d ≠ 0, NaN if d = 0.

    Parameters
    ----------
    a, b : array_like
        Per-item scores of the system and of the baseline, paired by position (n ≥ 2).
    confidence : float, default 0.95
        Level of the interval of the mean difference, in (0, 1).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": mean(d) > 0.

    Returns
    -------
    StatResult
        ``statistic`` t, ``pvalue``, ``ci`` (low, high); ``details``: df, mean_difference,
        confidence, alternative.

    Examples
    --------
    >>> from assay.stats import ttest
        >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
        >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> res = ttest(a, b)
    >>> print(f"t={res.statistic:.3f} p={res.pvalue:.4f} df={res.details['df']}")
    t=3.779 p=0.0069 df=7
    >>> print(f"({res.ci[0]:.4f}, {res.ci[1]:.4f})")
    (0.0145, 0.0630)
    """
    from scipy import stats

    where = "ttest"
    d = check.difference(a, b, where, min_n=2)
    confidence = check.confidence(confidence, where)
    alternative = check.alternative(alternative, where)
    with warnings.catch_warnings():  # constant d: scipy warns, and returns ±inf or NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.ttest_1samp(d, 0.0, alternative=alternative)
        ci = res.confidence_interval(confidence_level=confidence)
    details = {
        "df": int(res.df),
        "mean_difference": float(np.mean(d)),
        "confidence": confidence,
        "alternative": alternative,
    }
    interval = (float(ci.low), float(ci.high))
    return StatResult.of(
        float(res.statistic), float(res.pvalue), interval, "paired t-test", details
    )


def wilcoxon(
    a: ArrayLike,
    b: ArrayLike,
    *,
    zero_method: WilcoxonZeroMethod = "wilcox",
    continuity: bool = False,
    pvalue_method: WilcoxonPValue = "auto",
    alternative: Alternative = "two-sided",
) -> StatResult:
    """Wilcoxon signed-rank test (Wilcoxon 1945) on d = a - b.

    W = Σ_{d_i > 0} rank(|d_i|) for one-sided alternatives, min(W⁺, W⁻) for two-sided;
    computed by ``scipy.stats.wilcoxon`` (statistic and p-value are scipy's).

    Parameters
    ----------
    a, b : array_like
        Per-item scores of the system and of the baseline, paired by position.
    zero_method : {"wilcox", "pratt", "zsplit"}, default "wilcox"
        "wilcox" drops zero differences, "pratt" ranks then drops them, "zsplit" splits their
        ranks.
    continuity : bool, default False
        Apply the continuity correction to the normal approximation (scipy's ``correction``).
    pvalue_method : {"auto", "exact", "asymptotic"}, default "auto"
        scipy's ``method``.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the differences tend to be positive.

    Returns
    -------
    StatResult
        ``statistic`` W, ``pvalue``, ``ci`` None; ``details``: n, zero_method, continuity,
        pvalue_method, alternative.

    Examples
    --------
    >>> from assay.stats import wilcoxon
        >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
        >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> res = wilcoxon(a, b)
    >>> print(res.statistic, res.pvalue)
    1.0 0.015625
    """
    where = "wilcoxon"
    d = check.difference(a, b, where, min_n=1)
    zero_method = check.option(zero_method, WilcoxonZeroMethod, "zero_method", where)
    continuity = check.flag(continuity, "continuity", where)
    pvalue_method = check.option(pvalue_method, WilcoxonPValue, "pvalue_method", where)
    alternative = check.alternative(alternative, where)
    stat, p = kernels.wilcoxon_rows(d[None, :], zero_method, continuity, pvalue_method, alternative)
    details = {
        "n": int(d.shape[0]),
        "zero_method": zero_method,
        "continuity": continuity,
        "pvalue_method": pvalue_method,
        "alternative": alternative,
    }
    return StatResult.of(float(stat[0]), float(p[0]), None, "Wilcoxon signed-rank test", details)


def sign_test(a: ArrayLike, b: ArrayLike, *, alternative: Alternative = "two-sided") -> StatResult:
    """Sign test (Dixon & Mood 1946): wins against losses, ties dropped.

    Wins W = #{a_i > b_i} against losses L = #{a_i < b_i} (ties a_i = b_i dropped); exact
    binomial test of W ~ Bin(W + L, 1/2). Two-sided p = min(1, 2 · P(X ≤ min(W, L))) (equal to
    ``scipy.stats.binomtest``'s, the distribution being symmetric). With no non-tied pair
    there is no evidence either way: p = 1.

    Parameters
    ----------
    a, b : array_like
        Per-item scores of the system and of the baseline, paired by position.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": more wins than losses.

    Returns
    -------
    StatResult
        ``statistic`` W, ``pvalue``, ``ci`` None; ``details``: wins, ties, losses, alternative.

    Examples
    --------
    >>> from assay.stats import sign_test
        >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
        >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> res = sign_test(a, b)
    >>> print(res.statistic, res.pvalue, res.details["losses"])
    7.0 0.0703125 1
    """
    where = "sign_test"
    d = check.difference(a, b, where, min_n=1)
    alternative = check.alternative(alternative, where)
    wins, losses = int(np.count_nonzero(d > 0)), int(np.count_nonzero(d < 0))
    p = kernels.sign_pvalues(np.array([wins]), np.array([losses]), alternative)
    details = {
        "wins": wins,
        "ties": int(d.shape[0]) - wins - losses,
        "losses": losses,
        "alternative": alternative,
    }
    return StatResult.of(float(wins), float(p[0]), None, "sign test", details)


def paired_bootstrap_test(
    a: ArrayLike,
    b: ArrayLike,
    statistic: Callable[..., ArrayLike] | None = None,
    *,
    n_resamples: int = 10000,
    seed: int = 0,
    alternative: Alternative = "two-sided",
    confidence: float = 0.95,
) -> StatResult:
    """Paired bootstrap test of mean(d) = 0, d = a - b (Efron & Tibshirani 1993, §16.4; Sakai
    2006).

    Resample the items with replacement B times; with d̄* the resampled mean, the null
    distribution is d̄* - d̄ (the differences shifted to mean 0) and
    p = (#{|d̄* - d̄| ≥ |d̄|} + 1) / (B + 1) (one-sided: ≥ d̄ or ≤ d̄). ``ci`` is the
    percentile interval (q(α/2), q(1-α/2)) of d̄*.

    With ``statistic``, the test is of a corpus-level statistic S that is not a mean of
    per-item values (F1 from per-sentence counts, ...; Koehn 2004, Berg-Kirkpatrick et al.
    2012): θ = S(a) - S(b), every resample draws the same items for both systems (the index
    stream of the mean version, same seed), θ* - θ is the null distribution,
    p = (#{|θ* - θ| ≥ |θ|} + 1) / (B + 1) and ``ci`` is the percentile interval of θ*.

    Parameters
    ----------
    a, b : array_like
        Per-item scores of the system and of the baseline, paired by position (n ≥ 2); with
        ``statistic``, the two systems' per-item records (numeric arrays of one shape, items
        along the first axis).
    statistic : callable, optional
        The corpus-level statistic S, called as in :func:`stratified_shuffling_test`: with
        ``axis=1`` on a block of resamples (resamples × n × ...) if it takes an ``axis``, else
        on one resample (n × ...) at a time.
    n_resamples : int, default 10000
        Bootstrap resamples B.
    seed : int, default 0
        Seed of the resample indices.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the statistic of ``a`` is larger.
    confidence : float, default 0.95
        Level of the percentile interval, in (0, 1).

    Returns
    -------
    StatResult
        ``statistic`` d̄ (or θ), ``pvalue``, ``ci`` (low, high); ``details``: n_resamples,
        seed, alternative, confidence (and statistic_a, statistic_b with ``statistic``).

    Examples
    --------
    >>> from assay.stats import paired_bootstrap_test
        >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
        >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> res = paired_bootstrap_test(a, b, n_resamples=2000, seed=0)
    >>> print(f"{res.statistic:.5f} p={res.pvalue:.4f} ci=({res.ci[0]:.4f}, {res.ci[1]:.4f})")
    0.03875 p=0.0005 ci=(0.0200, 0.0575)
    """
    where = "paired_bootstrap_test"
    if statistic is not None:
        return _statistic_bootstrap(a, b, statistic, n_resamples, seed, alternative, confidence)
    d = check.difference(a, b, where, min_n=2)
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    alternative = check.alternative(alternative, where)
    confidence = check.confidence(confidence, where)
    rows = d[None, :]
    observed = rows.mean(axis=1)
    tol = rs.tolerance(d.shape[0], np.abs(rows).max(axis=1))
    counts = np.zeros(1, dtype=np.int64)

    def count(means: FloatArray) -> None:
        counts[:] += rs.exceed(means - observed, observed, tol, alternative)

    means = rs.Resampled(rs.mean_blocks(rows, n_resamples, seed), n_resamples, 1)
    theta = d.mean(keepdims=True)
    low, high = means.interval(theta, "percentile", confidence, None, 0.0, count)
    p = np.asarray((counts + 1.0) / (n_resamples + 1.0), dtype=np.float64)
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "alternative": alternative,
        "confidence": confidence,
    }
    ci = (float(low[0]), float(high[0]))
    return StatResult.of(float(theta[0]), float(p[0]), ci, "paired bootstrap test (mean)", details)


def _records(a: ArrayLike, b: ArrayLike, where: str) -> tuple[FloatArray, FloatArray]:
    """Both systems' per-item records: finite arrays of one shape, at least 2 items."""
    ndim = np.ndim(a)
    if ndim not in (1, 2):
        raise InputError(
            f"{where}: with a statistic, a and b hold one record per item: 1-D or 2-D arrays "
            f"with the items first (got {ndim} dimensions)"
        )
    xa = finite_array(a, "a", ndim=ndim, where=where)
    xb = finite_array(b, "b", ndim=ndim, where=where)
    if xa.shape != xb.shape:
        raise InputError(
            f"{where}: a and b must have the same shape (got {xa.shape} and {xb.shape})"
        )
    if xa.shape[0] < 2:
        raise InputError(f"{where}: needs at least 2 items (got {xa.shape[0]})")
    return xa, xb


def _statistic_bootstrap(
    a: ArrayLike,
    b: ArrayLike,
    statistic: Callable[..., Any],
    n_resamples: int,
    seed: int,
    alternative: Alternative,
    confidence: float,
) -> StatResult:
    """The paired bootstrap test of S(a) - S(b) for a corpus-level statistic S."""
    where = "paired_bootstrap_test"
    if not callable(statistic):
        raise InputError(f"{where}: statistic must be callable (got {statistic!r})")
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    alternative = check.alternative(alternative, where)
    confidence = check.confidence(confidence, where)
    xa, xb = _records(a, b, where)
    vectorised = rs.accepts_axis(statistic)
    stat_a = rs.statistic_of(statistic, [xa], vectorised, where, axis=0)
    stat_b = rs.statistic_of(statistic, [xb], vectorised, where, axis=0)
    theta = stat_a - stat_b
    if not math.isfinite(theta):
        raise InputError(f"{where}: statistic of the records is not finite ({stat_a}, {stat_b})")
    dist = np.concatenate(
        [
            rs.apply_rows(statistic, [xa[idx]], vectorised, where, axis=1)
            - rs.apply_rows(statistic, [xb[idx]], vectorised, where, axis=1)
            for idx in rs.index_blocks(seed, xa.shape[0], n_resamples)
        ]
    )
    tol = rs.tolerance(xa.shape[0], max(abs(theta), abs(stat_a), abs(stat_b)))
    count = int(rs.exceed(dist - theta, theta, tol, alternative))
    low, high = rs.interval(dist[:, None], np.array([theta]), "percentile", confidence, None, 0.0)
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "alternative": alternative,
        "confidence": confidence,
        "statistic_a": stat_a,
        "statistic_b": stat_b,
    }
    p = (count + 1.0) / (n_resamples + 1.0)
    ci = (float(low[0]), float(high[0]))
    return StatResult.of(theta, p, ci, "paired bootstrap test", details)


def paired_pvalues(
    diffs: ArrayLike,
    *,
    test: PairedTest = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    alternative: Alternative = "two-sided",
) -> FloatArray:
    """p-values of m paired comparisons at once, one row of per-item differences each.

    Each row's p-value is the one the single-pair function gives with the same ``seed``: the
    randomization and bootstrap tests share one sign (resample) matrix across the rows (common
    random numbers), and compute the resampled statistics of all rows as one matrix product
    per block.

    Parameters
    ----------
    diffs : array_like
        (m, n) array: one row of per-item differences a - b per comparison, all over the same
        n items.
    test : {"randomization", "t", "wilcoxon", "sign", "bootstrap"}, default "randomization"
        :func:`randomization_test` (sign flips of the mean), :func:`ttest`, :func:`wilcoxon`
        (with its defaults), :func:`sign_test` or :func:`paired_bootstrap_test`.
    n_resamples : int, default 10000
        Resamples of the randomization and bootstrap tests.
    seed : int, default 0
        Seed of the resamples.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": the differences tend to be positive.

    Returns
    -------
    numpy.ndarray
        The m p-values (float64), in row order.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.stats import paired_pvalues
        >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
        >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> c = [0.41, 0.50, 0.36, 0.61, 0.44, 0.52, 0.35, 0.46]
    >>> diffs = np.subtract([a, a], [b, c])
    >>> print(paired_pvalues(diffs, seed=0).tolist())
    [0.015625, 0.1484375]
    """
    where = "paired_pvalues"
    test = check.option(test, PairedTest, "test", where)
    d = check.matrix(diffs, "diffs", where, min_n=2 if test in ("t", "bootstrap") else 1)
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    alternative = check.alternative(alternative, where)
    if d.shape[0] == 0:
        return np.zeros(0, dtype=np.float64)
    if test == "randomization":
        return kernels.signflip_pvalues(d, n_resamples, seed, alternative)[0]
    if test == "bootstrap":
        return kernels.bootstrap_null_pvalues(d, n_resamples, seed, alternative)
    if test == "t":
        return kernels.t_pvalues(d, alternative)
    if test == "wilcoxon":
        return kernels.wilcoxon_rows(d, "wilcox", False, "auto", alternative)[1]
    wins, losses = np.count_nonzero(d > 0, axis=1), np.count_nonzero(d < 0, axis=1)
    return kernels.sign_pvalues(wins, losses, alternative)


# ----------------------------------------------------------------------------- effect size


def cohens_d_paired(a: ArrayLike, b: ArrayLike) -> float | NDArray[np.float64]:
    """Paired effect size d_z = mean(d) / sd(d), d = a - b, sd with ddof=1 (Cohen 1988; Lakens
    2013, "Calculating and reporting effect sizes", eq. 6).

    NaN when every d_i is equal (sd = 0, checked exactly rather than against a rounded sd):
    identical systems, or a constant shift, have no finite standardised effect.

    Parameters
    ----------
    a, b : array_like
        Per-item scores of the system and of the baseline, paired by position (n ≥ 2): 1-D,
        or (m, n) for m comparisons at once.

    Returns
    -------
    float or numpy.ndarray
        d_z: a float for 1-D inputs, one value per row for (m, n) inputs.

    Examples
    --------
    >>> from assay.stats import cohens_d_paired
        >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
        >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> print(f"{cohens_d_paired(a, b):.3f}")
    1.336
    >>> print(cohens_d_paired([0.5, 0.6, 0.7], [0.4, 0.5, 0.6]))
    nan
    """
    where = "cohens_d_paired"
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.ndim == 2 or y.ndim == 2:
        xm, ym = check.matrix(x, "a", where, min_n=2), check.matrix(y, "b", where, min_n=2)
        if xm.shape != ym.shape:
            raise InputError(
                f"{where}: a and b must have the same shape (got {xm.shape} and {ym.shape})"
            )
        d = xm - ym
        constant = np.ptp(d, axis=1) == 0
        with np.errstate(invalid="ignore", divide="ignore"):
            out = d.mean(axis=1) / d.std(axis=1, ddof=1)
        return np.where(constant, np.nan, out)
    d = check.difference(x, y, where, min_n=2)
    if np.ptp(d) == 0:
        return math.nan
    return float(d.mean() / d.std(ddof=1))
