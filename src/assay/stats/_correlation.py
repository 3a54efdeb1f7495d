"""Correlation coefficients with p-values and confidence intervals: Pearson's r, Spearman's ρ,
Kendall's τ (b and c), the AP correlation τ_AP, and the correlation of the system rankings
induced by two metrics.

Conventions shared by every function here:

- Inputs are two one-dimensional sequences of the same length holding finite numbers; a
  mismatch, a NaN or an infinity is an :class:`~assay.errors.InputError` naming it. Every
  coefficient needs n ≥ 3 pairs, and a Fisher-z confidence interval needs more (n ≥ 4 for
  Pearson and Spearman, n ≥ 5 for Kendall); pass ``confidence=None`` (or a bootstrap
  interval) to get the coefficient and p-value of smaller samples.
- An input whose values are all equal has no ranking and no variance: the coefficient and
  p-value are NaN (scipy returns NaN as well), the interval is (NaN, NaN), and
  ``details["constant_input"]`` is True. No warning is emitted, here or anywhere else in this
  module.
- Bad options (an unknown ``alternative``, ``confidence`` outside (0, 1), ...) raise
  :class:`~assay.errors.ConventionError`.
- ``alternative`` is "two-sided", "greater" (positive association) or "less"; with a
  one-sided alternative the interval is one-sided too: (low, 1) for "greater", (-1, high) for
  "less", as :meth:`scipy.stats._result_classes.PearsonRResult.confidence_interval`.
- Bootstrap intervals resample the n pairs with replacement, ``n_resamples`` times, with
  ``numpy.random.default_rng(seed)`` drawing the indices row by row (as
  ``rng.integers(0, n, size=(n_resamples, n))``; drawn in chunks that continue the same
  stream, so the result depends only on the data, ``n_resamples`` and ``seed``). The interval
  is the percentile interval: the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``
  quantiles of the resampled coefficients (NumPy's default linear interpolation). Resamples on
  which the coefficient is undefined (all resampled x or all resampled y equal) are left out
  and counted in ``details["n_degenerate"]``.
- ``details`` records n, the method, the p-value method, the interval method and its settings
  (standard error on the z scale, number of resamples, seed).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..errors import ConventionError, EmptyInputError, InputError
from ._result import TestResult

__all__ = ["kendall", "pearson", "spearman", "system_rank_correlation", "tau_ap"]

ALTERNATIVES = ("two-sided", "greater", "less")
SPEARMAN_CI = ("fisher", "bootstrap")
KENDALL_CI = ("fieller", "bootstrap")
KENDALL_VARIANTS = ("b", "c")
KENDALL_PVALUES = ("auto", "exact", "asymptotic")
TAU_AP_TIES = ("error", "average")
SYSTEM_METHODS = ("kendall", "spearman", "tau_ap")

#: Largest number of resampled values (resamples x n) held in memory at once.
_CHUNK_ELEMENTS = 1 << 21
#: scipy.stats.kendalltau's rule: exact p-values for tie-free samples up to this size.
_KENDALL_EXACT_MAX_N = 33
#: Fieller, Hartley & Pearson's (1957) variance constant for Fisher's z of Kendall's tau.
_FIELLER_VARIANCE = 0.437

_NAN = float("nan")


# --------------------------------------------------------------------------- validation


def _check_alternative(alternative: str) -> None:
    if alternative not in ALTERNATIVES:
        raise ConventionError(
            f"alternative={alternative!r} is not one of {', '.join(ALTERNATIVES)}"
        )


def _check_choice(name: str, value: str, choices: Sequence[str]) -> None:
    if value not in choices:
        raise ConventionError(f"{name}={value!r} is not one of {', '.join(choices)}")


def _check_confidence(confidence: float | None) -> None:
    if confidence is None:
        return
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float, np.floating))
        or not 0 < confidence < 1
    ):
        raise ConventionError(f"confidence must lie in (0, 1) or be None, got {confidence!r}")


def _check_bootstrap(n_resamples: int, seed: int) -> None:
    if (
        isinstance(n_resamples, bool)
        or not isinstance(n_resamples, (int, np.integer))
        or n_resamples < 1
    ):
        raise ConventionError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConventionError(f"seed must be a non-negative integer, got {seed!r}")


def _as_vector(values: ArrayLike, name: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} must hold real numbers ({exc})") from None
    if arr.ndim != 1:
        raise InputError(f"{name} must be one-dimensional, got shape {arr.shape}")
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"{name}[{i}] is {float(arr[i])!r}; correlations need finite values "
            f"({bad.size} non-finite value{'s' if bad.size > 1 else ''} in {name})"
        )
    return arr


def _as_pair(x: ArrayLike, y: ArrayLike, min_n: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Two finite one-dimensional float arrays of the same length n ≥ ``min_n``."""
    xa = _as_vector(x, "x")
    ya = _as_vector(y, "y")
    if xa.size != ya.size:
        raise InputError(
            f"x and y differ in length ({xa.size} and {ya.size}); correlations need paired values"
        )
    if xa.size == 0:
        raise EmptyInputError("x and y are empty")
    if xa.size < min_n:
        raise InputError(f"a correlation needs at least {min_n} pairs, got {xa.size}")
    return xa, ya


def _is_constant(a: np.ndarray) -> bool:
    return bool(np.all(a == a[0]))


def _fisher_n_check(n: int, min_n: int, what: str, confidence: float | None) -> None:
    if confidence is not None and n < min_n:
        raise InputError(
            f"the {what} confidence interval needs at least {min_n} pairs (its standard error "
            f"divides by n - {min_n - 1}), got {n}; pass confidence=None for the coefficient "
            "and p-value only, or ask for a bootstrap interval"
        )


# --------------------------------------------------------------------------- shared maths


def _pearson_r(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r, computed as scipy.stats.pearsonr does (scaled to avoid overflow)."""
    xm = x - x.mean()
    ym = y - y.mean()
    xmax = np.abs(xm).max()
    ymax = np.abs(ym).max()
    if xmax == 0 or ymax == 0:
        return _NAN
    normx = xmax * np.linalg.norm(xm / xmax)
    normy = ymax * np.linalg.norm(ym / ymax)
    r = float(np.dot(xm / normx, ym / normy))
    return min(1.0, max(-1.0, r))


def _rowwise_r(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson's r of each row of ``a`` with the same row of ``b``; NaN for constant rows."""
    am = a - a.mean(axis=1, keepdims=True)
    bm = b - b.mean(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (am * bm).sum(axis=1) / np.sqrt((am * am).sum(axis=1) * (bm * bm).sum(axis=1))
    degenerate = np.all(a == a[:, :1], axis=1) | np.all(b == b[:, :1], axis=1)
    r[degenerate] = np.nan
    return np.clip(r, -1.0, 1.0)


def _t_pvalue(r: float, n: int, alternative: str) -> float:
    """p-value of a correlation coefficient r from n pairs against 0 by the t approximation.

    t = r sqrt((n - 2) / (1 - r²)) has Student's t distribution with n - 2 degrees of freedom
    under independence of normal variables; equivalently P(|R| ≥ |r|) = I_{1-r²}((n-2)/2, 1/2)
    (the regularized incomplete beta function), which is what is evaluated here (no
    division by zero at r = ±1). scipy.stats.pearsonr (exact for normal data) and
    scipy.stats.spearmanr (an approximation for ranks) use this same distribution.
    """
    from scipy import special

    if math.isnan(r):
        return _NAN
    two_tail = float(special.betainc((n - 2) / 2.0, 0.5, (1.0 - r) * (1.0 + r)))
    if alternative == "two-sided":
        return two_tail
    # P(R >= r) for "greater", P(R <= r) for "less"; the null distribution is symmetric.
    toward = r >= 0 if alternative == "greater" else r <= 0
    return two_tail / 2.0 if toward else 1.0 - two_tail / 2.0


def _fisher_ci(r: float, se: float, confidence: float, alternative: str) -> tuple[float, float]:
    """tanh(atanh(r) ± z·se), two-sided or one-sided (as scipy's Pearson interval)."""
    from scipy import special

    if math.isnan(r):
        return (_NAN, _NAN)
    with np.errstate(divide="ignore"):
        z = float(np.arctanh(r))  # ±inf at r = ±1: the interval collapses to (r, r)
    if alternative == "two-sided":
        h = float(special.ndtri(0.5 + confidence / 2.0))
        return (math.tanh(z - h * se), math.tanh(z + h * se))
    h = float(special.ndtri(confidence))
    if alternative == "less":
        return (-1.0, math.tanh(z + h * se))
    return (math.tanh(z - h * se), 1.0)


def _percentile_ci(
    values: np.ndarray, confidence: float, alternative: str
) -> tuple[tuple[float, float], int]:
    """Percentile interval of the finite resampled values, and the number left out."""
    ok = values[~np.isnan(values)]
    n_degenerate = int(values.size - ok.size)
    if ok.size == 0:
        return (_NAN, _NAN), n_degenerate
    if alternative == "two-sided":
        lo, hi = np.quantile(ok, [(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0])
        return (float(lo), float(hi)), n_degenerate
    if alternative == "less":
        return (-1.0, float(np.quantile(ok, confidence))), n_degenerate
    return (float(np.quantile(ok, 1.0 - confidence)), 1.0), n_degenerate


def _bootstrap_indices(n: int, n_resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Chunks of resampling indices, together ``rng.integers(0, n, (n_resamples, n))``."""
    rng = np.random.default_rng(seed)
    rows = max(1, _CHUNK_ELEMENTS // n)
    done = 0
    while done < n_resamples:
        size = min(rows, n_resamples - done)
        yield rng.integers(0, n, size=(size, n))
        done += size


def _dense_codes(a: np.ndarray) -> np.ndarray:
    """0-based dense ranks (equal values share a code; larger values get larger codes)."""
    return np.unique(a, return_inverse=True)[1].reshape(-1).astype(np.int64)


def _count_greater_before(v: np.ndarray) -> np.ndarray:
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


def _tie_pairs_sorted(s: np.ndarray) -> np.ndarray:
    """Per row of the row-sorted array ``s``: the number of pairs of equal values."""
    n = s.shape[1]
    pos = np.arange(n)
    new_run = np.ones(s.shape, dtype=bool)
    new_run[:, 1:] = s[:, 1:] != s[:, :-1]
    start = np.maximum.accumulate(np.where(new_run, pos, 0), axis=1)
    return (pos - start).sum(axis=1)


def _distinct_sorted(s: np.ndarray) -> np.ndarray:
    """Per row of the row-sorted array ``s``: the number of distinct values."""
    return 1 + (s[:, 1:] != s[:, :-1]).sum(axis=1)


# --------------------------------------------------------------------------- Pearson


def pearson(
    x: ArrayLike,
    y: ArrayLike,
    confidence: float | None = 0.95,
    alternative: str = "two-sided",
) -> TestResult:
    """Pearson's product-moment correlation r, its p-value and a Fisher-z confidence interval.

    r = Σ (x_i - x̄)(y_i - ȳ) / sqrt(Σ (x_i - x̄)² Σ (y_i - ȳ)²), computed as
    :func:`scipy.stats.pearsonr` computes it.

    p-value: H0 r = 0, with t = r sqrt((n - 2) / (1 - r²)) ~ Student t with n - 2 degrees of
    freedom (exact for independent normal variables), as :func:`scipy.stats.pearsonr`.

    Interval: Fisher (1921): z = atanh(r) is approximately normal with standard error
    1/sqrt(n - 3); the interval is tanh(z ∓ z_{(1+c)/2} / sqrt(n - 3)) (one-sided with
    z_c for a one-sided ``alternative``), as ``PearsonRResult.confidence_interval()``.
    Needs n ≥ 4 unless ``confidence=None``.

    Constant x or y: r, p and the interval are NaN, without a warning.
    """
    _check_alternative(alternative)
    _check_confidence(confidence)
    xa, ya = _as_pair(x, y)
    n = xa.size
    _fisher_n_check(n, 4, "Fisher-z", confidence)
    constant = _is_constant(xa) or _is_constant(ya)
    r = _NAN if constant else _pearson_r(xa, ya)
    p = _t_pvalue(r, n, alternative)
    details: dict[str, Any] = {
        "n": n,
        "method": "pearson",
        "alternative": alternative,
        "pvalue_method": "t",
        "constant_input": constant,
        "confidence": confidence,
        "ci_method": None if confidence is None else "fisher",
    }
    ci = None
    if confidence is not None:
        se = 1.0 / math.sqrt(n - 3)
        ci = _fisher_ci(r, se, confidence, alternative)
        details["se"] = se
    return TestResult(r, p, ci, "Pearson r", details)


# --------------------------------------------------------------------------- Spearman


def _average_ranks(a: np.ndarray) -> np.ndarray:
    from scipy import stats

    return np.asarray(stats.rankdata(a, axis=-1), dtype=np.float64)


#: Largest n for which Spearman's sums of products of doubled centred mid-ranks (at most n³
#: in size) fit int64.
_SPEARMAN_EXACT_MAX_N = 2_000_000


def _spearman_rho(x: np.ndarray, y: np.ndarray) -> float:
    """Pearson's r of the mid-ranks, from exact integer sums: doubled mid-ranks are integers,
    and so are their deviations 2r - (n + 1) from the doubled mean rank."""
    n = x.size
    if n > _SPEARMAN_EXACT_MAX_N:
        return _pearson_r(_average_ranks(x), _average_ranks(y))
    cx = (2.0 * _average_ranks(x) - (n + 1)).astype(np.int64)
    cy = (2.0 * _average_ranks(y) - (n + 1)).astype(np.int64)
    sxy = int(np.dot(cx, cy))
    sxx = int(np.dot(cx, cx))
    syy = int(np.dot(cy, cy))
    return min(1.0, max(-1.0, sxy / math.sqrt(sxx * syy)))


def spearman(
    x: ArrayLike,
    y: ArrayLike,
    confidence: float | None = 0.95,
    ci_method: str = "fisher",
    n_resamples: int = 9999,
    seed: int = 0,
    alternative: str = "two-sided",
) -> TestResult:
    """Spearman's rank correlation ρ, its p-value and a confidence interval.

    ρ is Pearson's r of the ranks, tied values sharing the mean of their ranks (mid-ranks), as
    :func:`scipy.stats.spearmanr`. It is computed from exact integer sums of the doubled
    mid-ranks, so a perfectly monotone relation gives exactly ±1 (scipy's floating-point sums
    can give 1 - 2⁻⁵², which at n = 3 moves the p-value from 0 to about 1e-8).

    p-value: the t approximation t = ρ sqrt((n - 2) / (1 - ρ²)) with n - 2 degrees of freedom,
    as :func:`scipy.stats.spearmanr` (not exact for small n).

    Intervals (``ci_method``):

    - "fisher": Fisher's z = atanh(ρ) with the standard error of Bonett & Wright (2000),
      sqrt((1 + ρ²/2) / (n - 3)); the interval is tanh(z ∓ z_{(1+c)/2}·SE). Needs n ≥ 4.
      D. G. Bonett and T. A. Wright (2000), "Sample size requirements for estimating Pearson,
      Kendall and Spearman correlations", Psychometrika 65(1), 23-28.
    - "bootstrap": percentile bootstrap over resampled pairs (see the module docstring),
      reproducible with ``seed``.

    Constant x or y: ρ, p and the interval are NaN, without a warning.
    """
    _check_alternative(alternative)
    _check_confidence(confidence)
    _check_choice("ci_method", ci_method, SPEARMAN_CI)
    _check_bootstrap(n_resamples, seed)
    xa, ya = _as_pair(x, y)
    n = xa.size
    if ci_method == "fisher":
        _fisher_n_check(n, 4, "Fisher-z (Bonett-Wright)", confidence)
    constant = _is_constant(xa) or _is_constant(ya)
    rho = _NAN if constant else _spearman_rho(xa, ya)
    p = _t_pvalue(rho, n, alternative)
    details: dict[str, Any] = {
        "n": n,
        "method": "spearman",
        "alternative": alternative,
        "pvalue_method": "t",
        "ties": "mid-ranks",
        "constant_input": constant,
        "confidence": confidence,
        "ci_method": None if confidence is None else ci_method,
    }
    ci = None
    if confidence is not None:
        if ci_method == "fisher":
            se = _NAN if constant else math.sqrt((1.0 + rho * rho / 2.0) / (n - 3))
            ci = _fisher_ci(rho, se, confidence, alternative)
            details["se"] = se
        elif constant:
            ci = (_NAN, _NAN)
            details.update(n_resamples=n_resamples, seed=seed, n_degenerate=n_resamples)
        else:
            boot = np.concatenate(
                [
                    _rowwise_r(_average_ranks(xa[idx]), _average_ranks(ya[idx]))
                    for idx in _bootstrap_indices(n, n_resamples, seed)
                ]
            )
            ci, n_degenerate = _percentile_ci(boot, confidence, alternative)
            details.update(
                n_resamples=n_resamples, seed=seed, n_degenerate=n_degenerate, ci_kind="percentile"
            )
    return TestResult(rho, p, ci, "Spearman rho", details)


# --------------------------------------------------------------------------- Kendall


def _kendall_parts(xc: np.ndarray, yc: np.ndarray) -> dict[str, np.ndarray]:
    """Pair counts of each row of the integer code arrays ``xc``, ``yc`` (rows x n):
    discordant pairs, pairs tied in x, tied in y, tied in both, and distinct values."""
    ky = int(yc.max()) + 1
    key = xc * ky + yc
    order = np.argsort(key, axis=1, kind="stable")
    key_sorted = np.take_along_axis(key, order, axis=1)
    y_by_xy = np.take_along_axis(yc, order, axis=1)
    x_sorted = key_sorted // ky
    y_sorted = np.sort(yc, axis=1)
    # Sorted by (x, y): a discordant pair is a later element with a strictly smaller y
    # (pairs tied in x are in ascending y and never counted).
    dis = _count_greater_before(y_by_xy).sum(axis=1)
    return {
        "dis": dis,
        "xtie": _tie_pairs_sorted(x_sorted),
        "ytie": _tie_pairs_sorted(y_sorted),
        "ntie": _tie_pairs_sorted(key_sorted),
        "x_classes": _distinct_sorted(x_sorted),
        "y_classes": _distinct_sorted(y_sorted),
    }


def _kendall_tau(parts: dict[str, np.ndarray], n: int, variant: str) -> np.ndarray:
    tot = n * (n - 1) // 2
    xtie = parts["xtie"].astype(np.float64)
    ytie = parts["ytie"].astype(np.float64)
    s = (tot - parts["xtie"] - parts["ytie"] + parts["ntie"] - 2 * parts["dis"]).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if variant == "b":
            tau = s / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
        else:
            m = np.minimum(parts["x_classes"], parts["y_classes"]).astype(np.float64)
            tau = 2.0 * s / (n * n * (m - 1.0) / m)
    tau = np.clip(tau, -1.0, 1.0)
    tau[(parts["xtie"] == tot) | (parts["ytie"] == tot)] = np.nan
    return tau


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


def _kendall_exact_pvalue(n: int, concordant: int, alternative: str) -> float:
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


def kendall(
    x: ArrayLike,
    y: ArrayLike,
    confidence: float | None = 0.95,
    variant: str = "b",
    ci_method: str = "fieller",
    n_resamples: int = 9999,
    seed: int = 0,
    alternative: str = "two-sided",
    pvalue_method: str = "auto",
) -> TestResult:
    """Kendall's rank correlation τ (variant "b" or "c"), its p-value and a confidence interval.

    With C concordant and D discordant pairs among the n0 = n(n-1)/2 pairs, n1 pairs tied in
    x and n2 pairs tied in y:

    - τ-b = (C - D) / sqrt((n0 - n1)(n0 - n2)) (Kendall 1945), equal to τ-a without ties;
    - τ-c = 2 (C - D) / (n² (m - 1) / m), m the smaller number of distinct values of x and y
      (Stuart 1953);

    computed in O(n log² n), as :func:`scipy.stats.kendalltau`.

    p-value (``pvalue_method``; depends only on C - D, so is the same for both variants), as
    :func:`scipy.stats.kendalltau`: "exact" enumerates the null distribution of C over all n!
    orderings (tie-free samples only); "asymptotic" is the normal approximation with the
    tie-corrected variance of C - D (Kendall 1970, "Rank Correlation Methods", ch. 4);
    "auto" (default) is exact for tie-free samples with n ≤ 33, or with at most one
    concordant or one discordant pair, asymptotic otherwise.

    Intervals (``ci_method``):

    - "fieller": Fisher's z = atanh(τ) with the standard error sqrt(0.437 / (n - 4)) of
      Fieller, Hartley & Pearson (1957), recommended by Bonett & Wright (2000); the interval is
      tanh(z ∓ z_{(1+c)/2}·SE). Needs n ≥ 5. Derived for τ of bivariate normal samples
      without ties; with many ties, prefer the bootstrap. Applied as is to τ-c.
      E. C. Fieller, H. O. Hartley and E. S. Pearson (1957), "Tests for rank correlation
      coefficients. I", Biometrika 44(3/4), 470-481; D. G. Bonett and T. A. Wright (2000),
      Psychometrika 65(1), 23-28.
    - "bootstrap": percentile bootstrap over resampled pairs (see the module docstring),
      reproducible with ``seed``.

    Constant x or y: τ, p and the interval are NaN, without a warning.
    """
    from scipy import special

    _check_alternative(alternative)
    _check_confidence(confidence)
    _check_choice("variant", variant, KENDALL_VARIANTS)
    _check_choice("ci_method", ci_method, KENDALL_CI)
    _check_choice("pvalue_method", pvalue_method, KENDALL_PVALUES)
    _check_bootstrap(n_resamples, seed)
    xa, ya = _as_pair(x, y)
    n = xa.size
    if ci_method == "fieller":
        _fisher_n_check(n, 5, "Fisher-z (Fieller-Hartley-Pearson)", confidence)
    xc = _dense_codes(xa)
    yc = _dense_codes(ya)
    parts = _kendall_parts(xc[None, :], yc[None, :])
    tau = float(_kendall_tau(parts, n, variant)[0])
    dis, xtie, ytie, ntie = (int(parts[k][0]) for k in ("dis", "xtie", "ytie", "ntie"))
    tot = n * (n - 1) // 2
    constant = math.isnan(tau)
    ties = xtie > 0 or ytie > 0
    if pvalue_method == "exact" and ties:
        raise ConventionError(
            "pvalue_method='exact' needs a sample without ties; use 'auto' or 'asymptotic'"
        )
    method = pvalue_method
    if method == "auto":
        exact_ok = not ties and (n <= _KENDALL_EXACT_MAX_N or min(dis, tot - dis) <= 1)
        method = "exact" if exact_ok else "asymptotic"
    if constant:
        p = _NAN
    elif method == "exact":
        p = _kendall_exact_pvalue(n, tot - dis, alternative)
    else:

        def tie_sums(codes: np.ndarray) -> tuple[float, float]:
            cnt = np.bincount(codes).astype(np.float64)
            cnt = cnt[cnt > 1]
            return (
                float((cnt * (cnt - 1) * (cnt - 2)).sum()),
                float((cnt * (cnt - 1) * (2 * cnt + 5)).sum()),
            )

        x0, x1 = tie_sums(xc)
        y0, y1 = tie_sums(yc)
        m = n * (n - 1.0)
        var = (
            (m * (2 * n + 5) - x1 - y1) / 18.0
            + (2.0 * xtie * ytie) / m
            + x0 * y0 / (9.0 * m * (n - 2))
        )
        z = (tot - xtie - ytie + ntie - 2 * dis) / math.sqrt(var)
        if alternative == "two-sided":
            p = float(2.0 * special.ndtr(-abs(z)))
        elif alternative == "greater":
            p = float(special.ndtr(-z))
        else:
            p = float(special.ndtr(z))
    details: dict[str, Any] = {
        "n": n,
        "method": f"kendall tau-{variant}",
        "variant": variant,
        "alternative": alternative,
        "pvalue_method": None if constant else method,
        "n_discordant": dis,
        "n_tied_x": xtie,
        "n_tied_y": ytie,
        "n_tied_xy": ntie,
        "constant_input": constant,
        "confidence": confidence,
        "ci_method": None if confidence is None else ci_method,
    }
    ci = None
    if confidence is not None:
        if ci_method == "fieller":
            se = math.sqrt(_FIELLER_VARIANCE / (n - 4))
            ci = _fisher_ci(tau, se, confidence, alternative)
            details["se"] = se
        elif constant:
            ci = (_NAN, _NAN)
            details.update(n_resamples=n_resamples, seed=seed, n_degenerate=n_resamples)
        else:
            boot = np.concatenate(
                [
                    _kendall_tau(_kendall_parts(xc[idx], yc[idx]), n, variant)
                    for idx in _bootstrap_indices(n, n_resamples, seed)
                ]
            )
            ci, n_degenerate = _percentile_ci(boot, confidence, alternative)
            details.update(
                n_resamples=n_resamples, seed=seed, n_degenerate=n_degenerate, ci_kind="percentile"
            )
    return TestResult(tau, p, ci, f"Kendall tau-{variant}", details)


# --------------------------------------------------------------------------- tau_AP


def _count_in_group_greater(group: np.ndarray, value: np.ndarray) -> np.ndarray:
    """For each item b: #{a : group[a] == group[b] and value[a] > value[b]}."""
    kv = int(value.max()) + 1
    key = group * kv + value
    keys = np.sort(key)
    run_end = np.searchsorted(keys, key, side="right")
    group_end = np.searchsorted(keys, (group + 1) * kv, side="left")
    return group_end - run_end


def _tau_ap_directed(ref: np.ndarray, est: np.ndarray) -> float:
    """Expected τ_AP of the ranking by ``est`` against the reference ranking by ``ref``
    (integer codes, higher = ranked first) over uniformly random orders of tied items; the
    plain τ_AP when there are no ties."""
    n = ref.size
    # Positions come from the estimated ranking: sort by est descending; within a tie
    # group of est, ref ascending, so that earlier items of the same group never have a
    # strictly larger ref (they must not count as "strictly above").
    order = np.lexsort((ref, -est))
    est_sorted = est[order]
    # A: items strictly above in est and strictly above in ref.
    above_both = np.empty(n, dtype=np.int64)
    above_both[order] = _count_greater_before(ref[order][None, :])[0]
    # Items strictly above in est and tied in ref (concordant with probability 1/2).
    above_tied = _count_in_group_greater(ref, est)
    # Items tied in est, above in ref (probability 1), or tied in both (1/2).
    within_above = _count_in_group_greater(est, ref)
    joint = _dense_codes(est * (int(ref.max()) + 1) + ref)
    within_tied = np.bincount(joint)[joint] - 1
    # Weights of the est tie groups, from the positions p = 1..n of the sorted list: an item
    # of a group spanning positions s+1..s+g sits at each with probability 1/g.
    #   h = E[1/(p-1)] for items strictly above (s ≥ 1),
    #   t = E[(k-1)/(g-1) · 1/(p-1)], k = p - s, for an item of the same group (g ≥ 2).
    starts = np.flatnonzero(np.r_[True, est_sorted[1:] != est_sorted[:-1]])
    size = np.diff(np.r_[starts, n]).astype(np.float64)
    pos = np.arange(1, n + 1, dtype=np.float64)
    inv = np.zeros(n)
    inv[1:] = 1.0 / (pos[1:] - 1.0)
    k_minus_1 = pos - 1.0 - np.repeat(starts, np.diff(np.r_[starts, n]))
    h_group = np.add.reduceat(inv, starts) / size
    h_group[0] = 0.0  # the top group has nothing strictly above it
    with np.errstate(divide="ignore", invalid="ignore"):
        t_group = np.where(
            size > 1, np.add.reduceat(k_minus_1 * inv, starts) / (size * (size - 1.0)), 0.0
        )
    group_of = np.empty(n, dtype=np.int64)
    group_of[order] = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, n]))
    total = (
        h_group[group_of] * (above_both + 0.5 * above_tied)
        + t_group[group_of] * (within_above + 0.5 * within_tied)
    ).sum()
    return float(2.0 * total / (n - 1) - 1.0)


def tau_ap(
    x: ArrayLike,
    y: ArrayLike,
    *,
    symmetric: bool = False,
    ties: str = "error",
) -> TestResult:
    """AP correlation τ_AP of the ranking induced by ``y`` against the reference ranking
    induced by ``x`` (higher value = ranked first), Yilmaz, Aslam & Robertson (2008).

    Order the items by ``y`` (the ranking being evaluated, e.g. by a cheaper metric); for the
    item at position i, C(i) is the number of the i - 1 items above it that are also above it
    in the reference ranking by ``x``:

        τ_AP = 2/(N - 1) · Σ_{i=2..N} C(i)/(i - 1) - 1.

    Like Kendall's τ it lies in [-1, 1] (1: same ranking, -1: reversed), but a swap near the
    top of the ``y`` ranking costs more than one near the bottom. It is **not symmetric**:
    ``tau_ap(x, y) != tau_ap(y, x)`` in general; ``x`` is the reference ("true") ranking, as
    ``tauAP(x, y)`` of the R package ircor. ``symmetric=True`` returns the mean of both
    directions, (τ_AP(y | x) + τ_AP(x | y)) / 2.

    Ties (``ties``):

    - "error" (default): tied values in x or y raise an InputError.
    - "average": the expected τ_AP when the tied items of each ranking are put in a uniformly
      random order (computed exactly, in closed form); with a tie-free ``x`` this is
      τ_AP,a of Urbano & Marrero (2017), their coefficient for an estimated ranking with
      ties compared with a true one (ircor's ``tauAP_a``).

    Constant x or y (a single tie group): the statistic is NaN, with either ``ties``.

    ``pvalue`` is NaN and ``ci`` is None: τ_AP has no standard test.

    E. Yilmaz, J. A. Aslam and S. Robertson (2008), "A new rank correlation coefficient for
    information retrieval", SIGIR, 587-594. J. Urbano and M. Marrero (2017), "The treatment of
    ties in AP correlation", ICTIR, 321-324.
    """
    if not isinstance(symmetric, bool):
        raise ConventionError(f"symmetric must be True or False, got {symmetric!r}")
    _check_choice("ties", ties, TAU_AP_TIES)
    xa, ya = _as_pair(x, y)
    n = xa.size
    xc = _dense_codes(xa)
    yc = _dense_codes(ya)
    x_groups = int(xc.max()) + 1
    y_groups = int(yc.max()) + 1
    constant = x_groups == 1 or y_groups == 1
    details: dict[str, Any] = {
        "n": n,
        "method": "tau_ap",
        "symmetric": symmetric,
        "ties": ties,
        "reference": "both (mean)" if symmetric else "x",
        "n_tied_x": n - x_groups,
        "n_tied_y": n - y_groups,
        "constant_input": constant,
    }
    if constant:
        return TestResult(_NAN, _NAN, None, "tau_AP", details)
    if ties == "error" and (x_groups < n or y_groups < n):
        which = " and ".join(name for name, g in (("x", x_groups), ("y", y_groups)) if g < n)
        raise InputError(
            f"tau_ap: {which} hold tied values; tau_AP is defined for rankings "
            "without ties (pass ties='average' for its expected value over "
            "random orders of the tied items)"
        )
    value = _tau_ap_directed(xc, yc)
    if symmetric:
        value = (value + _tau_ap_directed(yc, xc)) / 2.0
    return TestResult(value, _NAN, None, "tau_AP", details)


# --------------------------------------------------------------------------- system rankings


def _system_values(
    scores_a: Mapping[Any, float] | ArrayLike, scores_b: Mapping[Any, float] | ArrayLike
) -> tuple[np.ndarray, np.ndarray, list[Any] | None]:
    if not isinstance(scores_a, Mapping) and not isinstance(scores_b, Mapping):
        return _as_vector(scores_a, "scores_a"), _as_vector(scores_b, "scores_b"), None
    if not (isinstance(scores_a, Mapping) and isinstance(scores_b, Mapping)):
        raise InputError(
            "scores_a and scores_b must both be mappings (run -> value) or both sequences"
        )
    names = list(scores_a)
    missing_b = [k for k in names if k not in scores_b]
    missing_a = [k for k in scores_b if k not in scores_a]
    if missing_a or missing_b:
        parts = []
        if missing_b:
            parts.append(f"missing from scores_b: {', '.join(map(str, missing_b))}")
        if missing_a:
            parts.append(f"missing from scores_a: {', '.join(map(str, missing_a))}")
        raise InputError("scores_a and scores_b must hold the same runs; " + "; ".join(parts))

    def values(mapping: Mapping[Any, float], label: str) -> np.ndarray:
        out = np.empty(len(names))
        for i, name in enumerate(names):
            try:
                out[i] = float(mapping[name])
            except (TypeError, ValueError):
                raise InputError(f"{label}[{name!r}] is {mapping[name]!r}, not a number") from None
            if not math.isfinite(out[i]):
                raise InputError(
                    f"{label}[{name!r}] is {float(out[i])!r}; correlations need finite values"
                )
        return out

    return values(scores_a, "scores_a"), values(scores_b, "scores_b"), names


def system_rank_correlation(
    scores_a: Mapping[Any, float] | ArrayLike,
    scores_b: Mapping[Any, float] | ArrayLike,
    method: str = "kendall",
    **options: Any,
) -> TestResult:
    """Correlation of the rankings of systems (runs) induced by two metrics.

    ``scores_a`` and ``scores_b`` give each run's aggregate value under the two metrics:
    either two mappings run name -> value with the same keys (any order; a run missing from
    either is an InputError naming it), or two sequences of the same length in the same run
    order. Higher values rank a run higher.

    ``method``:

    - "kendall" (default): Kendall's τ-b with its p-value (:func:`kendall`);
    - "spearman": Spearman's ρ with its p-value (:func:`spearman`);
    - "tau_ap": τ_AP (:func:`tau_ap`) with ``scores_a`` as the reference ranking and the
      ranking by ``scores_b`` evaluated against it; p-value NaN, no interval.

    ``options`` are passed on to that function (``confidence``, ``ci_method``, ``seed``,
    ``alternative``, ``ties``, ``symmetric``, ...). Note that the Fisher-z intervals of
    Kendall and Spearman need at least 5 and 4 runs; with fewer, pass ``confidence=None``.
    ``details`` adds ``runs`` (the run names, in the order of ``scores_a``, when mappings were
    given).
    """
    _check_choice("method", method, SYSTEM_METHODS)
    a, b, names = _system_values(scores_a, scores_b)
    if method == "kendall":
        res = kendall(a, b, **options)
    elif method == "spearman":
        res = spearman(a, b, **options)
    else:
        res = tau_ap(a, b, **options)
    details = dict(res.details)
    details["runs"] = names
    details["system_method"] = method
    return TestResult(res.statistic, res.pvalue, res.ci, res.method, details)
