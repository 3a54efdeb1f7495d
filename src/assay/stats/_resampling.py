"""Resampling machinery shared by the paired tests, bootstrap intervals and Tukey HSD.

Conventions shared by every resampling procedure of :mod:`assay.stats`:

- Inputs are per-item scores (one value per query/topic/sentence), paired by position. They
  must be finite and of equal length; anything else raises :class:`~assay.errors.InputError`.
  A bad option (an unknown ``alternative``, ``ci_method`` or ``test``, a negative ``seed``,
  ``n_resamples`` < 1, ...) raises :class:`~assay.errors.OptionError`.
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
  sums before one final rounding (:func:`exact_slices`), so they do not depend on the BLAS
  or its threads either: the same seed gives the same bits.
- Memory does not grow with ``n_resamples``: p-values are counted block by block, and a
  bootstrap interval keeps the resampled statistics only up to :data:`IN_MEMORY_VALUES`
  values; beyond, it draws them again from the seed and selects the order statistics it
  needs exactly (:class:`Resampled`; two or three passes, so about that many times the time
  of drawing them once). The values are the same bits either way.
- Monte Carlo p-values are ``(c + 1) / (N + 1)`` (Phipson & Smyth 2010, "Permutation p-values
  should never be zero"); exact enumerations give ``c / N``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from ._checks import FloatArray

_EPS = float(np.finfo(np.float64).eps)
_BLOCK_ELEMENTS = 1 << 22  # entries of a resample matrix processed at once (32 MiB of float64)
_MAX_BLOCK_ROWS = 4096
#: Resampled statistics (n_resamples × rows) kept in memory for a bootstrap interval (32 MiB
#: of float64); beyond, they are drawn again from the seed for each pass (:class:`Resampled`).
IN_MEMORY_VALUES = 1 << 22

#: Row blocks of a (B, m) matrix of resampled statistics, the same values at every call.
Blocks = Callable[[], Iterator[FloatArray]]
Hook = Callable[[FloatArray], None]


# ----------------------------------------------------------------------------- user statistics


def accepts_axis(func: Callable[..., Any]) -> bool:
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


def scalar(value: Any, where: str, what: str) -> float:
    try:
        out = float(np.asarray(value, dtype=np.float64).reshape(()))
    except (TypeError, ValueError):
        raise InputError(f"{where}: {what} must return one number (got {value!r})") from None
    return out


def statistic_of(
    statistic: Callable[..., Any],
    samples: Sequence[NDArray[Any]],
    vectorised: bool,
    where: str,
    *,
    axis: int,
) -> float:
    """``statistic`` of the observed data (with ``axis`` when it takes one), as a float."""
    value = statistic(*samples, axis=axis) if vectorised else statistic(*samples)
    return scalar(value, where, "statistic")


def apply_rows(
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
        [scalar(statistic(*(b[r] for b in batches)), where, "statistic") for r in range(rows)],
        dtype=np.float64,
    )


def tolerance(n: int, scale: Any) -> Any:
    """Worst-case rounding error of a sum of ``n`` terms whose magnitudes add up to ``scale``."""
    return 8.0 * max(n, 1) * _EPS * np.abs(scale)


# ----------------------------------------------------------------------------- random streams


def block_rows(width: int, elements: int = _BLOCK_ELEMENTS) -> int:
    """Resamples per block for resamples of ``width`` entries (a function of the shape only)."""
    return int(max(1, min(_MAX_BLOCK_ROWS, elements // max(width, 1))))


def flip_blocks(seed: int, n: int, n_resamples: int) -> Iterator[NDArray[np.uint8]]:
    """Blocks of random 0/1 rows (1 = flip the sign / swap the item), ``n_resamples`` rows in
    all: row r is the low ``n`` bits of ``ceil(n / 32)`` consecutive 32-bit words drawn by
    ``default_rng(seed).integers(0, 2**32, dtype=uint32)``, little-endian bit order. The
    stream does not depend on the block size."""
    rng = np.random.default_rng(seed)
    words = (n + 31) // 32
    step = block_rows(n)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        w = rng.integers(0, 1 << 32, size=(rows, words), dtype=np.uint32)
        raw = w.astype("<u4", copy=False).view(np.uint8)
        yield np.unpackbits(raw, axis=1, count=n, bitorder="little")


def exact_flip_blocks(n: int) -> Iterator[NDArray[np.uint8]]:
    """All ``2**n`` flip vectors: row k flips item i when bit i of k is set (row 0: none)."""
    total = 1 << n
    shifts = np.arange(n, dtype=np.int64)
    step = block_rows(n)
    for start in range(0, total, step):
        k = np.arange(start, min(total, start + step), dtype=np.int64)
        yield ((k[:, None] >> shifts) & 1).astype(np.uint8)


def index_blocks(seed: int, n: int, n_resamples: int) -> Iterator[NDArray[np.integer[Any]]]:
    """Blocks of bootstrap index rows drawn by ``default_rng(seed).integers(0, n, (rows, n))``;
    concatenated, they equal one ``integers(0, n, (n_resamples, n))`` draw (int32 draws give
    the same values as the default int64 ones for n < 2**31, at half the cost)."""
    rng = np.random.default_rng(seed)
    step = block_rows(n)
    dtype = np.int32 if n < (1 << 31) else np.int64
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        yield rng.integers(0, n, size=(rows, n), dtype=dtype)


def resample_counts(idx: NDArray[np.integer[Any]], n: int) -> FloatArray:
    """How often each item occurs in each resample: (rows, n) counts as float64."""
    rows = idx.shape[0]
    flat = (idx + (np.arange(rows, dtype=np.int64) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)


# ----------------------------------------------------------------------------- counts, exact sums


def is_exact(n: int, n_resamples: int) -> bool:
    return n < 63 and (1 << n) <= n_resamples


def exceed(values: Any, observed: Any, tol: Any, alternative: str) -> NDArray[np.int64]:
    """Number of resampled ``values`` (first axis) at least as extreme as ``observed``."""
    if alternative == "two-sided":
        hit = np.abs(values) >= np.abs(observed) - tol
    elif alternative == "greater":
        hit = values >= observed - tol
    else:
        hit = values <= observed + tol
    return cast(NDArray[np.int64], np.count_nonzero(hit, axis=0))


def exact_slices(x: FloatArray) -> list[FloatArray]:
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


def mean_blocks(x: FloatArray, n_resamples: int, seed: int) -> Blocks:
    """The bootstrap distribution (B, m) of the mean of every row of ``x`` (m, n), as a
    function yielding its row blocks (the same values at every call): one shared
    resample-index matrix, means = counts @ x.T / n, the product computed exactly slice by
    slice (:func:`exact_slices`) so that the values do not depend on the BLAS, its number of
    threads or the number of rows m."""
    m, n = x.shape
    slices = exact_slices(x)
    stacked = np.concatenate(slices[::-1], axis=1)  # (n, K·m), smallest slice first

    def blocks() -> Iterator[FloatArray]:
        for idx in index_blocks(seed, n, n_resamples):
            exact = resample_counts(idx, n) @ stacked  # every entry exact: one product for all
            sums = exact[:, :m].copy()
            for k in range(1, len(slices)):
                sums += exact[:, k * m : (k + 1) * m]
            yield sums / n

    return blocks


# ----------------------------------------------------------------------------- bootstrap intervals


def quantile_ranks(b: int, q: FloatArray) -> tuple[Any, Any, Any, Any]:
    """Where the type-7 quantile at levels ``q`` reads a sorted column of ``b`` values: the
    ranks below and above, the interpolation weight, and which levels are defined."""
    valid = np.isfinite(q)
    h = (b - 1) * np.where(valid, np.clip(q, 0.0, 1.0), 0.0)
    lo = np.clip(np.floor(h).astype(np.intp), 0, b - 1)
    hi = np.minimum(lo + 1, b - 1)
    return lo, hi, h - lo, valid


def interpolate(low: FloatArray, high: FloatArray, t: Any, valid: Any) -> FloatArray:
    """Linear interpolation between the two order statistics (numpy's formula)."""
    diff = high - low
    out = np.where(t >= 0.5, high - diff * (1.0 - t), low + diff * t)
    return np.where(valid, out, np.nan)


def quantile_sorted(srt: FloatArray, q: FloatArray) -> FloatArray:
    """Linear-interpolation quantile (Hyndman & Fan type 7, numpy's default) of every column
    of the column-sorted ``srt`` (B, m) at its own level ``q[j]``; NaN levels give NaN."""
    b, m = srt.shape
    lo, hi, t, valid = quantile_ranks(b, q)
    cols = np.arange(m)
    return interpolate(srt[lo, cols], srt[hi, cols], t, valid)


def _levels(
    below: Any, at_or_below: Any, b: int, m: int, method: str, confidence: float, accel: Any
) -> tuple[FloatArray, FloatArray]:
    """The quantile levels of the interval's endpoints (BCa's adjusted ones, see
    :func:`interval`)."""
    from scipy.special import ndtr, ndtri

    alpha = (1.0 - confidence) / 2.0
    if method == "bca":
        a = accel if accel is not None else np.zeros(m)
        z0 = ndtri((below + at_or_below) / (2.0 * b))
        z_lo, z_hi = z0 + ndtri(alpha), z0 - ndtri(alpha)
        with np.errstate(invalid="ignore", divide="ignore"):
            q_lo = ndtr(z0 + z_lo / (1.0 - a * z_lo))
            q_hi = ndtr(z0 + z_hi / (1.0 - a * z_hi))
    else:
        q_lo, q_hi = np.full(m, alpha), np.full(m, 1.0 - alpha)
    return np.asarray(q_lo, dtype=np.float64), np.asarray(q_hi, dtype=np.float64)


def interval(
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
    b, m = dist.shape
    srt = np.sort(dist, axis=0)
    below = at_or_below = None
    if method == "bca":
        below = np.count_nonzero(dist < theta - tol, axis=0)
        at_or_below = np.count_nonzero(dist <= theta + tol, axis=0)
    q_lo, q_hi = _levels(below, at_or_below, b, m, method, confidence, accel)
    low = quantile_sorted(srt, q_lo)
    high = quantile_sorted(srt, q_hi)
    if method == "basic":
        low, high = 2.0 * theta - high, 2.0 * theta - low
    return low, high


class Resampled:
    """The resampled statistics (B, m) of one seeded procedure, given as ``blocks`` (a
    function yielding their row blocks, the same values at every call).

    Up to :data:`IN_MEMORY_VALUES` values (B·m) they are drawn once and kept; beyond, they
    are never held: each use draws them again from the seed, block by block, and an interval
    reads its order statistics by exact selection (:mod:`._selection`), so memory does not
    grow with B. Both ways give the same bits.
    """

    def __init__(self, blocks: Blocks, n_resamples: int, m: int):
        self.blocks = blocks
        self.n_resamples = n_resamples
        self.m = m
        self.dist: FloatArray | None = None
        if n_resamples * m <= IN_MEMORY_VALUES:
            self.dist = np.concatenate(list(blocks()), axis=0)

    def scan(self, hook: Hook) -> None:
        """Call ``hook`` on the values (all at once when held, else block by block)."""
        if self.dist is not None:
            hook(self.dist)
            return
        for block in self.blocks():
            hook(block)

    def interval(
        self,
        theta: FloatArray,
        method: str,
        confidence: float,
        accel: FloatArray | None,
        tol: Any,
        hook: Hook | None = None,
    ) -> tuple[FloatArray, FloatArray]:
        """:func:`interval` of the values; ``hook`` also sees them (in the same pass)."""
        if self.dist is not None:
            if hook is not None:
                hook(self.dist)
            return interval(self.dist, theta, method, confidence, accel, tol)
        from ._selection import order_statistics

        b, m = self.n_resamples, self.m
        below = np.zeros(m, dtype=np.int64)
        at_or_below = np.zeros(m, dtype=np.int64)
        reads: list[tuple[Any, Any, Any, Any]] = []

        def count(block: FloatArray) -> None:
            if hook is not None:
                hook(block)
            if method == "bca":
                below[:] += np.count_nonzero(block < theta - tol, axis=0)
                at_or_below[:] += np.count_nonzero(block <= theta + tol, axis=0)

        def targets(seen: int) -> tuple[np.ndarray, np.ndarray]:
            # BCa's levels from the resamples seen so far (a guess until all are seen).
            scale = b / seen
            levels = _levels(below * scale, at_or_below * scale, b, m, method, confidence, accel)
            found = [quantile_ranks(b, q) for q in levels]
            reads[:] = found  # the last call is the exact one
            cols = np.tile(np.arange(m), 4)
            return cols, np.concatenate([r for lo, hi, _, _ in found for r in (lo, hi)])

        found = order_statistics(self.blocks, m, b, targets, count).reshape(4, m)
        (_, _, t_lo, ok_lo), (_, _, t_hi, ok_hi) = reads
        low = interpolate(found[0], found[1], t_lo, ok_lo)
        high = interpolate(found[2], found[3], t_hi, ok_hi)
        if method == "basic":
            low, high = 2.0 * theta - high, 2.0 * theta - low
        return low, high


class Spread:
    """Sample standard deviation (ddof=1) of one column, accumulated block by block
    (Chan, Golub & LeVeque 1983's pairwise update of the mean and the sum of squares)."""

    def __init__(self, column: int = 0) -> None:
        self.column = column
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def __call__(self, block: FloatArray) -> None:
        x = block[:, self.column]
        nb = x.shape[0]
        if nb == 0:
            return
        mb = float(x.mean())
        m2b = float(((x - mb) ** 2).sum())
        total = self.n + nb
        delta = mb - self.mean
        self.mean += delta * nb / total
        self.m2 += m2b + delta * delta * self.n * nb / total
        self.n = total

    def std(self) -> float:
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else math.nan


def acceleration(jack: FloatArray) -> FloatArray:
    """BCa acceleration from jackknife values (m, n): a = Σ U³ / (6 (Σ U²)^{3/2}) with
    U_i = mean(θ_(·)) - θ_(i) (Efron & Tibshirani 1993, eq. 14.15); 0 when all U_i are 0."""
    u = jack.mean(axis=1, keepdims=True) - jack
    num = (u**3).sum(axis=1)
    den = (u**2).sum(axis=1) ** 1.5
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / (6.0 * np.where(den > 0, den, 1.0)), 0.0)


def mean_jackknife(x: FloatArray) -> FloatArray:
    """Leave-one-out means of every row of ``x`` (m, n): (sum - x_i) / (n - 1)."""
    n = x.shape[1]
    return cast(FloatArray, (x.sum(axis=1, keepdims=True) - x) / (n - 1))
