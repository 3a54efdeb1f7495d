"""Krippendorff's alpha and its bootstrap (the agreement family).

:func:`krippendorff_alpha` follows Krippendorff, *Computing Krippendorff's Alpha-Reliability*
(2011). Values are factorised to codes over the value domain (the sorted distinct values), a
units × values count matrix ``n_uc`` is built with :func:`numpy.bincount` (or
:mod:`scipy.sparse` when units × values is large compared with the number of values given),
and the coincidence matrix is one matrix product::

    o_ck = sum_u (n_uc n_uk - [c == k] n_uc) / (m_u - 1)

over the *pairable* units (``m_u >= 2`` values; a unit with a single value is excluded, as
Krippendorff prescribes). With marginals ``n_c = sum_k o_ck`` and ``n = sum_c n_c``::

    D_o = sum_ck o_ck delta_ck / n,   D_e = sum_ck n_c n_k delta_ck / (n (n - 1)),
    alpha = 1 - D_o / D_e.

Distances (``delta_ck`` is the squared difference metric):

- ``nominal``: 0 if c = k else 1;
- ``ordinal``: ``(sum_{g=c..k} n_g - (n_c + n_k) / 2)^2`` (Krippendorff's cumulative marginal
  form), which equals ``(M_k - M_c)^2`` with the mid-rank ``M_c = sum_{g<=c} n_g - n_c / 2``;
- ``interval``: ``(c - k)^2``;
- ``ratio``: ``((c - k) / (c + k))^2`` (0 when c = k = 0);
- a callable ``f(c, k)`` taking two broadcastable arrays of domain values and returning
  distances (it must be 0 on the diagonal).

There is no per-unit Python loop. For nominal, ordinal and interval data ``D_e`` is computed
from the marginals' moments in O(V); for ratio and callables it is computed in row blocks of
the V × V distance matrix (O(V²) time, bounded memory).

**When D_e = 0** (every pairable value is the same: no variation), alpha is 0/0 —
Krippendorff calls the data uninformative. The result then has ``alpha = nan`` and
``defined = False``; it is never reported as 1.

Input layouts: see :mod:`assay.metrics._ratings` (wide units × raters, long (unit, rater,
value), or counts). Note that the ``krippendorff`` package takes raters × units: transpose
when porting code.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import MAX_RESAMPLES, choice, choices, integer, number
from .._result import Result, provenance
from ..errors import EmptyInputError, InputError, MetricError
from ..metrics.labels import boolean
from ..metrics.registry import FROM_SIGNATURE, Param, anything, measure
from ._ratings import FloatArray, Ratings, RatingsData, ratings, unit_counts
from .options import Level

__all__ = [
    "LEVELS",
    "AlphaBootstrap",
    "AlphaResult",
    "alpha_band",
    "alpha_bootstrap",
    "krippendorff_alpha",
]

Distance = Callable[[Any, Any], Any]

LEVELS: tuple[str, ...] = choices(Level)
_DENSE_COINCIDENCE = 2048  # domains up to this size keep a dense V x V coincidence matrix
_BLOCK = 1 << 22


# --------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True, eq=False, repr=False)
class AlphaResult(Result):
    """Krippendorff's alpha. ``float(result)`` is ``alpha``.

    ``observed`` and ``expected`` are D_o and D_e; ``coincidence`` is the V × V coincidence
    matrix over ``domain`` (a :mod:`scipy.sparse` matrix when V > 2048); ``marginals`` its
    row sums n_c; ``n_pairable`` the number n of pairable values; ``n_units`` the number of
    pairable units. ``defined`` is False when D_e = 0 (no variation; ``alpha`` is NaN).
    ``records()``: one row with the scalar fields.
    """

    alpha: float
    observed: float
    expected: float
    level: str
    domain: NDArray[Any]
    coincidence: Any
    marginals: FloatArray
    n_pairable: int
    n_units: int
    n_unpairable_units: int
    defined: bool
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return float(self.alpha)

    @property
    def value(self) -> float:
        """The coefficient (``alpha``), as every agreement result names it."""
        return self.alpha

    @property
    def band(self) -> str:
        """Krippendorff's interpretation: ``reliable``, ``tentative`` or ``unreliable``."""
        return alpha_band(self.alpha)

    def records(self) -> list[dict[str, Any]]:
        return [
            {
                "measure": "krippendorff_alpha",
                "level": self.level,
                "value": self.alpha,
                "observed": self.observed,
                "expected": self.expected,
                "n_pairable": self.n_pairable,
                "n_units": self.n_units,
                "n_unpairable_units": self.n_unpairable_units,
                "defined": self.defined,
                "band": self.band,
            }
        ]


@dataclass(frozen=True, eq=False, repr=False)
class AlphaBootstrap(Result):
    """Bootstrap of Krippendorff's alpha. ``float()`` gives the point estimate.

    ``ci`` is the percentile interval at ``confidence``; ``probabilities`` maps each threshold
    to the share of resamples with alpha below it (Hayes & Krippendorff's q); ``samples`` are
    the resampled alphas (NaN for resamples without variation, excluded from ``ci`` and
    ``probabilities``). ``records()``: one row (point estimate, interval, probabilities).
    """

    result: AlphaResult
    ci: tuple[float, float]
    confidence: float
    probabilities: Mapping[float, float]
    n_resamples: int
    seed: int
    samples: FloatArray
    method: str = "bootstrap over pairable units (multinomial)"
    provenance: Mapping[str, Any] = field(default_factory=dict)

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


def alpha_band(alpha: float) -> str:
    """Krippendorff's (2004) bands: α ≥ 0.800 ``reliable``; 0.667 ≤ α < 0.800 ``tentative``
    (tentative conclusions only); below 0.667 ``unreliable``; NaN ``undefined``."""
    if math.isnan(alpha):
        return "undefined"
    if alpha >= 0.8:
        return "reliable"
    if alpha >= 0.667:
        return "tentative"
    return "unreliable"


# --------------------------------------------------------------------------------------------
# options


def level_option(value: Any) -> str | Distance:
    """A level of measurement (any case) or a distance callable ``f(c, k)``."""
    if callable(value):
        return cast(Distance, value)
    return str(choice(value, Level, "level", ignore_case=True, error=MetricError))


LEVEL = Param(
    "level",
    FROM_SIGNATURE,
    level_option,
    "level of measurement: nominal, ordinal, interval, ratio, or a distance f(c, k)",
)
COUNTS = Param("counts", FROM_SIGNATURE, boolean("counts"), "data is a units × values count matrix")
VALUES = Param("values", None, anything, "the values of the count columns (with counts=True)")


# --------------------------------------------------------------------------------------------
# Krippendorff's alpha


def _numeric_domain(domain: NDArray[Any], level: str | Distance) -> FloatArray:
    if level == "nominal":
        return np.arange(len(domain), dtype=np.float64)
    try:
        x = np.asarray(domain, dtype=np.float64)
    except (TypeError, ValueError):
        name = level if isinstance(level, str) else "a callable"
        raise InputError(f"level {name} needs numeric values; got {domain[:3].tolist()}") from None
    if level == "ratio" and (x < 0).any():
        raise InputError("level ratio needs non-negative values")
    return x


def _delta(level: str | Distance, a: Any, b: Any) -> Any:
    """Distance between (broadcast) domain values a, b; for ordinal, a and b are mid-ranks."""
    if level == "nominal":
        return (a != b).astype(np.float64)
    if level in ("interval", "ordinal"):
        return (a - b) ** 2
    if level == "ratio":
        s = a + b
        with np.errstate(invalid="ignore", divide="ignore"):
            d = ((a - b) / s) ** 2
        return np.where(s == 0, 0.0, d)
    return np.asarray(level(a, b), dtype=np.float64)  # type: ignore[operator]


def _scores(level: str | Distance, x: FloatArray, n_c: Any) -> Any:
    """Positions used by the distance: mid-ranks for ordinal, values otherwise (last axis V)."""
    if level == "ordinal":
        return np.cumsum(n_c, axis=-1) - np.asarray(n_c) / 2.0
    return x


def _expected_sum(level: str | Distance, x: FloatArray, n_c: Any) -> Any:
    """sum_ck n_c n_k delta_ck; ``n_c`` may be a (b, V) stack of marginals."""
    n_c = np.asarray(n_c, dtype=np.float64)
    n = n_c.sum(axis=-1)
    if level == "nominal":
        return n * n - (n_c**2).sum(axis=-1)
    if level in ("interval", "ordinal"):
        s = _scores(level, x, n_c)
        mean = (n_c * s).sum(axis=-1, keepdims=True) / n[..., None]
        return 2.0 * n * (n_c * (s - mean) ** 2).sum(axis=-1)
    V = len(x)
    rows = max(1, _BLOCK // max(V, 1))
    total = np.zeros(n_c.shape[:-1])
    for i in range(0, V, rows):
        d = _delta(level, x[i : i + rows, None], x[None, :])
        total = total + np.einsum("...c,ck,...k->...", n_c[..., i : i + rows], d, n_c)
    return total


def _has_variation(level: str | Distance, d_e: Any, n_c: Any) -> Any:
    """Whether D_e > 0, decided exactly: for the built-in levels, whether at least two distinct
    values have a pairable occurrence (marginals are whole counts; rounding in the moment
    form leaves D_e ~ 1e-31 instead of 0 when every value is the same, which would make
    alpha = 1 - 0 / 1e-31 = 1). A custom distance may be 0 between distinct values: there the
    computed D_e decides."""
    if isinstance(level, str):
        return np.count_nonzero(np.asarray(n_c) > 0.5, axis=-1) >= 2
    return np.asarray(d_e) > 0


def _coincidence(counts: Any) -> tuple[Any, FloatArray, NDArray[np.bool_]]:
    """Coincidence matrix of a units x values count matrix, its weights 1/(m_u - 1) and the
    pairable-unit mask."""
    m = np.asarray(counts.sum(axis=1)).ravel()
    pairable = m >= 2
    w = np.zeros_like(m)
    w[pairable] = 1.0 / (m[pairable] - 1.0)
    V = counts.shape[1]
    if not isinstance(counts, np.ndarray):
        from scipy import sparse

        o = (counts.T @ sparse.diags(w) @ counts).tocsr()
        o = o - sparse.diags(np.asarray(counts.T @ w).ravel())
        o = o.tocsr()
        o.eliminate_zeros()
        if V <= _DENSE_COINCIDENCE:
            return o.toarray(), w, pairable
        return o, w, pairable
    cw = counts * w[:, None]
    o = cw.T @ counts
    o[np.diag_indices(V)] -= cw.sum(axis=0)
    return o, w, pairable


def _observed_sum(level: str | Distance, x: FloatArray, o: Any, n_c: FloatArray) -> float:
    """sum_ck o_ck delta_ck (over non-zero coincidences)."""
    s = _scores(level, x, n_c)
    if not isinstance(o, np.ndarray):
        coo = o.tocoo()
        return float((coo.data * _delta(level, s[coo.row], s[coo.col])).sum())
    r, c = np.nonzero(o)
    return float((o[r, c] * _delta(level, s[r], s[c])).sum())


@measure(
    family="agreement",
    input="ratings",
    params=(LEVEL, COUNTS, VALUES),
    bounds=(-1.0, 1.0),
    aliases=("alpha",),
)
def krippendorff_alpha(
    data: RatingsData,
    *,
    level: str | Distance = "nominal",
    counts: bool = False,
    values: ArrayLike | None = None,
) -> AlphaResult:
    """Krippendorff's alpha of ``data`` at measurement ``level``: alpha = 1 - D_o / D_e,
    observed over expected disagreement of the pairable values.

    ``data`` is a units × raters matrix (NaN/None missing), a long table of (unit, rater,
    value), or with ``counts=True`` a units × values count matrix (``values`` names the
    columns). See the module documentation for the formulas and the D_e = 0 case (NaN).
    Reference: Krippendorff (2011), *Computing Krippendorff's Alpha-Reliability*.

    Parameters
    ----------
    data : array_like or mapping of columns
        The ratings: a units × raters matrix (missing: NaN or None), (unit, rater, value)
        triples or columns, or with ``counts=True`` a units × values count matrix.
    level : {"nominal", "ordinal", "interval", "ratio"} or callable
        The level of measurement (its difference function), or a difference function
        ``delta(a, b)`` of two values.
    counts : bool
        Whether ``data`` is a count matrix.
    values : array_like, optional
        The values of a count matrix's columns (default 0, 1, ...).

    Returns
    -------
    AlphaResult
        Alpha (``float()`` gives it), D_o, D_e, the coincidence matrix and the counts of
        pairable values and units.

    Examples
    --------
    >>> from assay.agreement import krippendorff_alpha
    >>> res = krippendorff_alpha([[1, 1], [2, 2], [3, 2], [None, 3]], level="interval")
    >>> round(res.alpha, 4), res.n_pairable, res.band
    (0.7059, 6, 'tentative')
    """
    r = ratings(data, counts, values, "krippendorff_alpha")
    return _alpha_from_counts(unit_counts(r), r.domain, level_option(level))


def _alpha_from_counts(counts: Any, domain: NDArray[Any], lv: str | Distance) -> AlphaResult:
    x = _numeric_domain(domain, lv)
    o, _, pairable = _coincidence(counts)
    n_c = np.asarray(o.sum(axis=1)).ravel()
    n = float(n_c.sum())
    n_units = int(pairable.sum())
    if n_units == 0:
        raise EmptyInputError(
            "krippendorff_alpha: no unit has two or more values (nothing pairable)"
        )
    d_o = _observed_sum(lv, x, o, n_c) / n
    d_e = float(_expected_sum(lv, x, n_c)) / (n * (n - 1.0))
    defined = bool(_has_variation(lv, d_e, n_c))
    if not defined:
        d_e = 0.0  # exactly: no variation (not the rounding residue of the moment form)
    alpha = 1.0 - d_o / d_e if defined else math.nan
    level = lv if isinstance(lv, str) else "custom"
    return AlphaResult(
        alpha=float(alpha),
        observed=float(d_o),
        expected=float(d_e),
        level=level,
        domain=domain,
        coincidence=o,
        marginals=n_c,
        n_pairable=round(n),
        n_units=n_units,
        n_unpairable_units=int((~pairable).sum()),
        defined=bool(defined),
        provenance=provenance(measure="krippendorff_alpha", level=level),
    )


# --------------------------------------------------------------------------------------------
# bootstrap


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
        if P * n_values <= _BLOCK:
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
        return int(max(1, _BLOCK // max(width, len(self.x), 1)))

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
