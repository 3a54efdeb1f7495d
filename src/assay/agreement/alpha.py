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

Input layouts: see :mod:`assay.agreement._ratings` (wide units × raters, long (unit, rater,
value), or counts). Note that the ``krippendorff`` package takes raters × units: transpose
when porting code.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import choice, choices
from .._result import Result, provenance
from ..errors import EmptyInputError, InputError, MetricError
from ..metrics.labels import boolean
from ..metrics.registry import FROM_SIGNATURE, Param, Peer, anything, measure
from ._ratings import FloatArray, RatingsData, ratings, unit_counts
from .options import Level

__all__ = [
    "LEVELS",
    "AlphaResult",
    "alpha_band",
    "krippendorff_alpha",
]

Distance = Callable[[Any, Any], Any]

LEVELS: tuple[str, ...] = choices(Level)
_DENSE_COINCIDENCE = 2048  # domains up to this size keep a dense V x V coincidence matrix
#: Values a block of the bootstrap and the coincidence count holds (bounds the memory).
BLOCK_VALUES = 1 << 22


# --------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True, eq=False, repr=False)
class AlphaResult(Result):
    """Krippendorff's alpha, alpha = 1 - D_o / D_e. ``float(result)`` is ``alpha``.

    Built by :func:`krippendorff_alpha`. ``records()``: one row with the scalar fields.

    Parameters
    ----------
    alpha : float
        The coefficient (NaN when ``defined`` is False).
    observed, expected : float
        The observed and expected disagreements D_o and D_e.
    level : str
        The level of measurement (``"custom"`` for a distance callable).
    domain : numpy.ndarray
        The sorted distinct values V.
    coincidence : numpy.ndarray or scipy.sparse matrix
        The V × V coincidence matrix over ``domain`` (sparse when V > 2048).
    marginals : numpy.ndarray
        Its row sums n_c.
    n_pairable : int
        The number n of pairable values.
    n_units, n_unpairable_units : int
        The numbers of pairable units (two or more values) and of the others.
    defined : bool
        False when D_e = 0 (no variation; ``alpha`` is NaN).
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.agreement import krippendorff_alpha
    >>> res = krippendorff_alpha([[1, 1], [2, 2], [1, 2]])
    >>> round(float(res), 4), res.n_units, res.defined
    (0.4444, 3, True)
    """

    alpha: float
    observed: float
    expected: float
    level: str
    domain: NDArray[Any]  # Any: values of every dtype (numbers, strings)
    coincidence: Any  # Any: a numpy array or a scipy.sparse matrix (no stubs for scipy)
    marginals: FloatArray
    n_pairable: int
    n_units: int
    n_unpairable_units: int
    defined: bool
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

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


def alpha_band(alpha: float) -> str:
    """The reliability band of an alpha, after Krippendorff (2004).

    α ≥ 0.800 ``reliable``; 0.667 ≤ α < 0.800 ``tentative`` (tentative conclusions only);
    below 0.667 ``unreliable``; NaN ``undefined``.

    Parameters
    ----------
    alpha : float
        A value of Krippendorff's alpha.

    Returns
    -------
    str
        ``"reliable"``, ``"tentative"``, ``"unreliable"`` or ``"undefined"``.

    Examples
    --------
    >>> from assay.agreement import alpha_band
    >>> alpha_band(0.85), alpha_band(0.7), alpha_band(0.2), alpha_band(float("nan"))
    ('reliable', 'tentative', 'unreliable', 'undefined')
    """
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
    return np.asarray(level(a, b), dtype=np.float64)  # type: ignore[operator]  # why: the named (str) levels returned above


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
    rows = max(1, BLOCK_VALUES // max(V, 1))
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
    peers=(
        Peer(
            "krippendorff",
            "krippendorff.alpha",
            "Takes raters × units (reliability_data) and level_of_measurement.",
        ),
    ),
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
