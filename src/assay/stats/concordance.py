"""Kendall's τ from concordance counts: the pair counts of two rankings (discordant pairs and
pairs tied in either or both), τ-b and τ-c, and :func:`kendall` with its exact or asymptotic
p-value and confidence interval.

:func:`tau_b` is the one τ-b of assay: :func:`kendall` and the ``kendall_tau`` ranking metric
both compute it from their pair counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import Alternative, KendallCI, KendallPValue, KendallVariant
from ..errors import OptionError
from . import _checks as check
from ._coefficients import NAN, bootstrap_interval, dense_codes, fisher_ci, interval_settings
from .result import StatResult

__all__ = ["PairCounts", "count_greater_before", "kendall", "pair_counts", "tau_b"]

#: scipy.stats.kendalltau's rule: exact p-values for tie-free samples up to this size.
_KENDALL_EXACT_MAX_N = 33
#: Fieller, Hartley & Pearson's (1957) variance constant for Fisher's z of Kendall's tau.
_FIELLER_VARIANCE = 0.437

IntArray = NDArray[np.int64]


# --------------------------------------------------------------------------- pair counts


def count_greater_before(v: NDArray[np.integer[Any]]) -> IntArray:
    """For each row of the non-negative integer array ``v`` (rows x n) and each position j,
    the number of positions i < j with v[i] > v[j] (strictly), as an int64 array like ``v``.

    Bottom-up merge sort, vectorised over rows and blocks: at width w, each right block is
    compared with the (already sorted) left block of its pair by one global binary search,
    then each pair is sorted. O(n log² n) per row, log2(n) NumPy passes in all.
    """
    rows, n = v.shape
    counts = np.zeros((rows, n), dtype=np.int64)
    if n < 2 or rows == 0:
        return counts
    k = int(v.max()) + 1
    vals = v.astype(np.int64, copy=True)
    orig = np.broadcast_to(np.arange(n, dtype=np.int64), (rows, n)).copy()
    row = np.arange(rows, dtype=np.int64)[:, None]
    col = np.arange(n, dtype=np.int64)
    width = 1
    while width < n:
        block = col // width
        pair = block // 2
        right = (block % 2) == 1
        n_pairs = int(pair[-1]) + 1
        group = row * n_pairs + pair  # (rows, n): one id per (row, pair)
        key = group * k + vals
        left_keys = key[:, ~right].ravel()  # sorted: groups ascend, each left block sorted
        if right.any():
            right_keys = key[:, right].ravel()
            not_greater = np.searchsorted(left_keys, right_keys, side="right")
            group_end = np.searchsorted(left_keys, (group[:, right].ravel() + 1) * k, side="left")
            counts[np.repeat(row[:, 0], int(right.sum())), orig[:, right].ravel()] += (
                group_end - not_greater
            )
        order = np.argsort(key, axis=1, kind="stable")
        vals = np.take_along_axis(vals, order, axis=1)
        orig = np.take_along_axis(orig, order, axis=1)
        width *= 2
    return counts


def _tie_pairs_sorted(s: IntArray) -> IntArray:
    """Per row of the row-sorted array ``s``: the number of pairs of equal values."""
    n = s.shape[1]
    pos = np.arange(n)
    new_run = np.ones(s.shape, dtype=bool)
    new_run[:, 1:] = s[:, 1:] != s[:, :-1]
    start = np.maximum.accumulate(np.where(new_run, pos, 0), axis=1)
    return np.asarray((pos - start).sum(axis=1), dtype=np.int64)


def _distinct_sorted(s: IntArray) -> IntArray:
    """Per row of the row-sorted array ``s``: the number of distinct values."""
    return np.asarray(1 + (s[:, 1:] != s[:, :-1]).sum(axis=1), dtype=np.int64)


@dataclass(frozen=True)
class PairCounts:
    """Pair counts of each row of two rankings of n items (one value per row): discordant
    pairs, pairs tied in x, in y and in both, and the numbers of distinct x and y values."""

    discordant: IntArray
    tied_x: IntArray
    tied_y: IntArray
    tied_xy: IntArray
    x_classes: IntArray
    y_classes: IntArray

    def score(self, n: int) -> IntArray:
        """S = C - D, concordant minus discordant pairs, from n0 = n(n-1)/2 pairs."""
        n0 = n * (n - 1) // 2
        return n0 - self.tied_x - self.tied_y + self.tied_xy - 2 * self.discordant


def pair_counts(xc: NDArray[np.integer[Any]], yc: NDArray[np.integer[Any]]) -> PairCounts:
    """Pair counts of each row of the non-negative integer code arrays ``xc``, ``yc``
    (rows x n; equal values share a code), in O(n log² n) per row."""
    ky = int(yc.max()) + 1
    key = xc * ky + yc
    order = np.argsort(key, axis=1, kind="stable")
    key_sorted = np.take_along_axis(key, order, axis=1)
    y_by_xy = np.take_along_axis(yc, order, axis=1)
    x_sorted = key_sorted // ky
    y_sorted = np.sort(yc, axis=1)
    # Sorted by (x, y): a discordant pair is a later element with a strictly smaller y
    # (pairs tied in x are in ascending y and never counted).
    return PairCounts(
        discordant=count_greater_before(y_by_xy).sum(axis=1),
        tied_x=_tie_pairs_sorted(x_sorted),
        tied_y=_tie_pairs_sorted(y_sorted),
        tied_xy=_tie_pairs_sorted(key_sorted),
        x_classes=_distinct_sorted(x_sorted),
        y_classes=_distinct_sorted(y_sorted),
    )


# --------------------------------------------------------------------------- tau-b, tau-c


def tau_b(score: ArrayLike, n_pairs: ArrayLike, tied_x: ArrayLike, tied_y: ArrayLike) -> Any:
    """Kendall's τ-b from concordance counts, elementwise (Kendall 1945, "The treatment of
    ties in ranking problems"):

        τ-b = S / sqrt((n0 - n1)(n0 - n2)),

    S = C - D (concordant minus discordant pairs), n0 the number of pairs, n1 and n2 the pairs
    tied in x and in y. NaN where x or y is constant (every pair tied: n1 = n0 or n2 = n0);
    clipped to [-1, 1] against rounding. Counts may be integers or floats.
    """
    s = np.asarray(score, dtype=np.float64)
    n0 = np.asarray(n_pairs, dtype=np.float64)
    n1 = np.asarray(tied_x, dtype=np.float64)
    n2 = np.asarray(tied_y, dtype=np.float64)
    den = np.sqrt((n0 - n1) * (n0 - n2))
    out = np.full(np.broadcast(s, den).shape, np.nan)
    np.divide(s, den, out=out, where=den != 0)
    return np.clip(out, -1.0, 1.0)


def _tau_c(counts: PairCounts, n: int) -> NDArray[np.float64]:
    """Stuart's τ-c = 2S / (n² (m - 1) / m), m the smaller number of distinct values."""
    n0 = n * (n - 1) // 2
    s = counts.score(n).astype(np.float64)
    m = np.minimum(counts.x_classes, counts.y_classes).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = np.clip(2.0 * s / (n * n * (m - 1.0) / m), -1.0, 1.0)
    tau[(counts.tied_x == n0) | (counts.tied_y == n0)] = np.nan
    return tau


def _tau(counts: PairCounts, n: int, variant: str) -> NDArray[np.float64]:
    """τ-b or τ-c of every row of ``counts`` (NaN for a constant row)."""
    if variant == "c":
        return _tau_c(counts, n)
    n0 = n * (n - 1) // 2
    return np.asarray(tau_b(counts.score(n), n0, counts.tied_x, counts.tied_y))


# --------------------------------------------------------------------------- p-values


def _mahonian_prefix(n: int, c: int) -> list[int]:
    """Number of permutations of n items with exactly k inversions, for k = 0..c."""
    if c <= 1:
        return [1, n - 1][: c + 1] if n > 1 else [1] + [0] * c
    counts = [1] + [0] * c
    for j in range(2, n + 1):  # inserting item j adds 0..j-1 inversions
        prefix = [0]
        for v in counts:
            prefix.append(prefix[-1] + v)
        counts = [prefix[k + 1] - prefix[max(0, k - j + 1)] for k in range(c + 1)]
    return counts


def _exact_pvalue(n: int, concordant: int, alternative: str) -> float:
    """Exact p-value of the number of concordant pairs of a tie-free sample under
    independence (all n! orderings equally likely; Kendall 1970, "Rank Correlation Methods",
    ch. 4), as scipy.stats.kendalltau's exact method."""
    total = n * (n - 1) // 2
    low = min(concordant, total - concordant)  # the null distribution is symmetric
    counts = _mahonian_prefix(n, low)
    if n <= 170:
        nf = math.factorial(n)
        tail = Fraction(sum(counts), nf)  # P(C <= low)
        mass = Fraction(counts[low], nf)  # P(C == low)
    else:  # only reached with low <= 1: the tail is below 1e-300
        tail = mass = Fraction(0)
    if alternative == "two-sided":
        return float(min(Fraction(1), 2 * tail))
    toward = (
        concordant >= total - concordant
        if alternative == "greater"
        else concordant <= total - concordant
    )
    return float(tail if toward else 1 - tail + mass)


def _tie_sums(codes: NDArray[np.integer[Any]]) -> tuple[float, float]:
    """Σ t(t-1)(t-2) and Σ t(t-1)(2t+5) over the tie groups (sizes t > 1) of ``codes``."""
    cnt = np.bincount(codes).astype(np.float64)
    cnt = cnt[cnt > 1]
    return (
        float((cnt * (cnt - 1) * (cnt - 2)).sum()),
        float((cnt * (cnt - 1) * (2 * cnt + 5)).sum()),
    )


def _asymptotic_pvalue(
    counts: PairCounts, xc: NDArray[np.integer[Any]], yc: NDArray[np.integer[Any]], alternative: str
) -> float:
    """Normal approximation of S = C - D with its tie-corrected variance (Kendall 1970, ch. 4),
    as scipy.stats.kendalltau's asymptotic method."""
    from scipy import special

    n = xc.size
    xtie, ytie = int(counts.tied_x[0]), int(counts.tied_y[0])
    x0, x1 = _tie_sums(xc)
    y0, y1 = _tie_sums(yc)
    m = n * (n - 1.0)
    var = (
        (m * (2 * n + 5) - x1 - y1) / 18.0 + (2.0 * xtie * ytie) / m + x0 * y0 / (9.0 * m * (n - 2))
    )
    z = int(counts.score(n)[0]) / math.sqrt(var)
    if alternative == "two-sided":
        return float(2.0 * special.ndtr(-abs(z)))
    if alternative == "greater":
        return float(special.ndtr(-z))
    return float(special.ndtr(z))


def _pvalue(
    counts: PairCounts,
    xc: NDArray[np.integer[Any]],
    yc: NDArray[np.integer[Any]],
    alternative: str,
    pvalue_method: str,
    constant: bool,
) -> tuple[float, str]:
    """The p-value and the method that gave it ("auto" resolved as scipy resolves it)."""
    n = xc.size
    n0 = n * (n - 1) // 2
    dis = int(counts.discordant[0])
    ties = int(counts.tied_x[0]) > 0 or int(counts.tied_y[0]) > 0
    if pvalue_method == "exact" and ties:
        raise OptionError(
            "kendall: pvalue_method='exact' needs a sample without ties; use 'auto' or "
            "'asymptotic'",
            option="pvalue_method",
        )
    method = pvalue_method
    if method == "auto":
        exact_ok = not ties and (n <= _KENDALL_EXACT_MAX_N or min(dis, n0 - dis) <= 1)
        method = "exact" if exact_ok else "asymptotic"
    if constant:
        return NAN, method
    if method == "exact":
        return _exact_pvalue(n, n0 - dis, alternative), method
    return _asymptotic_pvalue(counts, xc, yc, alternative), method


# --------------------------------------------------------------------------- kendall


def kendall(
    x: ArrayLike,
    y: ArrayLike,
    *,
    confidence: float | None = 0.95,
    variant: KendallVariant = "b",
    ci_method: KendallCI = "fieller",
    n_resamples: int = 9999,
    seed: int = 0,
    alternative: Alternative = "two-sided",
    pvalue_method: KendallPValue = "auto",
) -> StatResult:
    """Kendall's rank correlation τ (variant "b" or "c"), its p-value and a confidence interval.

    With C concordant and D discordant pairs among the n0 = n(n-1)/2 pairs, n1 pairs tied in
    x and n2 pairs tied in y:

    - τ-b = (C - D) / sqrt((n0 - n1)(n0 - n2)) (Kendall 1945; :func:`tau_b`), equal to τ-a
      without ties;
    - τ-c = 2 (C - D) / (n² (m - 1) / m), m the smaller number of distinct values of x and y
      (Stuart 1953);

    with the pair counts computed in O(n log² n), as :func:`scipy.stats.kendalltau`.

    p-value (``pvalue_method``; depends only on C - D, so is the same for both variants), as
    :func:`scipy.stats.kendalltau`: "exact" enumerates the null distribution of C over all n!
    orderings (tie-free samples only; a sample with ties raises OptionError); "asymptotic" is
    the normal approximation with the tie-corrected variance of C - D (Kendall 1970, "Rank
    Correlation Methods", ch. 4); "auto" (default) is exact for tie-free samples with n ≤ 33,
    or with at most one concordant or one discordant pair, asymptotic otherwise.

    Intervals (``ci_method``):

    - "fieller": Fisher's z = atanh(τ) with the standard error sqrt(0.437 / (n - 4)) of
      Fieller, Hartley & Pearson (1957), recommended by Bonett & Wright (2000); the interval is
      tanh(z ∓ z_{(1+c)/2}·SE). Needs n ≥ 5. Derived for τ of bivariate normal samples
      without ties; with many ties, prefer the bootstrap. Applied as is to τ-c.
      E. C. Fieller, H. O. Hartley and E. S. Pearson (1957), "Tests for rank correlation
      coefficients. I", Biometrika 44(3/4), 470-481; D. G. Bonett and T. A. Wright (2000),
      Psychometrika 65(1), 23-28.
    - "bootstrap": percentile bootstrap over resampled pairs (see :mod:`assay.stats.correlation`),
      reproducible with ``seed``.

    Constant x or y: τ, p and the interval are NaN, without a warning.

    Parameters
    ----------
    x, y : array_like
        Two 1-D sequences of finite numbers of the same length (n ≥ 3 pairs).
    confidence : float or None, default 0.95
        Level of the interval; None for no interval.
    variant : {"b", "c"}, default "b"
        τ-b or τ-c.
    ci_method : {"fieller", "bootstrap"}, default "fieller"
        How the interval is computed.
    n_resamples : int, default 9999
        Resamples of the bootstrap interval.
    seed : int, default 0
        Seed of the bootstrap interval.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": positive association (the interval is then (low, 1)); "less": negative.
    pvalue_method : {"auto", "exact", "asymptotic"}, default "auto"
        How the p-value is computed.

    Returns
    -------
    StatResult
        ``statistic`` τ, ``pvalue``, ``ci`` (None when ``confidence`` is None); ``details``:
        n, method, variant, alternative, pvalue_method (the one used), n_discordant, n_tied_x,
        n_tied_y, n_tied_xy, constant_input and the interval's settings.

    Examples
    --------
    >>> from assay.stats import kendall
    >>> x = [0.31, 0.35, 0.28, 0.40, 0.33, 0.37, 0.25, 0.39]
    >>> y = [0.52, 0.55, 0.50, 0.61, 0.51, 0.58, 0.47, 0.60]
    >>> res = kendall(x, y)
    >>> print(f"tau={res.statistic:.4f} p={res.pvalue:.2g} ci=({res.ci[0]:.3f}, {res.ci[1]:.3f})")
    tau=0.9286 p=0.0004 ci=(0.762, 0.980)
    >>> res.details["pvalue_method"], res.details["n_discordant"]
    ('exact', 1)
    """
    where = "kendall"
    alternative = check.alternative(alternative, where)
    confidence = check.optional_confidence(confidence, where)
    variant = check.option(variant, KendallVariant, "variant", where)
    ci_method = check.option(ci_method, KendallCI, "ci_method", where)
    pvalue_method = check.option(pvalue_method, KendallPValue, "pvalue_method", where)
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    xa, ya = check.pair(x, y)
    n = xa.size
    if ci_method == "fieller":
        check.fisher_n(n, 5, "Fisher-z (Fieller-Hartley-Pearson)", confidence)
    xc, yc = dense_codes(xa), dense_codes(ya)
    counts = pair_counts(xc[None, :], yc[None, :])
    tau = float(_tau(counts, n, variant)[0])
    constant = math.isnan(tau)
    p, method = _pvalue(counts, xc, yc, alternative, pvalue_method, constant)
    details: dict[str, Any] = {
        "n": n,
        "method": f"kendall tau-{variant}",
        "variant": variant,
        "alternative": alternative,
        "pvalue_method": None if constant else method,
        "n_discordant": int(counts.discordant[0]),
        "n_tied_x": int(counts.tied_x[0]),
        "n_tied_y": int(counts.tied_y[0]),
        "n_tied_xy": int(counts.tied_xy[0]),
        "constant_input": constant,
        **interval_settings(confidence, ci_method),
    }
    ci = None
    if confidence is not None:
        ci, extra = _interval(
            tau, xc, yc, variant, ci_method, confidence, alternative, n_resamples, seed
        )
        details.update(extra)
    return StatResult.of(tau, p, ci, f"Kendall tau-{variant}", details)


def _interval(
    tau: float,
    xc: NDArray[np.integer[Any]],
    yc: NDArray[np.integer[Any]],
    variant: str,
    ci_method: str,
    confidence: float,
    alternative: str,
    n_resamples: int,
    seed: int,
) -> tuple[tuple[float, float], dict[str, Any]]:
    """The Fieller-Hartley-Pearson or bootstrap interval of τ, and its details."""
    n = xc.size
    if ci_method == "fieller":
        se = math.sqrt(_FIELLER_VARIANCE / (n - 4))
        return fisher_ci(tau, se, confidence, alternative), {"se": se}
    return bootstrap_interval(
        lambda idx: _tau(pair_counts(xc[idx], yc[idx]), n, variant),
        n,
        n_resamples,
        seed,
        confidence,
        alternative,
        constant=math.isnan(tau),
    )
