"""Bootstrap confidence intervals: of any statistic of one sample or of paired samples
(:func:`bootstrap_ci`), and of the means of many rows at once (:func:`bootstrap_mean_ci`).

Resamples are drawn as :mod:`assay.stats` draws them everywhere (see ``_resampling``): the
same seed gives the resample indices of ``scipy.stats.bootstrap`` and the same bits whatever
the number of threads.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._options import BootstrapMethod
from ..errors import InputError
from . import _checks as check
from . import _resampling as rs
from ._checks import FloatArray
from .result import StatResult

__all__ = ["bootstrap_ci", "bootstrap_mean_ci"]

#: The distribution of a statistic: (θ̂ (1,), θ* (B, 1), BCa acceleration or None, tolerance).
_Distribution = tuple[FloatArray, rs.Resampled, FloatArray | None, Any]


def bootstrap_ci(
    x: ArrayLike | tuple[ArrayLike, ...],
    statistic: Callable[..., ArrayLike] = np.mean,
    *,
    n_resamples: int = 10000,
    seed: int = 0,
    ci_method: BootstrapMethod = "bca",
    confidence: float = 0.95,
) -> StatResult:
    """Bootstrap confidence interval of ``statistic`` (Efron & Tibshirani 1993).

    Resample the n items with replacement B times, θ*_b = statistic(resample b),
    θ̂ = statistic(x). ``ci_method``:

    - percentile: (q(α/2), q(1-α/2)) of θ* (linear interpolation, numpy's default);
    - basic: (2θ̂ - q(1-α/2), 2θ̂ - q(α/2));
    - bca (default): percentile at bias-corrected and accelerated levels, z₀ from the share of
      θ* below θ̂ (ties count one half) and the acceleration from the jackknife (ch. 14).

    With the same seed the resample indices are those of
    ``scipy.stats.bootstrap(..., rng=np.random.default_rng(seed))``. A degenerate distribution
    (every θ* equal to θ̂) gives the interval (θ̂, θ̂) (scipy: NaN for BCa).

    Parameters
    ----------
    x : array_like or tuple of array_like
        One sample (1-D, n ≥ 2), or a tuple of equally long samples resampled jointly (pairs
        stay together).
    statistic : callable, default numpy.mean
        A function of the sample, or of all the samples of a tuple (``statistic(a, b)``). One
        with an ``axis`` parameter is called once per block on (resamples × n) arrays with
        ``axis=-1``; otherwise row by row.
    n_resamples : int, default 10000
        Bootstrap resamples B.
    seed : int, default 0
        Seed of the resample indices.
    ci_method : {"bca", "percentile", "basic"}, default "bca"
        How the interval is computed from θ*.
    confidence : float, default 0.95
        Level of the interval, in (0, 1).

    Returns
    -------
    StatResult
        ``statistic`` θ̂, ``pvalue`` NaN, ``ci`` (low, high); ``details``: n_resamples, seed,
        ci_method, confidence, standard_error (sd of θ*, ddof=1).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.stats import bootstrap_ci
    >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
    >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> res = bootstrap_ci(a, n_resamples=2000, seed=0)
    >>> print(f"{res.statistic:.4f} ({res.ci[0]:.4f}, {res.ci[1]:.4f})")
    0.4688 (0.4125, 0.5260)

    Paired samples, resampled together (here the ratio of their means):

    >>> def ratio(x, y):
    ...     return np.mean(x) / np.mean(y)
    >>> res = bootstrap_ci((a, b), ratio, n_resamples=2000, seed=0)
    >>> print(f"{res.statistic:.3f} ({res.ci[0]:.3f}, {res.ci[1]:.3f})")
    1.090 (1.047, 1.125)
    """
    where = "bootstrap_ci"
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    ci_method = check.option(ci_method, BootstrapMethod, "ci_method", where)
    confidence = check.confidence(confidence, where)
    if not callable(statistic):
        raise InputError(f"{where}: statistic must be callable (got {statistic!r})")
    samples = _samples(x, where)
    if len(samples) == 1 and statistic is np.mean:
        theta, dist, accel, tol = _mean_distribution(samples[0], n_resamples, seed, ci_method)
    else:
        theta, dist, accel, tol = _distribution(statistic, samples, n_resamples, seed, ci_method)
    spread = rs.Spread() if dist.dist is None else None
    low, high = dist.interval(theta, ci_method, confidence, accel, tol, spread)
    if dist.dist is not None:
        se = float(np.std(dist.dist[:, 0], ddof=1)) if n_resamples > 1 else math.nan
    else:  # not held in memory: accumulated block by block (equal up to rounding)
        se = spread.std() if spread is not None else math.nan
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "ci_method": ci_method,
        "confidence": confidence,
        "standard_error": se,
    }
    ci = (float(low[0]), float(high[0]))
    method = f"bootstrap {ci_method} confidence interval"
    return StatResult.of(float(theta[0]), math.nan, ci, method, details)


def _samples(x: ArrayLike | tuple[ArrayLike, ...], where: str) -> list[FloatArray]:
    """One sample, or the equally long samples of a tuple (resampled jointly)."""
    if not isinstance(x, tuple):
        return [check.vector(x, "x", where, min_n=2)]
    if x and all(np.ndim(s) == 0 for s in x):
        raise InputError(
            f"{where}: a tuple is read as paired samples, but its elements are numbers; "
            "pass one sample as a list or an array"
        )
    if not x:
        raise InputError(f"{where}: x is an empty tuple; give one sample or a tuple of samples")
    samples = [check.vector(s, f"x[{i}]", where, min_n=2) for i, s in enumerate(x)]
    if len({s.shape[0] for s in samples}) != 1:
        raise InputError(
            f"{where}: paired samples must have the same length (got "
            f"{', '.join(str(s.shape[0]) for s in samples)})"
        )
    return samples


def _mean_distribution(
    sample: FloatArray, n_resamples: int, seed: int, ci_method: str
) -> _Distribution:
    """The bootstrap distribution of the mean, by exact sums (and the closed-form jackknife)."""
    row = sample[None, :]
    theta = row.mean(axis=1)
    dist = rs.Resampled(rs.mean_blocks(row, n_resamples, seed), n_resamples, 1)
    accel = rs.acceleration(rs.mean_jackknife(row)) if ci_method == "bca" else None
    tol = rs.tolerance(sample.shape[0], np.abs(row).max(axis=1))
    return theta, dist, accel, tol


def _distribution(
    statistic: Callable[..., Any],
    samples: list[FloatArray],
    n_resamples: int,
    seed: int,
    ci_method: str,
) -> _Distribution:
    """The bootstrap distribution of a user statistic (with its jackknife for BCa)."""
    where = "bootstrap_ci"
    n = samples[0].shape[0]
    vectorised = rs.accepts_axis(statistic)
    theta_value = rs.statistic_of(statistic, samples, vectorised, where, axis=-1)
    if not math.isfinite(theta_value):
        raise InputError(f"{where}: statistic of the data is {theta_value}")
    theta = np.array([theta_value])

    def blocks() -> Iterator[FloatArray]:
        for idx in rs.index_blocks(seed, n, n_resamples):
            yield rs.apply_rows(statistic, [s[idx] for s in samples], vectorised, where)[:, None]

    dist = rs.Resampled(blocks, n_resamples, 1)
    accel = None
    if ci_method == "bca":
        accel = rs.acceleration(_jackknife(statistic, samples, vectorised, where)[None, :])
    return theta, dist, accel, rs.tolerance(n, np.abs(theta))


def _jackknife(
    statistic: Callable[..., Any], samples: list[FloatArray], vectorised: bool, where: str
) -> FloatArray:
    """Leave-one-out values θ_(i) of ``statistic``, item i removed from every sample."""
    n = samples[0].shape[0]
    cols = np.arange(n - 1)
    out = []
    step = rs.block_rows(n)
    for start in range(0, n, step):
        drop = np.arange(start, min(n, start + step))
        idx = cols[None, :] + (cols[None, :] >= drop[:, None])
        out.append(rs.apply_rows(statistic, [s[idx] for s in samples], vectorised, where))
    return np.concatenate(out)


def bootstrap_mean_ci(
    x: ArrayLike,
    *,
    n_resamples: int = 10000,
    seed: int = 0,
    ci_method: BootstrapMethod = "bca",
    confidence: float = 0.95,
) -> tuple[FloatArray, FloatArray]:
    """Bootstrap confidence intervals of the mean of every row of ``x`` at once.

    One resample-index matrix is shared by the rows; the resampled means of all rows are one
    matrix product per block (resample counts @ x.T / n). Row j's interval equals
    ``bootstrap_ci(x[j], ...).ci`` with the same options. BCa uses the closed-form jackknife of
    the mean, θ_(i) = (Σx - x_i) / (n - 1).

    Parameters
    ----------
    x : array_like
        (m, n) array: m rows of n values each.
    n_resamples : int, default 10000
        Bootstrap resamples B.
    seed : int, default 0
        Seed of the resample indices.
    ci_method : {"bca", "percentile", "basic"}, default "bca"
        How the intervals are computed (see :func:`bootstrap_ci`).
    confidence : float, default 0.95
        Level of the intervals, in (0, 1).

    Returns
    -------
    tuple of numpy.ndarray
        ``(low, high)``, two arrays of length m. With a single item (n = 1) no interval is
        defined and both are NaN (:func:`bootstrap_ci` raises instead), so that a batch of rows
        grouped by length can be passed as it comes.

    Examples
    --------
    >>> from assay.stats import bootstrap_ci, bootstrap_mean_ci
    >>> x = [[0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49],
    ...      [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]]
    >>> low, high = bootstrap_mean_ci(x, n_resamples=2000, seed=0)
    >>> print(low.round(4).tolist(), high.round(4).tolist())
    [0.4125, 0.3812] [0.526, 0.4712]
    >>> bool(low[1] == bootstrap_ci(x[1], n_resamples=2000, seed=0).ci[0])
    True
    """
    where = "bootstrap_mean_ci"
    data = check.matrix(x, "x", where, min_n=1)
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    ci_method = check.option(ci_method, BootstrapMethod, "ci_method", where)
    confidence = check.confidence(confidence, where)
    if data.shape[0] == 0:
        return np.zeros(0), np.zeros(0)
    if data.shape[1] == 1:
        return np.full(data.shape[0], np.nan), np.full(data.shape[0], np.nan)
    theta = data.mean(axis=1)
    dist = rs.Resampled(rs.mean_blocks(data, n_resamples, seed), n_resamples, data.shape[0])
    accel = rs.acceleration(rs.mean_jackknife(data)) if ci_method == "bca" else None
    tol = rs.tolerance(data.shape[1], np.abs(data).max(axis=1))
    return dist.interval(theta, ci_method, confidence, accel, tol)
