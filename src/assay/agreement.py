"""Inter-rater reliability: Krippendorff's alpha, Cohen's, Fleiss', Scott's and Randolph's
coefficients, and percent agreement.

Krippendorff's alpha
--------------------
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

Input layouts (``krippendorff_alpha``, ``alpha_bootstrap``, ``fleiss_kappa`` and friends):

- **wide**: a units × raters matrix (nested sequences, NumPy array, pandas DataFrame) with
  missing values as NaN or None (``pd.NA`` too). Note that the ``krippendorff`` package takes
  raters × units: transpose when porting code.
- **long**: a sequence of ``(unit, rater, value)`` triples; a pyarrow/pandas table or a dict
  of columns named ``unit``, ``rater`` and ``value`` (also accepted: ``item``/``subject`` for
  the unit, ``coder``/``annotator`` for the rater, ``label``/``rating``/``code`` for the
  value). The same (unit, rater) twice is an :class:`~assay.errors.InputError`.
- **counts** (``counts=True``): a units × values matrix of how many raters gave each value;
  ``values=`` names the columns' values (default ``0, 1, ..., V-1``; a DataFrame's numeric
  column names are used when ``values`` is not given).

Other coefficients
------------------
:func:`cohen_kappa` (two raters; unweighted, linear or quadratic weights over the label
*indices*, as scikit-learn), :func:`scott_pi` (two raters, pooled marginals),
:func:`fleiss_kappa` (any number of raters), :func:`randolph_kappa` (free-marginal
multirater kappa, Randolph 2005) and :func:`percent_agreement`.

For multirater coefficients with a varying number of ratings per subject, subject ``i`` with
``n_i >= 2`` ratings has pairwise agreement ``P_i = sum_j n_ij (n_ij - 1) / (n_i (n_i - 1))``;
``P_o`` is the unweighted mean of ``P_i`` over those subjects and the category proportions
are ``p_j = sum_i n_ij / sum_i n_i`` over the same subjects (subjects with fewer than two
ratings are dropped). With a constant number of raters this is exactly Fleiss (1971).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .errors import EmptyInputError, InputError, MetricError

__all__ = [
    "AgreementResult",
    "AlphaBootstrap",
    "AlphaResult",
    "alpha_band",
    "alpha_bootstrap",
    "cohen_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "percent_agreement",
    "randolph_kappa",
    "scott_pi",
]

FloatArray = NDArray[np.float64]
Distance = Callable[[Any, Any], Any]

LEVELS = ("nominal", "ordinal", "interval", "ratio")
_UNIT_NAMES = ("unit", "item", "subject", "unit_id", "item_id")
_RATER_NAMES = ("rater", "coder", "annotator", "observer", "rater_id", "coder_id")
_VALUE_NAMES = ("value", "label", "rating", "code", "category")
_DENSE_COINCIDENCE = 2048  # domains up to this size keep a dense V x V coincidence matrix
_BLOCK = 1 << 22


# --------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's alpha. ``float(result)`` is ``alpha``.

    ``observed`` and ``expected`` are D_o and D_e; ``coincidence`` is the V × V coincidence
    matrix over ``domain`` (a :mod:`scipy.sparse` matrix when V > 2048); ``marginals`` its
    row sums n_c; ``n_pairable`` the number n of pairable values; ``n_units`` the number of
    pairable units. ``defined`` is False when D_e = 0 (no variation; ``alpha`` is NaN).
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

    def __float__(self) -> float:
        return float(self.alpha)

    @property
    def band(self) -> str:
        """Krippendorff's interpretation: ``reliable``, ``tentative`` or ``unreliable``."""
        return alpha_band(self.alpha)


@dataclass(frozen=True)
class AgreementResult:
    """A kappa-type coefficient ``value = (p_o - p_e) / (1 - p_e)``; ``float()`` gives it.

    ``observed`` (p_o) and ``expected`` (p_e) are agreements (for weighted kappa,
    1 - weighted disagreement / maximum weight, so the identity above still holds). ``table``
    is the confusion (two raters) or subjects × categories count table; ``labels`` its
    categories; ``n`` the number of items (pairs or subjects) used. ``value`` is NaN when
    p_e = 1 (no variation).
    """

    value: float
    observed: float
    expected: float
    method: str
    n: int
    labels: NDArray[Any]
    table: FloatArray
    details: Mapping[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return float(self.value)


@dataclass(frozen=True)
class AlphaBootstrap:
    """Bootstrap of Krippendorff's alpha. ``float()`` gives the point estimate.

    ``ci`` is the percentile interval at ``confidence``; ``probabilities`` maps each threshold
    to the share of resamples with alpha below it (Hayes & Krippendorff's q); ``samples`` are
    the resampled alphas (NaN for resamples without variation, excluded from ``ci`` and
    ``probabilities``).
    """

    result: AlphaResult
    ci: tuple[float, float]
    confidence: float
    probabilities: Mapping[float, float]
    n_resamples: int
    seed: int
    samples: FloatArray
    method: str = "bootstrap over pairable units (multinomial)"

    def __float__(self) -> float:
        return float(self.result.alpha)

    @property
    def alpha(self) -> float:
        return self.result.alpha

    @property
    def band(self) -> str:
        return self.result.band


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
# input handling


@dataclass
class _Ratings:
    """Non-missing ratings as (unit index, value code) pairs over a sorted domain."""

    unit: NDArray[np.int64]
    code: NDArray[np.int64]
    n_units: int
    domain: NDArray[Any]
    counts: FloatArray | None = None  # units x values, when given as counts


def _is_missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float):
        return math.isnan(v)
    try:
        import pandas as pd  # noqa: F401  (pd.NA is a singleton; check by type name)
    except ImportError:  # pragma: no cover
        return False
    return type(v).__name__ in ("NAType", "NaTType")


def _factorise(values: Sequence[Any] | NDArray[Any]) -> tuple[NDArray[np.int64], NDArray[Any]]:
    arr = np.asarray(values)
    if arr.dtype.kind in "biuf" and arr.size:
        # Small integral ranges (the usual rating scales): counting instead of sorting.
        lo, hi = arr.min(), arr.max()
        if hi - lo < (1 << 20) and (arr.dtype.kind != "f" or (arr == np.floor(arr)).all()):
            shifted = (arr - lo).astype(np.int64).ravel()
            present = np.bincount(shifted, minlength=int(hi - lo) + 1) > 0
            rank = np.cumsum(present) - 1
            domain = (np.nonzero(present)[0] + lo).astype(arr.dtype)
            return rank[shifted].astype(np.int64), domain
        domain, codes = np.unique(arr, return_inverse=True)
        return codes.astype(np.int64).ravel(), domain
    if arr.dtype.kind in "US":
        domain, codes = np.unique(arr, return_inverse=True)
        return codes.astype(np.int64).ravel(), domain
    index: dict[Any, int] = {}
    raw = np.fromiter(
        (index.setdefault(v, len(index)) for v in arr.ravel().tolist()), np.int64, arr.size
    )
    keys = list(index)
    try:
        order = sorted(range(len(keys)), key=lambda i: keys[i])
    except TypeError:
        order = list(range(len(keys)))
    rank = np.empty(len(keys), np.int64)
    rank[order] = np.arange(len(keys))
    domain = np.empty(len(keys), dtype=object)
    domain[:] = [keys[i] for i in order]
    return rank[raw], domain


def _columns(data: Any) -> dict[str, Any] | None:
    """Named columns of a pyarrow/pandas/polars table or a dict, else None."""
    if isinstance(data, Mapping):
        return {str(k): v for k, v in data.items()}
    mod = type(data).__module__
    if mod.startswith("pyarrow") and hasattr(data, "column_names"):
        return {name: data.column(name).to_pylist() for name in data.column_names}
    if mod.startswith("polars") and hasattr(data, "columns"):
        return {str(c): data[c].to_list() for c in data.columns}
    return None


def _pick(cols: Mapping[str, Any], names: Sequence[str]) -> str | None:
    lower = {k.lower(): k for k in cols}
    return next((lower[n] for n in names if n in lower), None)


def _long_columns(cols: Mapping[str, Any]) -> tuple[Any, Any, Any] | None:
    u, r, v = _pick(cols, _UNIT_NAMES), _pick(cols, _RATER_NAMES), _pick(cols, _VALUE_NAMES)
    if u is None or r is None or v is None:
        return None
    return cols[u], cols[r], cols[v]


def _from_long(units: Any, raters: Any, values: Any, where: str) -> _Ratings:
    units, raters, values = list(units), list(raters), list(values)
    if not (len(units) == len(raters) == len(values)):
        raise InputError(f"{where}: unit, rater and value columns differ in length")
    keep = [i for i, v in enumerate(values) if not _is_missing(v)]
    ucode, udom = _factorise(np.asarray(units, dtype=object))
    rcode, _ = _factorise(np.asarray(raters, dtype=object))
    pair = ucode * (int(rcode.max(initial=0)) + 1) + rcode
    _, first, cnt = np.unique(pair, return_index=True, return_counts=True)
    if (cnt > 1).any():
        i = int(first[np.argmax(cnt > 1)])
        raise InputError(
            f"{where}: unit {units[i]!r} rated by rater {raters[i]!r} more than once", line=i + 1
        )
    vals = _values_array([values[i] for i in keep])
    code, domain = _factorise(vals)
    return _Ratings(ucode[keep], code, len(udom), domain)


def _values_array(vals: list[Any]) -> NDArray[Any]:
    if all(isinstance(v, (int, float, np.integer, np.floating)) for v in vals):
        return np.asarray(vals, dtype=np.float64)
    if all(isinstance(v, str) for v in vals):
        return np.asarray(vals, dtype=str)
    arr = np.empty(len(vals), dtype=object)
    arr[:] = vals
    return arr


def _from_wide(data: Any, where: str) -> _Ratings:
    if hasattr(data, "to_numpy") and hasattr(data, "columns"):
        data = data.to_numpy()
    try:
        arr = np.asarray(data, dtype=np.float64)
        numeric = True
    except (TypeError, ValueError):
        arr = np.asarray(data, dtype=object)
        numeric = False
    if arr.ndim != 2:
        raise InputError(f"{where}: expected a units x raters matrix, got {arr.ndim} dimension(s)")
    n_units = arr.shape[0]
    if numeric:
        ok = ~np.isnan(arr)
        if np.isinf(arr[ok]).any():
            raise InputError(f"{where}: infinite value in the data")
        unit = np.nonzero(ok)[0].astype(np.int64)
        code, domain = _factorise(arr[ok])
        return _Ratings(unit, code, n_units, domain)
    flat = arr.ravel().tolist()
    keep = [i for i, v in enumerate(flat) if not _is_missing(v)]
    unit = np.asarray(keep, dtype=np.int64) // max(arr.shape[1], 1)
    code, domain = _factorise(_values_array([flat[i] for i in keep]))
    return _Ratings(unit, code, n_units, domain)


def _from_counts(data: Any, values: Any, where: str) -> _Ratings:
    if values is None and hasattr(data, "columns") and hasattr(data, "to_numpy"):
        try:
            values = np.asarray(list(data.columns), dtype=np.float64)
        except (TypeError, ValueError):
            values = np.asarray([str(c) for c in data.columns])
    if hasattr(data, "to_numpy"):
        data = data.to_numpy()
    try:
        c = np.asarray(data, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{where}: counts must be numbers") from None
    if c.ndim != 2:
        raise InputError(f"{where}: counts must be a units x values matrix")
    if not np.isfinite(c).all() or (c < 0).any() or (c != np.round(c)).any():
        raise InputError(f"{where}: counts must be non-negative integers")
    dom = np.arange(c.shape[1], dtype=np.float64) if values is None else np.asarray(values)
    if dom.ndim != 1 or len(dom) != c.shape[1]:
        raise InputError(f"{where}: values= must name the {c.shape[1]} count columns")
    order = np.argsort(dom, kind="stable")
    if len(np.unique(dom)) != len(dom):
        raise InputError(f"{where}: values= has duplicates")
    dom, c = dom[order], c[:, order]
    ci = c.astype(np.int64)
    unit = np.repeat(np.arange(c.shape[0], dtype=np.int64), ci.sum(axis=1))
    code = np.repeat(np.tile(np.arange(c.shape[1], dtype=np.int64), c.shape[0]), ci.ravel())
    return _Ratings(unit, code, c.shape[0], dom, counts=c)


def _ratings(data: Any, counts: bool, values: Any, where: str) -> _Ratings:
    if counts:
        return _from_counts(data, values, where)
    cols = _columns(data)
    if cols is None and hasattr(data, "columns") and hasattr(data, "to_numpy"):  # pandas
        names = {str(c): c for c in data.columns}
        triple = _long_columns(names)
        if triple is not None:
            u, r, v = triple
            return _from_long(data[u].tolist(), data[r].tolist(), data[v].tolist(), where)
        return _from_wide(data, where)
    if cols is not None:
        triple = _long_columns(cols)
        if triple is None:
            raise InputError(
                f"{where}: a table or dict needs unit, rater and value columns; got {sorted(cols)}"
            )
        return _from_long(*triple, where)
    if (
        isinstance(data, Sequence)
        and len(data) > 0
        and all(isinstance(t, tuple) and len(t) == 3 for t in data)
    ):
        u, r, v = zip(*data, strict=True)
        return _from_long(u, r, v, where)
    return _from_wide(data, where)


def _unit_counts(r: _Ratings) -> Any:
    """Units x values count matrix: dense when small, else scipy.sparse CSR."""
    V = len(r.domain)
    if r.counts is not None:
        return r.counts
    if r.n_units * V <= max(4 * len(r.unit), 1 << 16):
        flat = np.bincount(r.unit * V + r.code, minlength=r.n_units * V)
        return flat.reshape(r.n_units, V).astype(np.float64)
    from scipy import sparse

    return sparse.csr_matrix(
        (np.ones(len(r.unit)), (r.unit, r.code)), shape=(r.n_units, V), dtype=np.float64
    )


# --------------------------------------------------------------------------------------------
# Krippendorff's alpha


def _level(level: Any) -> str | Distance:
    if callable(level):
        return level
    if isinstance(level, str) and level.lower() in LEVELS:
        return level.lower()
    raise MetricError(f"unknown level {level!r}; choose from {', '.join(LEVELS)} or a callable")


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


def krippendorff_alpha(
    data: Any,
    level: str | Distance = "nominal",
    *,
    counts: bool = False,
    values: Any = None,
) -> AlphaResult:
    """Krippendorff's alpha of ``data`` at measurement ``level``.

    ``data`` is a units × raters matrix (NaN/None missing), a long table of (unit, rater,
    value), or with ``counts=True`` a units × values count matrix (``values`` names the
    columns). See the module documentation for the formulas and the D_e = 0 case.
    """
    where = "krippendorff_alpha"
    lv = _level(level)
    r = _ratings(data, counts, values, where)
    return _alpha_from_counts(_unit_counts(r), r.domain, lv)


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
    defined = d_e > 0
    alpha = 1.0 - d_o / d_e if defined else math.nan
    return AlphaResult(
        alpha=float(alpha),
        observed=float(d_o),
        expected=float(d_e),
        level=lv if isinstance(lv, str) else "custom",
        domain=domain,
        coincidence=o,
        marginals=n_c,
        n_pairable=round(n),
        n_units=n_units,
        n_unpairable_units=int((~pairable).sum()),
        defined=bool(defined),
    )


# --------------------------------------------------------------------------------------------
# bootstrap


def _unit_patterns(r: _Ratings) -> tuple[NDArray[np.int64], FloatArray]:
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


def alpha_bootstrap(
    data: Any,
    level: str | Distance = "nominal",
    *,
    n_resamples: int = 1000,
    seed: int = 0,
    thresholds: Sequence[float] = (0.667, 0.8),
    confidence: float = 0.95,
    counts: bool = False,
    values: Any = None,
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
    """
    where = "alpha_bootstrap"
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise MetricError(f"{where}: n_resamples must be a positive integer, got {n_resamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise MetricError(f"{where}: seed must be an integer, got {seed!r}")
    if not 0 < confidence < 1:
        raise MetricError(f"{where}: confidence must be in (0, 1), got {confidence!r}")
    lv = _level(level)
    r = _ratings(data, counts, values, where)
    point = _alpha_from_counts(_unit_counts(r), r.domain, lv)
    x = _numeric_domain(r.domain, lv)
    pats, freq = _unit_patterns(r)
    P, R = pats.shape
    V = len(r.domain)
    valid = pats >= 0
    safe = np.where(valid, pats, 0)
    w = 1.0 / (valid.sum(axis=1) - 1.0)
    # Each pattern's contribution to the marginals n_c (pattern x value counts).
    rows = np.repeat(np.arange(P), valid.sum(axis=1))
    marg: Any
    if P * V <= _BLOCK:
        marg = np.bincount(rows * V + pats[valid], minlength=P * V).reshape(P, V).astype(float)
    else:
        from scipy import sparse

        marg = sparse.csr_matrix((np.ones(len(rows)), (rows, pats[valid])), shape=(P, V))
    ordinal = lv == "ordinal"
    if not ordinal:
        # sum over ordered pairs i != j of the pattern's values of delta, times 1/(m - 1).
        do_p = np.zeros(P)
        for i in range(R):
            for j in range(R):
                if i != j:
                    both = valid[:, i] & valid[:, j]
                    d = _delta(lv, x[safe[:, i]], x[safe[:, j]])
                    do_p += np.where(both, d, 0.0)
        do_p *= w
    n_units = int(freq.sum())
    prob = freq / freq.sum()
    rng = np.random.default_rng(int(seed))
    out = np.empty(n_resamples)
    chunk = max(1, _BLOCK // max(P * (R if ordinal else 1), V, 1))
    for start in range(0, n_resamples, chunk):
        b = min(chunk, n_resamples - start)
        cnt = rng.multinomial(n_units, prob, size=b).astype(np.float64)
        n_c = np.asarray(marg.T @ cnt.T).T  # (b, V)
        n = n_c.sum(axis=1)
        if ordinal:
            mid = _scores(lv, x, n_c)  # (b, V) mid-ranks
            g = np.where(valid[None], mid[:, safe], 0.0)  # (b, P, R)
            cross = g.sum(axis=2) ** 2 - (g**2).sum(axis=2)  # sum_{i != j} M_i M_j
            obs = 2.0 * (n_c * mid**2).sum(axis=1) - 2.0 * (cnt * w * cross).sum(axis=1)
        else:
            obs = cnt @ do_p
        exp = _expected_sum(lv, x, n_c)
        with np.errstate(invalid="ignore", divide="ignore"):
            d_o = obs / n
            d_e = exp / (n * (n - 1.0))
            out[start : start + b] = np.where(d_e > 0, 1.0 - d_o / d_e, np.nan)
    ok = out[~np.isnan(out)]
    if len(ok):
        lo, hi = np.quantile(ok, [(1 - confidence) / 2, (1 + confidence) / 2])
        probs = {float(t): float((ok < t).mean()) for t in thresholds}
    else:
        lo = hi = math.nan
        probs = {float(t): math.nan for t in thresholds}
    return AlphaBootstrap(
        result=point,
        ci=(float(lo), float(hi)),
        confidence=float(confidence),
        probabilities=probs,
        n_resamples=n_resamples,
        seed=int(seed),
        samples=out,
    )


# --------------------------------------------------------------------------------------------
# kappas


def _two(a: Any, b: Any, labels: Any, where: str) -> tuple[FloatArray, NDArray[Any]]:
    """k x k confusion table of two raters (pairs with a missing value dropped)."""
    la, lb = list(np.asarray(a, dtype=object).ravel()), list(np.asarray(b, dtype=object).ravel())
    if len(la) != len(lb):
        raise InputError(f"{where}: a and b differ in length ({len(la)} and {len(lb)})")
    keep = [i for i in range(len(la)) if not (_is_missing(la[i]) or _is_missing(lb[i]))]
    if not keep:
        raise EmptyInputError(f"{where}: no item rated by both raters")
    vals = _values_array([la[i] for i in keep] + [lb[i] for i in keep])
    if labels is None:
        code, dom = _factorise(vals)
    else:
        dom = np.asarray(labels)
        if len(set(dom.tolist())) != len(dom):
            raise InputError(f"{where}: labels has duplicates")
        index = {v: i for i, v in enumerate(dom.tolist())}
        try:
            code = np.asarray([index[v] for v in vals.tolist()], dtype=np.int64)
        except KeyError as exc:
            raise InputError(f"{where}: value {exc.args[0]!r} not in labels") from None
    k, n = len(dom), len(keep)
    table = np.bincount(code[:n] * k + code[n:], minlength=k * k).reshape(k, k)
    return table.astype(np.float64), dom


def _table(table: Any, where: str) -> FloatArray:
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2 or t.shape[0] != t.shape[1]:
        raise InputError(f"{where}: table must be a square k x k contingency table")
    if not np.isfinite(t).all() or (t < 0).any():
        raise InputError(f"{where}: table must hold non-negative counts")
    if t.sum() <= 0:
        raise EmptyInputError(f"{where}: empty table")
    return t


def _kappa(
    t: FloatArray, expected_table: FloatArray, weights: str | None, where: str
) -> tuple[float, float, float]:
    k = t.shape[0]
    i, j = np.indices((k, k))
    if weights is None:
        w = (i != j).astype(np.float64)
    elif weights == "linear":
        w = np.abs(i - j).astype(np.float64)
    elif weights == "quadratic":
        w = ((i - j) ** 2).astype(np.float64)
    else:
        raise MetricError(f"{where}: weights must be None, 'linear' or 'quadratic'")
    wmax = float(w.max()) if k > 1 else 1.0
    n = t.sum()
    d_o = float((w * t).sum() / n) / wmax
    d_e = float((w * expected_table).sum() / expected_table.sum()) / wmax
    value = 1.0 - d_o / d_e if d_e > 0 else math.nan
    return value, 1.0 - d_o, 1.0 - d_e


def cohen_kappa(
    a: Any = None,
    b: Any = None,
    weights: str | None = None,
    labels: Any = None,
    *,
    table: Any = None,
) -> AgreementResult:
    """Cohen's kappa of two raters' labels ``a`` and ``b`` (or a k × k ``table``, rows rater
    a). ``weights``: None, ``"linear"`` or ``"quadratic"`` — over label *indices* in
    ``labels`` order (default: sorted distinct labels), as scikit-learn's
    ``cohen_kappa_score``. Items with a missing label from either rater are dropped."""
    where = "cohen_kappa"
    if table is not None:
        t = _table(table, where)
        dom = np.arange(t.shape[0]) if labels is None else np.asarray(labels)
    else:
        if a is None or b is None:
            raise InputError(f"{where}: give a and b, or table=")
        t, dom = _two(a, b, labels, where)
    exp = np.outer(t.sum(axis=1), t.sum(axis=0))
    value, p_o, p_e = _kappa(t, exp, weights, where)
    method = "Cohen's kappa" + (f" ({weights} weights)" if weights else "")
    return AgreementResult(value, p_o, p_e, method, int(t.sum()), dom, t, {"weights": weights})


def scott_pi(
    a: Any = None, b: Any = None, labels: Any = None, *, table: Any = None
) -> AgreementResult:
    """Scott's pi of two raters: like Cohen's kappa, but chance agreement from the pooled
    marginals ``p_e = sum_j ((row_j + col_j) / 2n)^2``."""
    where = "scott_pi"
    if table is not None:
        t = _table(table, where)
        dom = np.arange(t.shape[0]) if labels is None else np.asarray(labels)
    else:
        if a is None or b is None:
            raise InputError(f"{where}: give a and b, or table=")
        t, dom = _two(a, b, labels, where)
    pooled = (t.sum(axis=1) + t.sum(axis=0)) / 2.0
    value, p_o, p_e = _kappa(t, np.outer(pooled, pooled), None, where)
    return AgreementResult(value, p_o, p_e, "Scott's pi", int(t.sum()), dom, t)


def _subject_table(data: Any, counts: bool, where: str) -> tuple[FloatArray, NDArray[Any]]:
    r = _ratings(data, counts, None, where)
    c = _unit_counts(r)
    if not isinstance(c, np.ndarray):
        c = c.toarray()
    return np.asarray(c, dtype=np.float64), r.domain


def _multirater(
    data: Any, counts: bool, where: str, n_categories: int | None
) -> tuple[FloatArray, NDArray[Any], float, FloatArray, int]:
    t, dom = _subject_table(data, counts, where)
    n_i = t.sum(axis=1)
    keep = n_i >= 2
    if not keep.any():
        raise EmptyInputError(f"{where}: no subject has two or more ratings")
    t, n_i = t[keep], n_i[keep]
    p_i = (t * (t - 1)).sum(axis=1) / (n_i * (n_i - 1))
    p_j = t.sum(axis=0) / n_i.sum()
    k = t.shape[1] if n_categories is None else int(n_categories)
    return t, dom, float(p_i.mean()), p_j, k


def fleiss_kappa(data: Any, *, counts: bool = False) -> AgreementResult:
    """Fleiss' kappa: ``data`` subjects × raters labels (missing allowed) or, with
    ``counts=True``, a subjects × categories count table. Varying numbers of raters per
    subject use the generalisation in the module documentation."""
    where = "fleiss_kappa"
    t, dom, p_o, p_j, _ = _multirater(data, counts, where, None)
    p_e = float((p_j**2).sum())
    value = (p_o - p_e) / (1.0 - p_e) if p_e < 1 else math.nan
    return AgreementResult(
        value, p_o, p_e, "Fleiss' kappa", t.shape[0], dom, t, {"proportions": p_j}
    )


def randolph_kappa(
    data: Any, *, counts: bool = False, n_categories: int | None = None
) -> AgreementResult:
    """Randolph's (2005) free-marginal multirater kappa: as Fleiss but ``p_e = 1 / k``, with
    ``k = n_categories`` (default: the categories observed, or the count table's columns)."""
    where = "randolph_kappa"
    t, dom, p_o, _, k = _multirater(data, counts, where, n_categories)
    if k < 2:
        raise InputError(f"{where}: needs at least two categories")
    p_e = 1.0 / k
    value = (p_o - p_e) / (1.0 - p_e)
    return AgreementResult(
        value, p_o, p_e, "Randolph's free-marginal kappa", t.shape[0], dom, t, {"k": k}
    )


def percent_agreement(data: Any, *, counts: bool = False) -> AgreementResult:
    """Mean pairwise percent agreement: the mean over subjects (with two or more ratings) of
    the share of agreeing rater pairs. With two raters, the share of items labelled alike.
    ``expected`` is 0 (no chance correction) so ``value == observed``."""
    where = "percent_agreement"
    t, dom, p_o, _, _ = _multirater(data, counts, where, None)
    return AgreementResult(p_o, p_o, 0.0, "percent agreement", t.shape[0], dom, t)
