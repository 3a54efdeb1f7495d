"""Paired significance tests, bootstrap confidence intervals, multiple-comparison corrections
and a paired effect size.

Conventions shared by every function here:

- Inputs are per-item scores (one value per query/topic/sentence), paired by position. They
  must be finite and of equal length; anything else raises :class:`~assay.errors.InputError`.
  An unknown option name (``alternative``, ``method``, ``test``) raises
  :class:`~assay.errors.ConventionError`.
- Random procedures draw from ``np.random.default_rng(seed)`` in a fixed order of fixed-size
  blocks, and process resamples block by block with whole-array operations. Sign flips (and
  swaps) come from 32-bit words, one bit per item; bootstrap resamples from
  ``rng.integers(0, n, (B, n))`` (the stream ``scipy.stats.bootstrap`` uses for the same seed).
- Resampled statistics are compared with the observed one with a tolerance of
  ``8 · n · eps`` times the scale of the statistic (``eps`` = float64 machine epsilon), the
  worst-case rounding error of a sum of ``n`` terms in any order. The scale is ``mean(|d|)``
  for the sign-flip test of the mean (rather than ``|observed|`` as in
  ``scipy.stats.permutation_test``, so that an observed mean that is zero up to rounding is
  handled as zero), ``max|d|`` for bootstrap means, and ``max(|T|, |T(|d|)|)`` for a user
  statistic T. A count therefore cannot be flipped by the order of floating-point summation
  (BLAS kernel, number of threads), and resamples that tie with the observed statistic
  mathematically (common with discrete metrics) count as ties.
- Bootstrap means, whose values are returned as interval endpoints, are computed as exact
  sums before one final rounding (:func:`_exact_slices`), so they do not depend on the BLAS
  or its threads either: the same seed gives the same bits.
- Monte Carlo p-values are ``(c + 1) / (N + 1)`` (Phipson & Smyth 2010, "Permutation p-values
  should never be zero"); exact enumerations give ``c / N``.
"""

from __future__ import annotations

import inspect
import math
import operator
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import ConventionError, InputError
from ._result import TestResult

FloatArray = NDArray[np.float64]

ALTERNATIVES = ("two-sided", "greater", "less")
BOOTSTRAP_METHODS = ("bca", "percentile", "basic")
PAIRED_TESTS = ("randomization", "t", "wilcoxon", "sign", "bootstrap")
CORRECTIONS = ("bonferroni", "holm", "bh", "fdr_bh", "none")

_EPS = float(np.finfo(np.float64).eps)
_BLOCK_ELEMENTS = 1 << 22  # entries of a resample matrix processed at once (32 MiB of float64)
_MAX_BLOCK_ROWS = 4096
_TUKEY_BLOCK_ELEMENTS = 1 << 20  # smaller blocks keep the shuffles' random accesses in cache


# ----------------------------------------------------------------------------- validation


def _vector(x: ArrayLike, name: str, where: str, *, min_n: int = 1) -> FloatArray:
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: {name} must be numeric ({exc})") from None
    if arr.ndim != 1:
        raise InputError(f"{where}: {name} must be one-dimensional (got shape {arr.shape})")
    if arr.shape[0] < min_n:
        raise InputError(f"{where}: {name} needs at least {min_n} values (got {arr.shape[0]})")
    if not np.isfinite(arr).all():
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise InputError(f"{where}: {name} holds a non-finite value at position {bad}")
    return arr


def _matrix(x: ArrayLike, name: str, where: str, *, min_n: int = 1) -> FloatArray:
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: {name} must be numeric ({exc})") from None
    if arr.ndim != 2:
        raise InputError(f"{where}: {name} must be two-dimensional (got shape {arr.shape})")
    if arr.shape[1] < min_n:
        raise InputError(
            f"{where}: {name} needs at least {min_n} columns (items) (got {arr.shape[1]})"
        )
    if not np.isfinite(arr).all():
        row, col = (int(v[0]) for v in np.nonzero(~np.isfinite(arr)))
        raise InputError(f"{where}: {name} holds a non-finite value at [{row}, {col}]")
    return arr


def _difference(a: ArrayLike, b: ArrayLike | None, where: str, *, min_n: int) -> FloatArray:
    x = _vector(a, "a", where, min_n=min_n)
    if b is None:
        return x
    y = _vector(b, "b", where, min_n=min_n)
    if x.shape != y.shape:
        raise InputError(
            f"{where}: a and b must have the same length (got {x.shape[0]} and {y.shape[0]})"
        )
    return x - y


def _choice(value: str, choices: Sequence[str], name: str, where: str) -> str:
    if not isinstance(value, str) or value.lower() not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ConventionError(f"{where}: {name} must be one of {options} (got {value!r})")
    return value.lower()


def _integer(value: Any, name: str, where: str, minimum: int, expected: str) -> int:
    """An integer >= ``minimum`` (bools refused), else an InputError saying ``expected``."""
    if isinstance(value, bool):
        raise InputError(f"{where}: {name} must be {expected} (got {value!r})")
    try:
        number = operator.index(value)
    except TypeError:
        raise InputError(f"{where}: {name} must be {expected} (got {value!r})") from None
    if number < minimum:
        raise InputError(f"{where}: {name} must be {expected} (got {number})")
    return number


def _count(value: Any, name: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        return _integer(value, name, where, 1, "an integer")
    return _integer(value, name, where, 1, "at least 1")


def _seed(value: Any, where: str) -> int:
    return _integer(value, "seed", where, 0, "a non-negative integer")


def _confidence(value: Any, where: str) -> float:
    try:
        level = float(value)
    except (TypeError, ValueError):
        raise InputError(
            f"{where}: confidence must be a number in (0, 1) (got {value!r})"
        ) from None
    if not 0.0 < level < 1.0:
        raise InputError(f"{where}: confidence must be in (0, 1) (got {value!r})")
    return level


def _accepts_axis(func: Callable[..., Any]) -> bool:
    """Whether ``func`` takes an ``axis`` keyword (then it is called once per block)."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(
        p.kind is inspect.Parameter.VAR_KEYWORD
        or (p.name == "axis" and p.kind is not inspect.Parameter.POSITIONAL_ONLY)
        for p in params
    )


def _scalar(value: Any, where: str, what: str) -> float:
    try:
        out = float(np.asarray(value, dtype=np.float64).reshape(()))
    except (TypeError, ValueError):
        raise InputError(f"{where}: {what} must return one number (got {value!r})") from None
    return out


def _call(
    statistic: Callable[..., Any],
    samples: Sequence[NDArray[Any]],
    vectorised: bool,
    where: str,
    *,
    axis: int,
) -> float:
    """``statistic`` of the observed data (with ``axis`` when it takes one), as a float."""
    value = statistic(*samples, axis=axis) if vectorised else statistic(*samples)
    return _scalar(value, where, "statistic")


def _apply_rows(
    statistic: Callable[..., Any],
    batches: Sequence[NDArray[Any]],
    vectorised: bool,
    where: str,
    *,
    axis: int = -1,
) -> FloatArray:
    """``statistic`` of every row (first axis) of the arrays in ``batches``, as floats."""
    rows = batches[0].shape[0]
    if vectorised:
        out = np.asarray(statistic(*batches, axis=axis), dtype=np.float64)
        if out.shape != (rows,):
            raise InputError(
                f"{where}: statistic(..., axis={axis}) on a block of {rows} resamples returned "
                f"shape {out.shape}, expected ({rows},); give a function of one resample "
                "without an 'axis' parameter, or reduce along 'axis'"
            )
        return out
    return np.array(
        [_scalar(statistic(*(b[r] for b in batches)), where, "statistic") for r in range(rows)],
        dtype=np.float64,
    )


def _tolerance(n: int, scale: Any) -> Any:
    """Worst-case rounding error of a sum of ``n`` terms whose magnitudes add up to ``scale``."""
    return 8.0 * max(n, 1) * _EPS * np.abs(scale)


# ----------------------------------------------------------------------------- random streams


def _block_rows(width: int, elements: int = _BLOCK_ELEMENTS) -> int:
    """Resamples per block for resamples of ``width`` entries (a function of the shape only)."""
    return int(max(1, min(_MAX_BLOCK_ROWS, elements // max(width, 1))))


def _flip_blocks(seed: int, n: int, n_resamples: int) -> Iterator[NDArray[np.uint8]]:
    """Blocks of random 0/1 rows (1 = flip the sign / swap the item), ``n_resamples`` rows in
    all: row r is the low ``n`` bits of ``ceil(n / 32)`` consecutive 32-bit words drawn by
    ``default_rng(seed).integers(0, 2**32, dtype=uint32)``, little-endian bit order. The
    stream does not depend on the block size."""
    rng = np.random.default_rng(seed)
    words = (n + 31) // 32
    step = _block_rows(n)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        w = rng.integers(0, 1 << 32, size=(rows, words), dtype=np.uint32)
        raw = w.astype("<u4", copy=False).view(np.uint8)
        yield np.unpackbits(raw, axis=1, count=n, bitorder="little")


def _exact_flip_blocks(n: int) -> Iterator[NDArray[np.uint8]]:
    """All ``2**n`` flip vectors: row k flips item i when bit i of k is set (row 0: none)."""
    total = 1 << n
    shifts = np.arange(n, dtype=np.int64)
    step = _block_rows(n)
    for start in range(0, total, step):
        k = np.arange(start, min(total, start + step), dtype=np.int64)
        yield ((k[:, None] >> shifts) & 1).astype(np.uint8)


def _index_blocks(seed: int, n: int, n_resamples: int) -> Iterator[NDArray[np.integer[Any]]]:
    """Blocks of bootstrap index rows drawn by ``default_rng(seed).integers(0, n, (rows, n))``;
    concatenated, they equal one ``integers(0, n, (n_resamples, n))`` draw (int32 draws give
    the same values as the default int64 ones for n < 2**31, at half the cost)."""
    rng = np.random.default_rng(seed)
    step = _block_rows(n)
    dtype = np.int32 if n < (1 << 31) else np.int64
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        yield rng.integers(0, n, size=(rows, n), dtype=dtype)


def _resample_counts(idx: NDArray[np.integer[Any]], n: int) -> FloatArray:
    """How often each item occurs in each resample: (rows, n) counts as float64."""
    rows = idx.shape[0]
    flat = (idx + (np.arange(rows, dtype=np.int64) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)


# ----------------------------------------------------------------------------- kernels


def _exact(n: int, n_resamples: int) -> bool:
    return n < 63 and (1 << n) <= n_resamples


def _exceed(values: Any, observed: Any, tol: Any, alternative: str) -> NDArray[np.int64]:
    """Number of resampled ``values`` (first axis) at least as extreme as ``observed``."""
    if alternative == "two-sided":
        hit = np.abs(values) >= np.abs(observed) - tol
    elif alternative == "greater":
        hit = values >= observed - tol
    else:
        hit = values <= observed + tol
    return np.count_nonzero(hit, axis=0)


def _signflip_pvalues(
    diffs: FloatArray, n_resamples: int, seed: int, alternative: str
) -> tuple[FloatArray, bool]:
    """Sign-flip p-values of the mean of every row of ``diffs`` (m, n), one shared sign matrix.

    The statistic of a resample with flip set F is ``sum(d) - 2 * sum_{i in F} d_i`` (the sum,
    a monotone function of the mean), computed for all rows at once as ``flips @ diffs.T``.
    """
    m, n = diffs.shape
    exact = _exact(n, n_resamples)
    total = diffs.sum(axis=1)
    tol = _tolerance(n, np.abs(diffs).sum(axis=1))
    dt = np.ascontiguousarray(diffs.T)
    counts = np.zeros(m, dtype=np.int64)
    blocks = _exact_flip_blocks(n) if exact else _flip_blocks(seed, n, n_resamples)
    for bits in blocks:
        flipped = bits.astype(np.float64) @ dt
        counts += _exceed(total - 2.0 * flipped, total, tol, alternative)
    if exact:
        return np.asarray(counts / float(1 << n), dtype=np.float64), True
    return np.asarray((counts + 1.0) / (n_resamples + 1.0), dtype=np.float64), False


def _exact_slices(x: FloatArray) -> list[FloatArray]:
    """Split every row of ``x`` (m, n) into slices, x = Σ_k slice_k + r with |r| ≤
    2⁻⁶⁴·max|x_row|, each slice holding integer multiples of a power of two small enough that
    ``counts @ slice.T`` is exact whenever a row of counts holds non-negative integers summing
    to n: every product and partial sum is then an integer multiple of the slice's unit below
    2⁵³, so any BLAS, in any summation order and with any number of threads, gives the same
    bits (Ozaki et al. 2012, "Error-free transformations of matrix multiplication").
    Returns the transposed slices (n, m), largest first."""
    n = x.shape[1]
    bits = 52 - max(1, math.ceil(math.log2(max(n, 2))))
    amax = np.abs(x).max(axis=1, keepdims=True)
    exponent = np.frexp(amax)[1]  # amax < 2**exponent
    unit_exp = np.where(amax > 0, exponent, 0) - bits
    rest = x
    slices = []
    for _ in range(-(-64 // bits)):
        unit = np.ldexp(1.0, unit_exp)
        part = np.round(rest / unit) * unit
        rest = rest - part
        slices.append(np.ascontiguousarray(part.T))
        unit_exp = unit_exp - bits
    return slices


def _bootstrap_means(x: FloatArray, n_resamples: int, seed: int) -> FloatArray:
    """Bootstrap distribution (B, m) of the mean of every row of ``x`` (m, n), one shared
    resample-index matrix: means = counts @ x.T / n, the product computed exactly slice by
    slice (:func:`_exact_slices`) so that the values do not depend on the BLAS, its number of
    threads or the number of rows m."""
    m, n = x.shape
    slices = _exact_slices(x)
    stacked = np.concatenate(slices[::-1], axis=1)  # (n, K·m), smallest slice first
    parts = []
    for idx in _index_blocks(seed, n, n_resamples):
        exact = _resample_counts(idx, n) @ stacked  # every entry exact: one product for all
        sums = exact[:, :m].copy()
        for k in range(1, len(slices)):
            sums += exact[:, k * m : (k + 1) * m]
        parts.append(sums)
    return np.concatenate(parts, axis=0) / n


def _bootstrap_null_pvalues(
    diffs: FloatArray, n_resamples: int, seed: int, alternative: str
) -> tuple[FloatArray, FloatArray]:
    """Paired bootstrap p-values of mean(d) = 0 for every row of ``diffs``, and the
    bootstrap distribution of the means (B, m)."""
    n = diffs.shape[1]
    means = _bootstrap_means(diffs, n_resamples, seed)
    observed = diffs.mean(axis=1)
    tol = _tolerance(n, np.abs(diffs).max(axis=1))
    counts = _exceed(means - observed, observed, tol, alternative)
    return np.asarray((counts + 1.0) / (n_resamples + 1.0), dtype=np.float64), means


def _quantile_sorted(srt: FloatArray, q: FloatArray) -> FloatArray:
    """Linear-interpolation quantile (Hyndman & Fan type 7, numpy's default) of every column
    of the column-sorted ``srt`` (B, m) at its own level ``q[j]``; NaN levels give NaN."""
    b, m = srt.shape
    valid = np.isfinite(q)
    h = (b - 1) * np.where(valid, np.clip(q, 0.0, 1.0), 0.0)
    lo = np.clip(np.floor(h).astype(np.intp), 0, b - 1)
    hi = np.minimum(lo + 1, b - 1)
    t = h - lo
    cols = np.arange(m)
    low, high = srt[lo, cols], srt[hi, cols]
    diff = high - low
    out = np.where(t >= 0.5, high - diff * (1.0 - t), low + diff * t)
    return np.where(valid, out, np.nan)


def _interval(
    dist: FloatArray,
    theta: FloatArray,
    method: str,
    confidence: float,
    accel: FloatArray | None,
    tol: Any,
) -> tuple[FloatArray, FloatArray]:
    """Two-sided bootstrap interval for every column of ``dist`` (B, m) around ``theta`` (m,).

    percentile: (q(α/2), q(1-α/2)); basic: (2θ - q(1-α/2), 2θ - q(α/2)); BCa: percentile at
    α₁ = Φ(z₀ + (z₀ + z_{α/2}) / (1 - a(z₀ + z_{α/2}))), α₂ likewise with z_{1-α/2}, where
    z₀ = Φ⁻¹(share of resamples below θ, ties counting one half) and a is the acceleration
    (Efron & Tibshirani 1993, §14.3)."""
    from scipy.special import ndtr, ndtri

    b, m = dist.shape
    alpha = (1.0 - confidence) / 2.0
    srt = np.sort(dist, axis=0)
    if method == "bca":
        a = accel if accel is not None else np.zeros(m)
        below = np.count_nonzero(dist < theta - tol, axis=0)
        at_or_below = np.count_nonzero(dist <= theta + tol, axis=0)
        z0 = ndtri((below + at_or_below) / (2.0 * b))
        z_lo, z_hi = z0 + ndtri(alpha), z0 - ndtri(alpha)
        with np.errstate(invalid="ignore", divide="ignore"):
            q_lo = ndtr(z0 + z_lo / (1.0 - a * z_lo))
            q_hi = ndtr(z0 + z_hi / (1.0 - a * z_hi))
    else:
        q_lo, q_hi = np.full(m, alpha), np.full(m, 1.0 - alpha)
    low = _quantile_sorted(srt, np.asarray(q_lo, dtype=np.float64))
    high = _quantile_sorted(srt, np.asarray(q_hi, dtype=np.float64))
    if method == "basic":
        low, high = 2.0 * theta - high, 2.0 * theta - low
    return low, high


def _acceleration(jack: FloatArray) -> FloatArray:
    """BCa acceleration from jackknife values (m, n): a = Σ U³ / (6 (Σ U²)^{3/2}) with
    U_i = mean(θ_(·)) - θ_(i) (Efron & Tibshirani 1993, eq. 14.15); 0 when all U_i are 0."""
    u = jack.mean(axis=1, keepdims=True) - jack
    num = (u**3).sum(axis=1)
    den = (u**2).sum(axis=1) ** 1.5
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / (6.0 * np.where(den > 0, den, 1.0)), 0.0)


def _mean_jackknife(x: FloatArray) -> FloatArray:
    """Leave-one-out means of every row of ``x`` (m, n): (sum - x_i) / (n - 1)."""
    n = x.shape[1]
    return (x.sum(axis=1, keepdims=True) - x) / (n - 1)


# ----------------------------------------------------------------------------- paired tests


def randomization_test(
    a: ArrayLike,
    b: ArrayLike | None = None,
    statistic: Callable[..., Any] | None = None,
    n_resamples: int = 10000,
    seed: int = 0,
    alternative: str = "two-sided",
) -> TestResult:
    """Paired sign-flip (approximate randomization) test on d = a - b (or on ``a`` if ``b`` is
    None) (Fisher 1935; Noreen 1989; Smucker, Allan & Carterette 2007).

    Under H0 each d_i is symmetric about 0, so every sign vector s ∈ {-1, 1}ⁿ is equally likely.
    With T = statistic(d) (default: mean(d)), p = #{s : T(s·d) ≥ T(d)} / N for "greater",
    ``≤`` for "less", and |T(s·d)| ≥ |T(d)| for "two-sided". If 2ⁿ ≤ ``n_resamples`` all 2ⁿ
    sign vectors are enumerated (identity included) and p = c / 2ⁿ; otherwise ``n_resamples``
    random sign vectors give p = (c + 1) / (N + 1).

    ``statistic`` is a function of one (sign-flipped) difference vector. If it has an ``axis``
    parameter it is called once per block as ``statistic(D, axis=-1)`` on a (resamples × n)
    array and must return one value per row; otherwise it is called row by row (a Python loop).
    Resampled values within ``8·n·eps·max(|T(d)|, |T(|d|)|)`` of T(d) count as ties.
    ``details``: n_resamples, seed, exact, alternative, n_evaluated.
    """
    where = "randomization_test"
    d = _difference(a, b, where, min_n=1)
    n_resamples = _count(n_resamples, "n_resamples", where)
    seed = _seed(seed, where)
    alternative = _choice(alternative, ALTERNATIVES, "alternative", where)
    n = d.shape[0]
    exact = _exact(n, n_resamples)
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "exact": exact,
        "alternative": alternative,
        "n_evaluated": (1 << n) if exact else n_resamples,
    }
    if statistic is None:
        p, _ = _signflip_pvalues(d[None, :], n_resamples, seed, alternative)
        return TestResult(
            float(np.mean(d)), float(p[0]), None, "paired randomization test (mean)", details
        )

    if not callable(statistic):
        raise InputError(f"{where}: statistic must be callable (got {statistic!r})")
    vectorised = _accepts_axis(statistic)
    observed = _call(statistic, [d], vectorised, where, axis=-1)
    if not math.isfinite(observed):
        raise InputError(f"{where}: statistic of the observed differences is {observed}")
    scale = _call(statistic, [np.abs(d)], vectorised, where, axis=-1)
    tol = _tolerance(n, max(abs(observed), abs(scale) if math.isfinite(scale) else 0.0))
    count = 0
    blocks = _exact_flip_blocks(n) if exact else _flip_blocks(seed, n, n_resamples)
    for bits in blocks:
        flipped = d * (1.0 - 2.0 * bits)
        values = _apply_rows(statistic, [flipped], vectorised, where)
        count += int(_exceed(values, observed, tol, alternative))
    pvalue = count / float(1 << n) if exact else (count + 1.0) / (n_resamples + 1.0)
    return TestResult(observed, pvalue, None, "paired randomization test", details)


def ttest(
    a: ArrayLike, b: ArrayLike, confidence: float = 0.95, alternative: str = "two-sided"
) -> TestResult:
    """Paired t-test (Student 1908): t = mean(d) / (sd(d) / √n), d = a - b, sd with ddof=1,
    df = n - 1; computed by ``scipy.stats.ttest_1samp(d, 0)`` (the same as ``ttest_rel``).

    ``ci`` is the t-based confidence interval of the mean difference, mean(d) ± t_{df} · sd/√n
    (one-sided bounds for one-sided alternatives, as scipy). Constant d gives scipy's answer:
    t = ±inf (p = 0) if d ≠ 0, NaN if d = 0. ``details``: df, mean_difference, confidence,
    alternative.
    """
    from scipy import stats

    where = "ttest"
    d = _difference(a, b, where, min_n=2)
    confidence = _confidence(confidence, where)
    alternative = _choice(alternative, ALTERNATIVES, "alternative", where)
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
    return TestResult(
        float(res.statistic),
        float(res.pvalue),
        (float(ci.low), float(ci.high)),
        "paired t-test",
        details,
    )


_ZERO_METHODS = ("wilcox", "pratt", "zsplit")
_WILCOXON_METHODS = ("auto", "exact", "asymptotic")


def _wilcoxon_rows(
    d: FloatArray, zero_method: str, correction: bool, method: str, alternative: str
) -> tuple[FloatArray, FloatArray]:
    """``scipy.stats.wilcoxon`` of every row of ``d`` (m, n), vectorised over rows.

    scipy decides ``method="auto"`` once for the whole array (any zero or tie anywhere turns
    every row to the normal approximation), so rows are grouped by whether they hold a zero
    or a tied |d|: within a group scipy's decision is the one it takes for each row alone."""
    from scipy import stats

    statistic = np.empty(d.shape[0])
    pvalue = np.empty(d.shape[0])
    if method == "auto":
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
                correction=correction,
                method=method,
                alternative=alternative,
                axis=1,
            )
        statistic[rows] = res.statistic
        pvalue[rows] = res.pvalue
    return statistic, pvalue


def wilcoxon(
    a: ArrayLike,
    b: ArrayLike,
    zero_method: str = "wilcox",
    correction: bool = False,
    method: str = "auto",
    alternative: str = "two-sided",
) -> TestResult:
    """Wilcoxon signed-rank test (Wilcoxon 1945) on d = a - b: W = Σ_{d_i > 0} rank(|d_i|)
    for one-sided alternatives, min(W⁺, W⁻) for two-sided; computed by
    ``scipy.stats.wilcoxon`` (statistic and p-value are scipy's). ``zero_method``: "wilcox"
    drops zero differences, "pratt" ranks then drops them, "zsplit" splits their ranks.
    ``details``: n, zero_method, correction, method, alternative."""
    where = "wilcoxon"
    d = _difference(a, b, where, min_n=1)
    zero_method = _choice(zero_method, _ZERO_METHODS, "zero_method", where)
    method = _choice(method, _WILCOXON_METHODS, "method", where)
    alternative = _choice(alternative, ALTERNATIVES, "alternative", where)
    stat, p = _wilcoxon_rows(d[None, :], zero_method, bool(correction), method, alternative)
    details = {
        "n": int(d.shape[0]),
        "zero_method": zero_method,
        "correction": bool(correction),
        "method": method,
        "alternative": alternative,
    }
    return TestResult(float(stat[0]), float(p[0]), None, "Wilcoxon signed-rank test", details)


def _sign_pvalues(wins: NDArray[Any], losses: NDArray[Any], alternative: str) -> FloatArray:
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


def sign_test(a: ArrayLike, b: ArrayLike, alternative: str = "two-sided") -> TestResult:
    """Sign test (Dixon & Mood 1946): ties (a_i = b_i) dropped, wins W = #{a_i > b_i} against
    losses L = #{a_i < b_i}; exact binomial test of W ~ Bin(W + L, 1/2). Two-sided
    p = min(1, 2 · P(X ≤ min(W, L))) (equal to ``scipy.stats.binomtest``'s, the distribution
    being symmetric). With no non-tied pair there is no evidence either way: p = 1.
    ``statistic`` is W; ``details``: wins, ties, losses, alternative."""
    where = "sign_test"
    d = _difference(a, b, where, min_n=1)
    alternative = _choice(alternative, ALTERNATIVES, "alternative", where)
    wins, losses = int(np.count_nonzero(d > 0)), int(np.count_nonzero(d < 0))
    p = _sign_pvalues(np.array([wins]), np.array([losses]), alternative)
    details = {
        "wins": wins,
        "ties": int(d.shape[0]) - wins - losses,
        "losses": losses,
        "alternative": alternative,
    }
    return TestResult(float(wins), float(p[0]), None, "sign test", details)


def paired_bootstrap_test(
    a: ArrayLike,
    b: ArrayLike,
    n_resamples: int = 10000,
    seed: int = 0,
    alternative: str = "two-sided",
    confidence: float = 0.95,
) -> TestResult:
    """Paired bootstrap test of mean(d) = 0, d = a - b (Efron & Tibshirani 1993, §16.4;
    Sakai 2006): resample the items with replacement B times; with d̄* the resampled mean,
    the null distribution is d̄* - d̄ (the differences shifted to mean 0) and
    p = (#{|d̄* - d̄| ≥ |d̄|} + 1) / (B + 1) (one-sided: ≥ d̄ or ≤ d̄).

    ``ci`` is the percentile interval (q(α/2), q(1-α/2)) of d̄*. ``statistic`` is d̄.
    ``details``: n_resamples, seed, alternative, confidence.
    """
    where = "paired_bootstrap_test"
    d = _difference(a, b, where, min_n=2)
    n_resamples = _count(n_resamples, "n_resamples", where)
    seed = _seed(seed, where)
    alternative = _choice(alternative, ALTERNATIVES, "alternative", where)
    confidence = _confidence(confidence, where)
    p, means = _bootstrap_null_pvalues(d[None, :], n_resamples, seed, alternative)
    theta = d.mean(keepdims=True)
    low, high = _interval(means, theta, "percentile", confidence, None, 0.0)
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "alternative": alternative,
        "confidence": confidence,
    }
    return TestResult(
        float(theta[0]),
        float(p[0]),
        (float(low[0]), float(high[0])),
        "paired bootstrap test (mean)",
        details,
    )


def paired_pvalues(
    diffs: ArrayLike,
    test: str = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    alternative: str = "two-sided",
) -> FloatArray:
    """p-values of m paired comparisons at once: ``diffs`` is (m, n), one row of per-item
    differences a - b per comparison, all over the same n items.

    ``test``: "randomization" (sign-flip test of the mean, as :func:`randomization_test`),
    "t" (:func:`ttest`), "wilcoxon" (:func:`wilcoxon` with its defaults), "sign"
    (:func:`sign_test`) or "bootstrap" (:func:`paired_bootstrap_test`). Each row's p-value is
    the one the single-pair function gives with the same ``seed``: the randomization and
    bootstrap tests share one sign (resample) matrix across the rows (common random numbers),
    and compute the resampled statistics of all rows as one matrix product per block.
    """
    from scipy import stats

    where = "paired_pvalues"
    test = _choice(test, PAIRED_TESTS, "test", where)
    min_n = 2 if test in ("t", "bootstrap") else 1
    d = _matrix(diffs, "diffs", where, min_n=min_n)
    n_resamples = _count(n_resamples, "n_resamples", where)
    seed = _seed(seed, where)
    alternative = _choice(alternative, ALTERNATIVES, "alternative", where)
    if d.shape[0] == 0:
        return np.zeros(0, dtype=np.float64)
    if test == "randomization":
        return _signflip_pvalues(d, n_resamples, seed, alternative)[0]
    if test == "bootstrap":
        return _bootstrap_null_pvalues(d, n_resamples, seed, alternative)[0]
    if test == "t":
        with warnings.catch_warnings():  # constant rows: ±inf or NaN, as ttest
            warnings.simplefilter("ignore", RuntimeWarning)
            res = stats.ttest_1samp(d, 0.0, axis=1, alternative=alternative)
        return np.asarray(res.pvalue, dtype=np.float64).reshape(d.shape[0])
    if test == "wilcoxon":
        return _wilcoxon_rows(d, "wilcox", False, "auto", alternative)[1]
    wins, losses = np.count_nonzero(d > 0, axis=1), np.count_nonzero(d < 0, axis=1)
    return _sign_pvalues(wins, losses, alternative)


# ----------------------------------------------------------------------------- bootstrap CIs


def bootstrap_ci(
    x: ArrayLike | tuple[ArrayLike, ...],
    statistic: Callable[..., Any] = np.mean,
    n_resamples: int = 10000,
    seed: int = 0,
    method: str = "bca",
    confidence: float = 0.95,
) -> TestResult:
    """Bootstrap confidence interval of ``statistic`` (Efron & Tibshirani 1993): resample the
    n items with replacement B times, θ*_b = statistic(resample b), θ̂ = statistic(x).

    - percentile: (q(α/2), q(1-α/2)) of θ* (linear interpolation, numpy's default);
    - basic: (2θ̂ - q(1-α/2), 2θ̂ - q(α/2));
    - bca (default): percentile at bias-corrected and accelerated levels, z₀ from the share of
      θ* below θ̂ (ties count one half) and the acceleration from the jackknife (ch. 14).

    ``x`` is one sample (a 1-D array), or a tuple of equally long samples resampled jointly
    (pairs stay together); ``statistic`` then takes them all: ``statistic(a, b)``. A
    ``statistic`` with an ``axis`` parameter is called once per block on (resamples × n)
    arrays with ``axis=-1``; otherwise row by row. With the same seed the resample indices are
    those of ``scipy.stats.bootstrap(..., rng=np.random.default_rng(seed))``. A degenerate
    distribution (every θ* equal to θ̂) gives the interval (θ̂, θ̂) (scipy: NaN for BCa).

    Returns ``statistic`` = θ̂, ``pvalue`` = NaN, ``ci`` = (low, high); ``details``:
    n_resamples, seed, method, confidence, standard_error (sd of θ*, ddof=1).
    """
    where = "bootstrap_ci"
    n_resamples = _count(n_resamples, "n_resamples", where)
    seed = _seed(seed, where)
    method = _choice(method, BOOTSTRAP_METHODS, "method", where)
    confidence = _confidence(confidence, where)
    if not callable(statistic):
        raise InputError(f"{where}: statistic must be callable (got {statistic!r})")
    if isinstance(x, tuple):
        if x and all(np.ndim(s) == 0 for s in x):
            raise InputError(
                f"{where}: a tuple is read as paired samples, but its elements are numbers; "
                "pass one sample as a list or an array"
            )
        if not x:
            raise InputError(f"{where}: x is an empty tuple; give one sample or a tuple of samples")
        samples = [_vector(s, f"x[{i}]", where, min_n=2) for i, s in enumerate(x)]
        lengths = {s.shape[0] for s in samples}
        if len(lengths) != 1:
            raise InputError(
                f"{where}: paired samples must have the same length (got "
                f"{', '.join(str(s.shape[0]) for s in samples)})"
            )
    else:
        samples = [_vector(x, "x", where, min_n=2)]
    n = samples[0].shape[0]
    details: dict[str, Any] = {
        "n_resamples": n_resamples,
        "seed": seed,
        "method": method,
        "confidence": confidence,
    }

    if len(samples) == 1 and statistic is np.mean:
        row = samples[0][None, :]
        theta = row.mean(axis=1)
        dist = _bootstrap_means(row, n_resamples, seed)
        accel = _acceleration(_mean_jackknife(row)) if method == "bca" else None
        tol = _tolerance(n, np.abs(row).max(axis=1))
    else:
        vectorised = _accepts_axis(statistic)
        theta_value = _call(statistic, samples, vectorised, where, axis=-1)
        if not math.isfinite(theta_value):
            raise InputError(f"{where}: statistic of the data is {theta_value}")
        theta = np.array([theta_value])
        parts = [
            _apply_rows(statistic, [s[idx] for s in samples], vectorised, where)
            for idx in _index_blocks(seed, n, n_resamples)
        ]
        dist = np.concatenate(parts)[:, None]
        accel = None
        if method == "bca":
            jack = _jackknife(statistic, samples, vectorised, where)
            accel = _acceleration(jack[None, :])
        tol = _tolerance(n, np.abs(theta))
    low, high = _interval(dist, theta, method, confidence, accel, tol)
    details["standard_error"] = float(np.std(dist[:, 0], ddof=1)) if n_resamples > 1 else math.nan
    return TestResult(
        float(theta[0]),
        math.nan,
        (float(low[0]), float(high[0])),
        f"bootstrap {method} confidence interval",
        details,
    )


def _jackknife(
    statistic: Callable[..., Any], samples: list[FloatArray], vectorised: bool, where: str
) -> FloatArray:
    """Leave-one-out values θ_(i) of ``statistic``, item i removed from every sample."""
    n = samples[0].shape[0]
    cols = np.arange(n - 1)
    out = []
    step = _block_rows(n)
    for start in range(0, n, step):
        drop = np.arange(start, min(n, start + step))
        idx = cols[None, :] + (cols[None, :] >= drop[:, None])
        out.append(_apply_rows(statistic, [s[idx] for s in samples], vectorised, where))
    return np.concatenate(out)


def bootstrap_mean_ci(
    x: ArrayLike,
    n_resamples: int = 10000,
    seed: int = 0,
    method: str = "bca",
    confidence: float = 0.95,
) -> tuple[FloatArray, FloatArray]:
    """Bootstrap confidence intervals of the mean of every row of ``x`` (m, n) at once, with
    one resample-index matrix shared by the rows; the resampled means of all rows are one
    matrix product per block (resample counts @ x.T / n). Row j's interval equals
    ``bootstrap_ci(x[j], np.mean, n_resamples, seed, method, confidence).ci``. BCa uses the
    closed-form jackknife of the mean, θ_(i) = (Σx - x_i) / (n - 1).

    Returns ``(low, high)``, two arrays of length m. With a single item (n = 1) no interval
    is defined and both are NaN (:func:`bootstrap_ci` raises instead), so that a batch of
    rows grouped by length can be passed as it comes.
    """
    where = "bootstrap_mean_ci"
    data = _matrix(x, "x", where, min_n=1)
    n_resamples = _count(n_resamples, "n_resamples", where)
    seed = _seed(seed, where)
    method = _choice(method, BOOTSTRAP_METHODS, "method", where)
    confidence = _confidence(confidence, where)
    if data.shape[0] == 0:
        return np.zeros(0), np.zeros(0)
    if data.shape[1] == 1:
        return np.full(data.shape[0], np.nan), np.full(data.shape[0], np.nan)
    theta = data.mean(axis=1)
    dist = _bootstrap_means(data, n_resamples, seed)
    accel = _acceleration(_mean_jackknife(data)) if method == "bca" else None
    tol = _tolerance(data.shape[1], np.abs(data).max(axis=1))
    return _interval(dist, theta, method, confidence, accel, tol)


# ----------------------------------------------------------------------------- many systems


@dataclass(frozen=True, eq=False)
class TukeyHSDResult:
    """Result of :func:`tukey_hsd`.

    - ``names``: the k system names, in column order;
    - ``means``: mean score of each system (k,);
    - ``pvalues``: (k, k) symmetric matrix of pairwise p-values, 1 on the diagonal;
    - ``pairs``: one ``(i, j, diff, p)`` per pair i < j, ``diff = means[i] - means[j]``;
    - ``details``: n_resamples, seed, n_items.

    ``result.pvalue("bm25", "dense")`` looks a pair up by names (or column indices).
    """

    names: tuple[str, ...]
    means: FloatArray
    pvalues: FloatArray
    pairs: tuple[tuple[int, int, float, float], ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def pvalue(self, first: str | int, second: str | int) -> float:
        """The p-value of one pair, given by names or column indices."""
        i, j = (self._index(s) for s in (first, second))
        return float(self.pvalues[i, j])

    def _index(self, system: str | int) -> int:
        if isinstance(system, str):
            if system not in self.names:
                raise InputError(f"tukey_hsd: unknown system {system!r}; known: {list(self.names)}")
            return self.names.index(system)
        k = len(self.names)
        if not -k <= int(system) < k:
            raise InputError(f"tukey_hsd: system index {system} out of range for {k} systems")
        return int(system) % k


def _permutation_digit_groups(k: int) -> list[list[int]]:
    """Fisher–Yates radices k, k-1, ..., 2 grouped so that each group's product fits one
    random int64 (one draw per item and group, decoded by successive divmod)."""
    groups: list[list[int]] = []
    current: list[int] = []
    product = 1
    for radix in range(k, 1, -1):
        if product * radix > (1 << 62):
            groups.append(current)
            current, product = [], 1
        current.append(radix)
        product *= radix
    if current:
        groups.append(current)
    return groups


def _permuted_column_sums(x: FloatArray, n_resamples: int, seed: int) -> Iterator[FloatArray]:
    """Blocks (rows, k) of column sums of ``x`` (n, k) after independently permuting every row,
    by a vectorised Fisher–Yates shuffle (position j swapped with a uniform position ≤ j)."""
    n, k = x.shape
    rng = np.random.default_rng(seed)
    groups = _permutation_digit_groups(k)
    step = _block_rows(n * k, _TUKEY_BLOCK_ELEMENTS)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        rn = rows * n
        y = np.broadcast_to(x.T[:, None, :], (k, rows, n)).reshape(-1).copy()
        base = np.arange(rn, dtype=np.int64)
        for group in groups:
            u = rng.integers(0, math.prod(group), size=rn, dtype=np.int64)
            for radix in group:
                j = radix - 1
                u, r = np.divmod(u, radix)
                src = r * rn + base
                own = y[j * rn : (j + 1) * rn].copy()
                y[j * rn : (j + 1) * rn] = y[src]
                y[src] = own
        yield y.reshape(k, rows, n).sum(axis=2).T


def tukey_hsd(
    scores: ArrayLike | Mapping[str, ArrayLike],
    n_resamples: int = 10000,
    seed: int = 0,
    names: Sequence[str] | None = None,
) -> TukeyHSDResult:
    """Randomised Tukey HSD test of all pairs of k systems (Carterette 2012, "Multiple testing
    in statistical analysis of systems-based information retrieval experiments", ACM TOIS
    30(1)).

    ``scores`` is an (n_items, k) array (one column per system; ``names`` default to "0",
    "1", ...) or a mapping name → per-item vector. Each resample permutes the k values within
    every item (row) independently, and records the range max_c mean*_c - min_c mean*_c of
    the column means. The p-value of pair (i, j) is
    p_ij = (#{range* ≥ |mean_i - mean_j|} + 1) / (B + 1): the max statistic controls the
    family-wise error rate over all pairs. See :class:`TukeyHSDResult` for the result.
    """
    where = "tukey_hsd"
    if isinstance(scores, Mapping):
        if names is not None:
            raise InputError(f"{where}: names are taken from the mapping's keys; do not pass names")
        labels = [str(key) for key in scores]
        columns = [_vector(v, f"scores[{key!r}]", where) for key, v in scores.items()]
        if len({c.shape[0] for c in columns}) > 1:
            raise InputError(
                f"{where}: every system needs one score per item (lengths: "
                f"{', '.join(f'{k}={c.shape[0]}' for k, c in zip(labels, columns, strict=True))})"
            )
        x = np.column_stack(columns) if columns else np.zeros((0, 0))
    else:
        x = _matrix(scores, "scores", where)
        labels = [str(i) for i in range(x.shape[1])] if names is None else [str(s) for s in names]
        if len(labels) != x.shape[1]:
            raise InputError(
                f"{where}: {len(labels)} names for {x.shape[1]} systems (columns of scores)"
            )
    if len(set(labels)) != len(labels):
        raise InputError(f"{where}: system names must be distinct (got {labels})")
    n, k = x.shape
    if k < 2:
        raise InputError(f"{where}: needs at least 2 systems (got {k})")
    if n < 1:
        raise InputError(f"{where}: needs at least 1 item")
    n_resamples = _count(n_resamples, "n_resamples", where)
    seed = _seed(seed, where)

    sums = x.sum(axis=0)
    tol = _tolerance(n, np.abs(x).max(axis=1).sum())
    ranges = np.concatenate(
        [s.max(axis=1) - s.min(axis=1) for s in _permuted_column_sums(x, n_resamples, seed)]
    )
    ranges.sort()
    observed = np.abs(sums[:, None] - sums[None, :])
    at_least = ranges.shape[0] - np.searchsorted(ranges, observed - tol, side="left")
    pvalues = (at_least + 1.0) / (n_resamples + 1.0)
    np.fill_diagonal(pvalues, 1.0)
    means = sums / n
    pairs = tuple(
        (i, j, float(means[i] - means[j]), float(pvalues[i, j]))
        for i in range(k)
        for j in range(i + 1, k)
    )
    details = {"n_resamples": n_resamples, "seed": seed, "n_items": n}
    return TukeyHSDResult(tuple(labels), means, pvalues, pairs, details)


def stratified_shuffling_test(
    outputs_a: Sequence[Any] | NDArray[Any],
    outputs_b: Sequence[Any] | NDArray[Any],
    statistic: Callable[..., Any],
    n_resamples: int = 10000,
    seed: int = 0,
) -> TestResult:
    """Approximate randomization test for corpus-level statistics that are not means of
    per-item values (F1, BLEU, ...) (Noreen 1989; Yeh 2000, "More accurate tests for the
    statistical significance of result differences"; Padó 2006, sigf).

    ``outputs_a`` and ``outputs_b`` hold one record per item (equal lengths). Each resample
    swaps the two systems' records on a random subset of items (each item with probability
    1/2) and recomputes both statistics; p = (#{|S*_a - S*_b| ≥ |S_a - S_b|} + 1) / (N + 1).

    ``statistic`` receives the records as given: numeric NumPy arrays stay arrays (item axis
    first), anything else is passed as a list. With arrays, a ``statistic`` that has an
    ``axis`` parameter is called once per block on the stacked (resamples × n × ...) array
    with ``axis=1`` (the item axis) and must return one value per resample; otherwise it is
    called once per resample and side (a Python loop). The swap pattern of resample r is
    the flip pattern of :func:`randomization_test` with the same seed, so with
    ``statistic=np.mean`` both tests agree. ``statistic`` = S_a - S_b; ``details``:
    n_resamples, seed, statistic_a, statistic_b.
    """
    where = "stratified_shuffling_test"
    if not callable(statistic):
        raise InputError(f"{where}: statistic must be callable (got {statistic!r})")
    n_resamples = _count(n_resamples, "n_resamples", where)
    seed = _seed(seed, where)
    arrays = (
        isinstance(outputs_a, np.ndarray)
        and isinstance(outputs_b, np.ndarray)
        and outputs_a.dtype != object
        and outputs_b.dtype != object
    )
    if arrays:
        out_a, out_b = np.asarray(outputs_a), np.asarray(outputs_b)
        if out_a.ndim == 0 or out_a.shape != out_b.shape:
            raise InputError(
                f"{where}: outputs_a and outputs_b must be arrays of the same shape with the "
                f"items along the first axis (got {out_a.shape} and {out_b.shape})"
            )
        n = out_a.shape[0]
    else:
        list_a, list_b = list(outputs_a), list(outputs_b)
        if len(list_a) != len(list_b):
            raise InputError(
                f"{where}: outputs_a and outputs_b must have one record per item each "
                f"(got {len(list_a)} and {len(list_b)})"
            )
        n = len(list_a)
    if n < 1:
        raise InputError(f"{where}: needs at least 1 item")

    vectorised = arrays and _accepts_axis(statistic)
    if arrays:
        stat_a = _call(statistic, [out_a], vectorised, where, axis=0)
        stat_b = _call(statistic, [out_b], vectorised, where, axis=0)
    else:
        stat_a = _scalar(statistic(list_a), where, "statistic")
        stat_b = _scalar(statistic(list_b), where, "statistic")
    if not (math.isfinite(stat_a) and math.isfinite(stat_b)):
        raise InputError(f"{where}: statistic of the outputs is not finite ({stat_a}, {stat_b})")
    observed = stat_a - stat_b
    tol = _tolerance(n, max(abs(observed), abs(stat_a), abs(stat_b)))

    count = 0
    if arrays:
        extra = (1,) * (out_a.ndim - 1)
        for bits in _flip_blocks(seed, n, n_resamples):
            swap = bits.astype(bool).reshape(bits.shape + extra)
            side_a = np.where(swap, out_b, out_a)
            side_b = np.where(swap, out_a, out_b)
            values_a = _apply_rows(statistic, [side_a], vectorised, where, axis=1)
            values_b = _apply_rows(statistic, [side_b], vectorised, where, axis=1)
            count += int(_exceed(values_a - values_b, observed, tol, "two-sided"))
    else:
        obj_a, obj_b = np.empty(n, dtype=object), np.empty(n, dtype=object)
        for i in range(n):
            obj_a[i], obj_b[i] = list_a[i], list_b[i]
        for bits in _flip_blocks(seed, n, n_resamples):
            swap = bits.astype(bool)
            values = np.array(
                [
                    _scalar(statistic(np.where(s, obj_b, obj_a).tolist()), where, "statistic")
                    - _scalar(statistic(np.where(s, obj_a, obj_b).tolist()), where, "statistic")
                    for s in swap
                ],
                dtype=np.float64,
            )
            count += int(_exceed(values, observed, tol, "two-sided"))
    p = (count + 1.0) / (n_resamples + 1.0)
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "statistic_a": stat_a,
        "statistic_b": stat_b,
    }
    return TestResult(observed, float(p), None, "stratified shuffling test", details)


# ----------------------------------------------------------------------------- corrections, effect size


def correct(pvalues: ArrayLike, method: str = "holm") -> FloatArray:
    """Adjust p-values for multiple comparisons; same shape and order as the input.

    With the m p-values sorted increasingly, p_(1) ≤ ... ≤ p_(m):

    - "bonferroni": min(1, m · p_i) (family-wise error rate);
    - "holm" (Holm 1979): p̃_(i) = max_{j ≤ i} min(1, (m - j + 1) · p_(j)) (FWER, uniformly
      more powerful than Bonferroni);
    - "bh" or "fdr_bh" (Benjamini & Hochberg 1995): p̃_(i) = min_{j ≥ i} min(1, m / j · p_(j))
      (false discovery rate, independent or positively dependent tests);
    - "none": unchanged.

    NaN p-values (an undefined test) stay NaN and are not counted in m. Values outside
    [0, 1] raise InputError. Equal to statsmodels' ``multipletests``.
    """
    where = "correct"
    method = _choice(method, CORRECTIONS, "method", where)
    try:
        p = np.array(pvalues, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: p-values must be numeric ({exc})") from None
    valid = ~np.isnan(p)
    if ((p[valid] < 0) | (p[valid] > 1)).any():
        raise InputError(f"{where}: p-values must lie in [0, 1]")
    flat = p.reshape(-1)
    keep = np.flatnonzero(valid.reshape(-1))
    m = keep.shape[0]
    if method == "none" or m == 0:
        return p
    values = flat[keep]
    if method == "bonferroni":
        adjusted = np.minimum(1.0, values * m)
    else:
        order = np.argsort(values, kind="stable")
        ranked = values[order]
        rank = np.arange(1, m + 1, dtype=np.float64)
        if method == "holm":
            steps = np.maximum.accumulate(np.minimum(1.0, (m - rank + 1.0) * ranked))
        else:  # bh, fdr_bh
            steps = np.minimum.accumulate(np.minimum(1.0, m / rank * ranked)[::-1])[::-1]
        adjusted = np.empty(m, dtype=np.float64)
        adjusted[order] = steps
    flat[keep] = adjusted
    return flat.reshape(p.shape)


def cohens_d_paired(a: ArrayLike, b: ArrayLike) -> Any:
    """Paired effect size d_z = mean(d) / sd(d), d = a - b, sd with ddof=1 (Cohen 1988;
    Lakens 2013, "Calculating and reporting effect sizes", eq. 6).

    NaN when every d_i is equal (sd = 0, checked exactly rather than against a rounded sd):
    identical systems, or a constant shift, have no finite standardised effect. 1-D inputs
    give a float; (m, n) inputs give one value per row.
    """
    where = "cohens_d_paired"
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.ndim == 2 or y.ndim == 2:
        xm, ym = _matrix(x, "a", where, min_n=2), _matrix(y, "b", where, min_n=2)
        if xm.shape != ym.shape:
            raise InputError(
                f"{where}: a and b must have the same shape (got {xm.shape} and {ym.shape})"
            )
        d = xm - ym
        constant = np.ptp(d, axis=1) == 0
        with np.errstate(invalid="ignore", divide="ignore"):
            out = d.mean(axis=1) / d.std(axis=1, ddof=1)
        return np.where(constant, np.nan, out)
    d = _difference(x, y, where, min_n=2)
    if np.ptp(d) == 0:
        return math.nan
    return float(d.mean() / d.std(ddof=1))
