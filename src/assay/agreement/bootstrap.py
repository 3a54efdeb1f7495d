"""The bootstrap of Krippendorff's alpha (the agreement family): :func:`alpha_bootstrap` and
its result :class:`AlphaBootstrap`.

Resampling unit: the pairable units, drawn as multinomial counts over the distinct unit
patterns (see :func:`alpha_bootstrap`); alpha itself is computed as in
:mod:`assay.agreement.alpha`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import MAX_RESAMPLES, integer, number
from .._result import Result, provenance
from ..errors import MetricError
from ..metrics.labels import boolean
from . import alpha as _alpha
from ._ratings import FloatArray, Ratings, RatingsData, ratings, unit_counts
from .alpha import (
    AlphaResult,
    Distance,
    _alpha_from_counts,
    _delta,
    _expected_sum,
    _has_variation,
    _numeric_domain,
    _scores,
    level_option,
)

__all__ = ["AlphaBootstrap", "alpha_bootstrap"]


@dataclass(frozen=True, eq=False, repr=False)
class AlphaBootstrap(Result):
    """Bootstrap of Krippendorff's alpha. ``float()`` gives the point estimate.

    Built by :func:`alpha_bootstrap`. ``records()``: one row (point estimate, interval,
    probabilities).

    Parameters
    ----------
    result : AlphaResult
        Alpha of the data itself (the point estimate).
    ci : tuple of float
        The percentile interval at ``confidence``.
    confidence : float
        The level of ``ci``.
    probabilities : mapping of float to float
        Each threshold's share of resamples with alpha below it (Hayes & Krippendorff's q).
    n_resamples, seed : int
        The number of resamples and the seed that drew them.
    samples : numpy.ndarray
        The resampled alphas (NaN for resamples without variation, excluded from ``ci`` and
        ``probabilities``).
    method : str
        The resampling scheme, in words.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.agreement import alpha_bootstrap
    >>> bs = alpha_bootstrap([[1, 1], [2, 2], [3, 3], [1, 2]], n_resamples=100, seed=1)
    >>> bs.n_resamples, len(bs.samples), sorted(bs.probabilities)
    (100, 100, [0.667, 0.8])
    """

    result: AlphaResult
    ci: tuple[float, float]
    confidence: float
    probabilities: Mapping[float, float]
    n_resamples: int
    seed: int
    samples: FloatArray
    method: str = "bootstrap over pairable units (multinomial)"
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __float__(self) -> float:
        return float(self.result.alpha)

    @property
    def alpha(self) -> float:
        return self.result.alpha

    @property
    def band(self) -> str:
        return self.result.band

    def records(self) -> list[dict[str, Any]]:
        row: dict[str, Any] = {
            "measure": "krippendorff_alpha",
            "level": self.result.level,
            "value": self.alpha,
            "ci_low": self.ci[0],
            "ci_high": self.ci[1],
            "confidence": self.confidence,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
        }
        for t, p in self.probabilities.items():
            row[f"p_below_{t:g}"] = p
        return [row]


def _unit_patterns(r: Ratings) -> tuple[NDArray[np.int64], FloatArray]:
    """Distinct pairable units as padded rows of sorted value codes (-1 pads) and how many
    units share each row."""
    unit, code = r.unit, r.code
    m = np.bincount(unit, minlength=r.n_units)
    keep = m[unit] >= 2
    unit, code = unit[keep], code[keep]
    if len(unit) == 0:
        return np.zeros((0, 2), np.int64), np.zeros(0)
    order = np.lexsort((code, unit))
    unit, code = unit[order], code[order]
    _, start, size = np.unique(unit, return_index=True, return_counts=True)
    row = np.repeat(np.arange(len(start)), size)
    pos = np.arange(len(unit)) - np.repeat(start, size)
    mat = np.full((len(start), int(size.max())), -1, dtype=np.int64)
    mat[row, pos] = code
    pats, freq = np.unique(mat, axis=0, return_counts=True)
    return pats, freq.astype(np.float64)


@dataclass(frozen=True)
class _PatternModel:
    """Alpha of a resample as a function of how many times each distinct unit pattern was
    drawn: the pattern x value marginal counts ``marg`` and, except for ordinal data (whose
    distances depend on the resample's marginals), each pattern's observed disagreement."""

    level: str | Distance
    x: FloatArray
    valid: NDArray[np.bool_]  # (P, R): which slots of a pattern hold a value
    safe: NDArray[np.int64]  # (P, R): value codes, 0 in empty slots
    w: FloatArray  # (P,): 1 / (m_u - 1)
    marg: Any  # (P, V) counts, dense or scipy.sparse

    @classmethod
    def build(
        cls, pats: NDArray[np.int64], n_values: int, lv: str | Distance, x: FloatArray
    ) -> _PatternModel:
        P = pats.shape[0]
        valid = pats >= 0
        rows = np.repeat(np.arange(P), valid.sum(axis=1))
        marg: Any
        if P * n_values <= _alpha.BLOCK_VALUES:
            flat = np.bincount(rows * n_values + pats[valid], minlength=P * n_values)
            marg = flat.reshape(P, n_values).astype(float)
        else:
            from scipy import sparse

            marg = sparse.csr_matrix((np.ones(len(rows)), (rows, pats[valid])), shape=(P, n_values))
        w = 1.0 / (valid.sum(axis=1) - 1.0)
        return cls(lv, x, valid, np.where(valid, pats, 0), w, marg)

    @functools.cached_property
    def disagreement(self) -> FloatArray:
        """Per pattern: the sum over ordered pairs i != j of its values of delta, / (m - 1)."""
        P, R = self.safe.shape
        do_p = np.zeros(P)
        for i in range(R):
            for j in range(R):
                if i != j:
                    both = self.valid[:, i] & self.valid[:, j]
                    d = _delta(self.level, self.x[self.safe[:, i]], self.x[self.safe[:, j]])
                    do_p += np.where(both, d, 0.0)
        return do_p * self.w

    @property
    def chunk(self) -> int:
        """Resamples per block, bounding the memory of one block."""
        P, R = self.safe.shape
        width = P * (R if self.level == "ordinal" else 1)
        return int(max(1, _alpha.BLOCK_VALUES // max(width, len(self.x), 1)))

    def alphas(self, cnt: FloatArray) -> FloatArray:
        """Alpha of each resample; ``cnt`` is (b, P) draws per pattern."""
        n_c = np.asarray(self.marg.T @ cnt.T).T  # (b, V)
        n = n_c.sum(axis=1)
        if self.level == "ordinal":
            mid = _scores(self.level, self.x, n_c)  # (b, V) mid-ranks
            g = np.where(self.valid[None], mid[:, self.safe], 0.0)  # (b, P, R)
            cross = g.sum(axis=2) ** 2 - (g**2).sum(axis=2)  # sum_{i != j} M_i M_j
            obs = 2.0 * (n_c * mid**2).sum(axis=1) - 2.0 * (cnt * self.w * cross).sum(axis=1)
        else:
            obs = cnt @ self.disagreement
        exp = _expected_sum(self.level, self.x, n_c)
        with np.errstate(invalid="ignore", divide="ignore"):
            d_o = obs / n
            d_e = exp / (n * (n - 1.0))
            return np.where(_has_variation(self.level, d_e, n_c), 1.0 - d_o / d_e, np.nan)


def _resampled_alphas(
    model: _PatternModel, freq: FloatArray, n_resamples: int, seed: int
) -> FloatArray:
    """Alphas of ``n_resamples`` multinomial draws of the units, from one seeded stream."""
    n_units = int(freq.sum())
    prob = freq / freq.sum()
    rng = np.random.default_rng(seed)
    out = np.empty(n_resamples)
    chunk = model.chunk
    for start in range(0, n_resamples, chunk):
        b = min(chunk, n_resamples - start)
        cnt = rng.multinomial(n_units, prob, size=b).astype(np.float64)
        out[start : start + b] = model.alphas(cnt)
    return out


def _percentile_summary(
    samples: FloatArray, confidence: float, thresholds: Sequence[float]
) -> tuple[tuple[float, float], dict[float, float]]:
    """Percentile interval and P(alpha < t) over the defined resamples."""
    ok = samples[~np.isnan(samples)]
    if not len(ok):
        return (math.nan, math.nan), {float(t): math.nan for t in thresholds}
    lo, hi = np.quantile(ok, [(1 - confidence) / 2, (1 + confidence) / 2])
    return (float(lo), float(hi)), {float(t): float((ok < t).mean()) for t in thresholds}


def _thresholds(value: Any) -> tuple[float, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence | np.ndarray):
        raise MetricError(
            f"thresholds must be a sequence of numbers, got {value!r}", option="thresholds"
        )
    return tuple(number(t, "thresholds", error=MetricError) for t in value)


def alpha_bootstrap(
    data: RatingsData,
    *,
    level: str | Distance = "nominal",
    n_resamples: int = 1000,
    seed: int = 0,
    thresholds: Sequence[float] = (0.667, 0.8),
    confidence: float = 0.95,
    counts: bool = False,
    values: ArrayLike | None = None,
) -> AlphaBootstrap:
    """Bootstrap confidence interval for Krippendorff's alpha and P(alpha < threshold).

    Resampling unit: the **pairable units** (a cluster bootstrap, keeping each unit's values
    together), not Hayes & Krippendorff's (2007) resampling of pairable values. Drawing N
    units with replacement is drawn exactly as multinomial counts over the distinct unit
    patterns (rows of the units × values count matrix), so the cost grows with the number of
    distinct patterns, not of units; alpha of every resample is then computed from the
    pattern-weighted coincidence matrix, vectorised over resamples in chunks. The draws come
    from one ``numpy.random.default_rng(seed)`` stream in a fixed order: results depend on
    ``seed`` only (not on threads or chunking). ``ci`` is the percentile interval; resamples
    without variation (D_e = 0) give NaN and are left out.

    Parameters
    ----------
    data, level, counts, values
        The ratings and their level, as for :func:`krippendorff_alpha`.
    n_resamples : int
        Bootstrap resamples.
    seed : int
        Seed of the resampling (same seed, same numbers).
    thresholds : sequence of float
        The alphas whose probability P(alpha < threshold) is estimated.
    confidence : float
        Level of the percentile interval.

    Returns
    -------
    AlphaBootstrap
        The point estimate (``result``), ``ci``, ``probabilities`` and the resampled alphas.

    Examples
    --------
    >>> from assay.agreement import alpha_bootstrap
    >>> bs = alpha_bootstrap([[1, 1], [2, 2], [3, 3], [1, 2], [2, 2]], n_resamples=200)
    >>> bs.ci[0] <= bs.alpha <= bs.ci[1]
    True
    """
    where = "alpha_bootstrap"
    n_resamples = integer(
        n_resamples, "n_resamples", minimum=1, maximum=MAX_RESAMPLES, error=MetricError, where=where
    )
    seed = integer(seed, "seed", minimum=0, error=MetricError, where=where)
    confidence = number(
        confidence,
        "confidence",
        low=0,
        high=1,
        low_open=True,
        high_open=True,
        error=MetricError,
        where=where,
    )
    cuts = _thresholds(thresholds)
    lv = level_option(level)
    r = ratings(data, boolean("counts")(counts), values, where)
    point = _alpha_from_counts(unit_counts(r), r.domain, lv)
    pats, freq = _unit_patterns(r)
    model = _PatternModel.build(pats, len(r.domain), lv, _numeric_domain(r.domain, lv))
    samples = _resampled_alphas(model, freq, n_resamples, seed)
    ci, probs = _percentile_summary(samples, confidence, cuts)
    settings = provenance(
        measure="krippendorff_alpha",
        level=point.level,
        n_resamples=n_resamples,
        seed=seed,
        confidence=confidence,
        thresholds=list(cuts),
    )
    return AlphaBootstrap(
        result=point,
        ci=ci,
        confidence=confidence,
        probabilities=probs,
        n_resamples=n_resamples,
        seed=seed,
        samples=samples,
        provenance=settings,
    )
