"""Inter-rater reliability: Cohen's, Scott's, Fleiss' and Randolph's coefficients, percent
agreement, and (from :mod:`assay.agreement.alpha`) Krippendorff's alpha.

Two raters
----------
:func:`cohen_kappa` (unweighted, linear or quadratic weights over the label *indices*, as
scikit-learn) and :func:`scott_pi` (pooled marginals) take two aligned label sequences ``a``
and ``b`` (or a k × k ``table``, rows rater a). A pair with a missing label (None, NaN, pandas'
NA) from either rater is dropped, and so is a pair whose label is not in ``labels`` when it is
given (scikit-learn's ``labels``); ``n_dropped`` counts them. This is the one Cohen's kappa of
assay: :mod:`assay.classification` exports the same function, so
``classification.cohen_kappa(y_true, y_pred)`` is Cohen's kappa between truth and prediction.

Many raters
-----------
:func:`fleiss_kappa` (any number of raters), :func:`randolph_kappa` (free-marginal multirater
kappa, Randolph 2005) and :func:`percent_agreement` take ratings in any layout of
:mod:`assay.agreement._ratings` (wide units × raters, long (unit, rater, value), counts). For a
varying number of ratings per subject, subject ``i`` with ``n_i >= 2`` ratings has pairwise
agreement ``P_i = sum_j n_ij (n_ij - 1) / (n_i (n_i - 1))``; ``P_o`` is the unweighted mean of
``P_i`` over those subjects and the category proportions are ``p_j = sum_i n_ij / sum_i n_i``
over the same subjects (subjects with fewer than two ratings are dropped and counted in
``n_dropped``). With a constant number of raters this is exactly Fleiss (1971).

Every coefficient returns an :class:`AgreementResult` (``float()`` is its value) or, for
alpha, an :class:`~assay.agreement.alpha.AlphaResult`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import ZeroDivision, integer
from .._result import Result, provenance
from ..errors import EmptyInputError, InputError, MetricError
from ..metrics.labels import Counts, counts, zero_division_value
from ..metrics.registry import FROM_SIGNATURE, Param, Peer, anything, measure, one_of, optional
from ._ratings import FloatArray, RatingsData, is_missing, ratings, unit_counts, values_array
from .alpha import COUNTS, LEVELS, AlphaResult, alpha_band, krippendorff_alpha
from .bootstrap import AlphaBootstrap, alpha_bootstrap
from .options import KappaWeights

__all__ = [
    "LEVELS",
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

_agreement = functools.partial(measure, family="agreement", bounds=(-1.0, 1.0))

RATER_LABELS = Param(
    "labels",
    None,
    anything,
    "the categories, in this order (weights follow it); pairs with another label are dropped",
)
TABLE = Param("table", None, anything, "a k × k contingency table (rows rater a) instead of a, b")


@dataclass(frozen=True, eq=False, repr=False)
class AgreementResult(Result):
    """A kappa-type coefficient ``value = (p_o - p_e) / (1 - p_e)``; ``float()`` gives it.

    Built by :func:`cohen_kappa`, :func:`scott_pi`, :func:`fleiss_kappa`,
    :func:`randolph_kappa` and :func:`percent_agreement`. ``records()``: one row with the
    scalar fields.

    Parameters
    ----------
    value : float
        The coefficient; NaN when p_e = 1 (no variation; ``zero_division`` for Cohen's kappa).
    observed, expected : float
        The agreements p_o and p_e (for weighted kappa, 1 - weighted disagreement / maximum
        weight, so the identity above still holds).
    method : str
        The coefficient's name, in words.
    n : int
        The number of items (pairs or subjects) used.
    labels : numpy.ndarray
        The categories of ``table``.
    table : numpy.ndarray
        The confusion table (two raters) or the subjects × categories count table.
    n_dropped : int
        Items left out: pairs with a missing or unlisted label, subjects with fewer than two
        ratings.
    proportions : numpy.ndarray, optional
        The category proportions p_j of the multirater coefficients.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.agreement import cohen_kappa
    >>> res = cohen_kappa(["x", "x", "y", "y"], ["x", "y", "y", "y"])
    >>> res.value, res.observed, res.expected, res.n
    (0.5, 0.75, 0.5, 4)
    """

    value: float
    observed: float
    expected: float
    method: str
    n: int
    labels: NDArray[Any]  # Any: labels of every dtype (numbers, strings)
    table: FloatArray
    n_dropped: int = 0
    proportions: FloatArray | None = None
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __float__(self) -> float:
        return float(self.value)

    def records(self) -> list[dict[str, Any]]:
        return [
            {
                "measure": self.provenance.get("measure", self.method),
                "value": self.value,
                "observed": self.observed,
                "expected": self.expected,
                "n": self.n,
                "n_dropped": self.n_dropped,
            }
        ]


# --------------------------------------------------------------------------------------------
# two raters


def _present_pairs(a: Any, b: Any, where: str) -> tuple[np.ndarray, np.ndarray, int]:
    """The pairs of labels where neither rater's label is missing, and how many were not."""
    la, lb = np.asarray(a), np.asarray(b)
    if la.ndim != 1 or lb.ndim != 1:
        raise InputError(f"{where}: a and b must be 1-D sequences of labels")
    if la.shape[0] != lb.shape[0]:
        raise InputError(f"{where}: a and b differ in length ({la.shape[0]} and {lb.shape[0]})")
    missing = _missing(la) | _missing(lb)
    if not missing.any():
        return la, lb, 0
    keep = ~missing
    if not keep.any():
        raise EmptyInputError(f"{where}: no item rated by both raters")
    return _typed(la[keep]), _typed(lb[keep]), int(missing.sum())


def _missing(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "f":
        return np.asarray(np.isnan(arr), dtype=bool)
    if arr.dtype.kind == "O":
        return np.fromiter((is_missing(v) for v in arr.tolist()), bool, arr.shape[0])
    return np.zeros(arr.shape[0], dtype=bool)


def _typed(arr: np.ndarray) -> np.ndarray:
    """An object array without its missing values, as numbers or strings when it can be."""
    return values_array(arr.tolist()) if arr.dtype.kind == "O" else arr


def _rater_table(a: Any, b: Any, labels: Any, where: str) -> tuple[Counts, int]:
    """The confusion counts of two raters and the number of pairs dropped."""
    if a is None or b is None:
        raise InputError(f"{where}: give a and b, or table=")
    ta, tb, n_missing = _present_pairs(a, b, where)
    c = counts(ta, tb, labels, names=("rater a", "rater b"))
    return c, n_missing + c.n - int(c.restricted.sum())


def _contingency(table: Any, where: str) -> FloatArray:
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2 or t.shape[0] != t.shape[1]:
        raise InputError(f"{where}: table must be a square k x k contingency table")
    if not np.isfinite(t).all() or (t < 0).any():
        raise InputError(f"{where}: table must hold non-negative counts")
    if t.sum() <= 0:
        raise EmptyInputError(f"{where}: empty table")
    return t


def _two_raters(
    a: Any, b: Any, labels: Any, table: Any, where: str
) -> tuple[FloatArray, NDArray[Any], int]:
    """(k x k table, its categories, pairs dropped) from labels or a given table."""
    if table is not None:
        t = _contingency(table, where)
        return t, np.arange(t.shape[0]) if labels is None else np.asarray(labels), 0
    c, dropped = _rater_table(a, b, labels, where)
    m = c.restricted
    return m.astype(np.float64), c.labels[: m.shape[0]], dropped


def _disagreement_weights(k: int, weights: KappaWeights | None) -> FloatArray:
    """w_ij: 1 off the diagonal (unweighted), |i - j| (linear) or (i - j)^2 (quadratic)."""
    i, j = np.indices((k, k))
    if weights is None:
        return np.asarray(i != j, dtype=np.float64)
    if weights == "linear":
        return np.asarray(np.abs(i - j), dtype=np.float64)
    return np.asarray((i - j) ** 2, dtype=np.float64)


def _disagreements(t: FloatArray, chance: FloatArray, w: FloatArray) -> tuple[float, float]:
    """(d_o, d_e): weighted disagreement / maximum weight, observed and by chance."""
    wmax = float(w.max()) if t.shape[0] > 1 else 1.0
    n = t.sum()
    if n == 0:
        return math.nan, math.nan
    d_o = float((w * t).sum() / n) / wmax
    d_e = float((w * chance).sum() / chance.sum()) / wmax
    return d_o, d_e


def _kappa_value(t: FloatArray, chance: FloatArray, w: FloatArray, undefined: float) -> float:
    """1 - sum w·observed / sum w·chance (scikit-learn's arithmetic; ``chance`` sums to n)."""
    den = float(np.sum(w * chance))
    if t.sum() == 0 or den == 0:
        return undefined
    return float(1 - np.sum(w * t) / den)


@_agreement(
    input="labels",
    params=(
        Param(
            "weights",
            FROM_SIGNATURE,
            optional(one_of("weights", KappaWeights)),
            "disagreement weights over the label indices: None, linear or quadratic",
        ),
        RATER_LABELS,
        Param(
            "zero_division",
            FROM_SIGNATURE,
            one_of("zero_division", ZeroDivision),
            "value when undefined (p_e = 1, or nothing left after labels): 0, 1 or 'nan'",
        ),
        TABLE,
    ),
    aliases=("kappa",),
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.cohen_kappa_score",
            "Takes the two raters' labels only: no contingency table, and a missing label is not "
            "dropped.",
        ),
    ),
)
def cohen_kappa(
    a: ArrayLike | None = None,
    b: ArrayLike | None = None,
    *,
    weights: KappaWeights | None = None,
    labels: ArrayLike | None = None,
    zero_division: ZeroDivision = "nan",
    table: ArrayLike | None = None,
) -> AgreementResult:
    """Cohen's kappa of two raters, (p_o - p_e) / (1 - p_e), optionally weighted: 1 - Σ w_ij
    o_ij / Σ w_ij e_ij with ``"linear"`` or ``"quadratic"`` disagreement weights over the label
    *indices* (in ``labels`` order; default the sorted distinct labels), as scikit-learn's
    ``cohen_kappa_score``. ``a`` and ``b`` are the raters' labels (or truth and prediction), or
    ``table`` a k × k contingency table (rows rater a). Pairs with a missing label, or a label
    not in ``labels``, are dropped (``n_dropped``). Undefined when chance agreement is certain
    (p_e = 1: both raters use one and the same label) or nothing is left: ``zero_division``
    (default NaN). ``float(result)`` is kappa. Reference: Cohen (1960; weighted 1968).

    Parameters
    ----------
    a, b : array_like of labels, optional
        The two raters' labels, aligned (or truth and prediction); None, NaN or ``pd.NA``
        for a missing label.
    weights : {None, "linear", "quadratic"}
        Disagreement weights over the label indices (None: unweighted).
    labels : array_like, optional
        The categories, in this order (the weights follow it); pairs with another label are
        dropped.
    zero_division : {"nan", 0, 1}
        The value when kappa is undefined.
    table : array_like, optional
        A k × k contingency table (rows rater a) instead of ``a`` and ``b``.

    Returns
    -------
    AgreementResult
        Kappa (``value``; ``float()`` gives it), p_o, p_e, the table and its labels.

    Examples
    --------
    >>> from assay.agreement import cohen_kappa
    >>> round(float(cohen_kappa(["x", "y", "x", "y"], ["x", "y", "y", "y"])), 4)
    0.5
    """
    where = "cohen_kappa"
    t, dom, dropped = _two_raters(a, b, labels, table, where)
    chance = np.outer(t.sum(axis=1), t.sum(axis=0))
    n = t.sum()
    w = _disagreement_weights(t.shape[0], weights)
    value = _kappa_value(t, chance / n if n else chance, w, zero_division_value(zero_division))
    d_o, d_e = _disagreements(t, chance, w)
    method = "Cohen's kappa" + (f" ({weights} weights)" if weights else "")
    settings = provenance(measure=where, weights=weights, zero_division=zero_division)
    return AgreementResult(
        value, 1.0 - d_o, 1.0 - d_e, method, int(n), dom, t, dropped, None, settings
    )


@_agreement(input="labels", params=(RATER_LABELS, TABLE))
def scott_pi(
    a: ArrayLike | None = None,
    b: ArrayLike | None = None,
    *,
    labels: ArrayLike | None = None,
    table: ArrayLike | None = None,
) -> AgreementResult:
    """Scott's pi of two raters: (p_o - p_e) / (1 - p_e) like Cohen's kappa, but chance
    agreement from the pooled marginals ``p_e = sum_j ((row_j + col_j) / 2n)^2``. Missing and
    unlisted labels as in :func:`cohen_kappa`; NaN when p_e = 1. Reference: Scott (1955).

    Parameters
    ----------
    a, b : array_like of labels, optional
        The two raters' labels, aligned (missing: None or NaN).
    labels : array_like, optional
        The categories; pairs with another label are dropped.
    table : array_like, optional
        A k × k contingency table (rows rater a) instead of ``a`` and ``b``.

    Returns
    -------
    AgreementResult
        Pi (``value``), p_o, p_e and the table.

    Examples
    --------
    >>> from assay.agreement import scott_pi
    >>> round(float(scott_pi(["x", "y", "x", "y"], ["x", "y", "y", "y"])), 4)
    0.4667
    """
    where = "scott_pi"
    t, dom, dropped = _two_raters(a, b, labels, table, where)
    pooled = (t.sum(axis=1) + t.sum(axis=0)) / 2.0
    chance = np.outer(pooled, pooled)
    w = _disagreement_weights(t.shape[0], None)
    d_o, d_e = _disagreements(t, chance, w)
    value = 1.0 - d_o / d_e if d_e > 0 else math.nan
    settings = provenance(measure=where)
    return AgreementResult(
        value, 1.0 - d_o, 1.0 - d_e, "Scott's pi", int(t.sum()), dom, t, dropped, None, settings
    )


# --------------------------------------------------------------------------------------------
# many raters


@dataclass(frozen=True)
class _Subjects:
    """Subjects x categories counts of the subjects with two or more ratings."""

    table: FloatArray
    labels: NDArray[Any]
    observed: float  # P_o, the mean pairwise agreement
    proportions: FloatArray  # p_j
    dropped: int


def _subjects(data: Any, counts: bool, where: str) -> _Subjects:
    r = ratings(data, counts, None, where)
    c = unit_counts(r)
    t = np.asarray(c if isinstance(c, np.ndarray) else c.toarray(), dtype=np.float64)
    n_i = t.sum(axis=1)
    keep = n_i >= 2
    if not keep.any():
        raise EmptyInputError(f"{where}: no subject has two or more ratings")
    t, n_i = t[keep], n_i[keep]
    p_i = (t * (t - 1)).sum(axis=1) / (n_i * (n_i - 1))
    p_j = t.sum(axis=0) / n_i.sum()
    return _Subjects(t, r.domain, float(p_i.mean()), p_j, int((~keep).sum()))


def _multirater(s: _Subjects, p_e: float, method: str, **settings: Any) -> AgreementResult:
    value = (s.observed - p_e) / (1.0 - p_e) if p_e < 1 else math.nan
    return AgreementResult(
        value,
        s.observed,
        p_e,
        method,
        s.table.shape[0],
        s.labels,
        s.table,
        s.dropped,
        s.proportions,
        provenance(**settings),
    )


@_agreement(
    input="ratings",
    params=(COUNTS,),
    peers=(
        Peer(
            "statsmodels",
            "statsmodels.stats.inter_rater.fleiss_kappa(method='fleiss')",
            "Takes the subjects × categories count table only (assay's counts=True) and the same "
            "number of raters for every subject.",
        ),
    ),
)
def fleiss_kappa(data: RatingsData, *, counts: bool = False) -> AgreementResult:
    """Fleiss' kappa (P_o - P_e) / (1 - P_e) with P_e = Σ_j p_j²: ``data`` subjects × raters
    labels (missing allowed) or, with ``counts=True``, a subjects × categories count table.
    Varying numbers of raters per subject use the generalisation in the module documentation.
    Reference: Fleiss (1971).

    Parameters
    ----------
    data : array_like or mapping of columns
        Ratings in any layout (see the module documentation): a subjects × raters matrix
        (missing: None or NaN), (unit, rater, value) triples or columns, or with
        ``counts=True`` a subjects × categories count table.
    counts : bool
        Whether ``data`` is a count table.

    Returns
    -------
    AgreementResult
        Kappa (``value``), P_o, P_e, the subjects × categories table and the category
        proportions.

    Examples
    --------
    >>> from assay.agreement import fleiss_kappa
    >>> round(float(fleiss_kappa([["x", "x", "x"], ["x", "y", "y"], ["y", "y", "y"]])), 4)
    0.55
    """
    where = "fleiss_kappa"
    s = _subjects(data, counts, where)
    p_e = float((s.proportions**2).sum())
    return _multirater(s, p_e, "Fleiss' kappa", measure=where, counts=counts)


def _categories(value: Any) -> int | None:
    if value is None:
        return None
    return integer(value, "n_categories", minimum=2, error=MetricError)


@_agreement(
    input="ratings",
    params=(
        COUNTS,
        Param(
            "n_categories",
            FROM_SIGNATURE,
            _categories,
            "number of categories k (default: those observed, or the count table's columns)",
        ),
    ),
    peers=(
        Peer(
            "statsmodels",
            "statsmodels.stats.inter_rater.fleiss_kappa(method='randolph')",
            "Takes the subjects × categories count table only; k is its number of columns.",
        ),
    ),
)
def randolph_kappa(
    data: RatingsData, *, counts: bool = False, n_categories: int | None = None
) -> AgreementResult:
    """Randolph's (2005) free-marginal multirater kappa: as Fleiss but P_e = 1 / k, with
    ``k = n_categories`` (default: the categories observed, or the count table's columns).

    Reference: Randolph (2005), "Free-marginal multirater kappa (multirater κ_free): an
    alternative to Fleiss' fixed-marginal multirater kappa", Joensuu Learning and Instruction
    Symposium.

    Parameters
    ----------
    data : array_like or mapping of columns
        The ratings: a units × raters matrix (missing: NaN or None), (unit, rater, value)
        triples or columns, or with ``counts=True`` a units × categories count matrix.
    counts : bool
        Whether ``data`` is a count matrix.
    n_categories : int, optional
        The number k of categories raters could choose from (at least 2).

    Returns
    -------
    AgreementResult
        kappa = (P_o - 1/k) / (1 - 1/k), with P_o as for :func:`fleiss_kappa`.

    Examples
    --------
    >>> from assay.agreement import randolph_kappa
    >>> res = randolph_kappa([[1, 1], [2, 2], [1, 2], [2, 2]], n_categories=2)
    >>> res.value, res.observed, res.expected
    (0.5, 0.75, 0.5)
    """
    where = "randolph_kappa"
    s = _subjects(data, counts, where)
    k = s.table.shape[1] if n_categories is None else int(n_categories)
    if k < 2:
        raise InputError(f"{where}: needs at least two categories")
    return _multirater(
        s, 1.0 / k, "Randolph's free-marginal kappa", measure=where, counts=counts, k=k
    )


@_agreement(input="ratings", params=(COUNTS,), bounds=(0.0, 1.0))
def percent_agreement(data: RatingsData, *, counts: bool = False) -> AgreementResult:
    """Mean pairwise percent agreement P_o = mean_i Σ_j n_ij (n_ij - 1) / (n_i (n_i - 1)): the
    mean over subjects (with two or more ratings) of the share of agreeing rater pairs. With
    two raters, the share of items labelled alike. ``expected`` is 0 (no chance correction) so
    ``value == observed``.

    Reference: Fleiss (1971), "Measuring nominal scale agreement among many raters",
    Psychological Bulletin 76(5) (the observed agreement P_o).

    Parameters
    ----------
    data : array_like or mapping of columns
        The ratings: a units × raters matrix (missing: NaN or None), (unit, rater, value)
        triples or columns, or with ``counts=True`` a units × categories count matrix.
    counts : bool
        Whether ``data`` is a count matrix.

    Returns
    -------
    AgreementResult
        The agreement P_o (``value`` and ``observed``), between 0 and 1.

    Examples
    --------
    >>> from assay.agreement import percent_agreement
    >>> percent_agreement([[1, 1], [1, 2], [2, 2], [3, 1]]).value
    0.5
    """
    where = "percent_agreement"
    s = _subjects(data, counts, where)
    return _multirater(s, 0.0, "percent agreement", measure=where, counts=counts)
