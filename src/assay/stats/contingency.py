"""Tests of paired 0/1 outcomes: McNemar's test for two classifiers on the same items
(:func:`mcnemar`) and Cochran's Q for several (:func:`cochran_q`).

Both take per-item correctness (1: the classifier labelled the item right, 0: wrong) and use
only the items on which the classifiers disagree; statsmodels'
``statsmodels.stats.contingency_tables.mcnemar`` and ``cochrans_q`` are the peers
(``tests/peers/test_stats_mcnemar_statsmodels.py``).
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import McNemarMethod
from ..errors import InputError
from . import _checks as check
from .result import StatResult

__all__ = ["cochran_q", "mcnemar", "mcnemar_pvalues"]

FloatArray = NDArray[np.float64]


def _zero_one(x: ArrayLike, name: str, where: str, ndim: int) -> FloatArray:
    """A finite array of 0/1 outcomes of ``ndim`` dimensions (booleans allowed)."""
    arr = check.matrix(x, name, where) if ndim == 2 else check.vector(x, name, where)
    if not np.isin(arr, (0.0, 1.0)).all():
        bad = arr[~np.isin(arr, (0.0, 1.0))].flat[0]
        raise InputError(f"{where}: {name} must hold 0/1 outcomes (correct or not), got {bad!r}")
    return arr


def mcnemar_pvalues(
    b: ArrayLike, c: ArrayLike, method: McNemarMethod = "exact"
) -> tuple[FloatArray, FloatArray]:
    """McNemar's statistic and two-sided p-value for arrays of discordant counts ``b``, ``c``
    (the array form of :func:`mcnemar`, for many pairs at once).

    Parameters
    ----------
    b, c : array_like
        Discordant counts of equal shape: items only the first classifier got right, items
        only the second got right.
    method : {"exact", "mid-p", "chi2"}
        As in :func:`mcnemar`.

    Returns
    -------
    tuple of numpy.ndarray
        The statistics and the p-values (1 where b + c = 0).

    Examples
    --------
    >>> from assay.stats.contingency import mcnemar_pvalues
    >>> stat, p = mcnemar_pvalues([2, 5], [9, 5])
    >>> stat.tolist(), p.round(4).tolist()
    ([2.0, 5.0], [0.0654, 1.0])
    """
    from scipy.stats import binom, chi2

    method = check.option(method, McNemarMethod, "method", "mcnemar")
    nb = np.asarray(b, dtype=np.float64)
    nc = np.asarray(c, dtype=np.float64)
    total = nb + nc
    some = total > 0
    if method == "chi2":
        # (|b - c| - 1)² / (b + c): Edwards' (1948) continuity correction, statsmodels'
        # exact=False, correction=True; 0 with no discordant item.
        stat = np.where(some, (np.abs(nb - nc) - 1.0) ** 2 / np.where(some, total, 1.0), 0.0)
        p = np.where(some, chi2.sf(stat, 1), 1.0)
        return stat, cast(FloatArray, p)
    low = np.minimum(nb, nc)
    tail = binom.cdf(low, total, 0.5)
    if method == "exact":
        p = np.minimum(1.0, 2.0 * tail)
    else:
        # mid-p: twice the tail with half the observed point's probability (Fagerland,
        # Lydersen & Laake 2013, eq. 3), ≤ 1 by symmetry.
        p = np.minimum(1.0, 2.0 * tail - binom.pmf(low, total, 0.5))
    return low, cast(FloatArray, np.where(some, p, 1.0))


def mcnemar(
    a: ArrayLike,
    b: ArrayLike | None = None,
    *,
    method: McNemarMethod = "exact",
) -> StatResult:
    """McNemar's test (McNemar 1947) that two classifiers are equally accurate on the same
    items, from the items on which exactly one of them is right.

    With b = #{a right, b wrong} and c = #{a wrong, b right} (the discordant pairs), under the
    null hypothesis each discordant item falls either way with probability 1/2, so
    X = min(b, c) against Bin(b + c, 1/2). ``method``:

    - ``"exact"``: two-sided binomial p = min(1, 2·P(X ≤ min(b, c))) (statsmodels'
      ``mcnemar(exact=True)``); statistic min(b, c).
    - ``"mid-p"``: p = 2·P(X ≤ min(b, c)) − P(X = min(b, c)), the exact p-value less the
      observed point's probability (Fagerland, Lydersen & Laake 2013, "The McNemar test for
      binary matched-pairs data: mid-p and asymptotic are better than exact conditional",
      BMC Med Res Methodol 13:91); statistic min(b, c).
    - ``"chi2"``: χ² = (|b − c| − 1)² / (b + c) with Edwards' continuity correction, p from
      χ² with 1 degree of freedom (statsmodels' ``exact=False, correction=True``).

    With no discordant item (b + c = 0) there is no evidence either way: statistic 0 (the
    exact forms: min(b, c) = 0) and p = 1.

    Parameters
    ----------
    a : array_like
        Per-item correctness of the first classifier (0/1 or booleans), or a 2 × 2 table
        ``[[both right, only a right], [only b right, both wrong]]`` when ``b`` is None.
    b : array_like, optional
        Per-item correctness of the second classifier, aligned with ``a``.
    method : {"exact", "mid-p", "chi2"}, default "exact"
        The p-value (see above).

    Returns
    -------
    StatResult
        ``statistic`` (min(b, c), or χ²), ``pvalue`` (two-sided), ``ci`` None; ``details``:
        b, c, n, method.

    Examples
    --------
    >>> from assay.stats import mcnemar
    >>> a = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1]
    >>> b = [1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1]
    >>> res = mcnemar(a, b)
    >>> res.details["b"], res.details["c"], round(res.pvalue, 4)
    (6, 1, 0.125)
    >>> round(mcnemar(a, b, method="mid-p").pvalue, 4), round(mcnemar(a, b, method="chi2").pvalue, 4)
    (0.0703, 0.1306)
    >>> mcnemar([[40, 6], [1, 5]]).pvalue == res.pvalue
    True
    """
    where = "mcnemar"
    method = check.option(method, McNemarMethod, "method", where)
    if b is None:
        table = check.matrix(a, "table", where)
        if table.shape != (2, 2) or (table < 0).any() or (table != np.round(table)).any():
            raise InputError(
                f"{where}: without b, a must be a 2 x 2 table of counts, got shape {table.shape}"
            )
        nb, nc, n = int(table[0, 1]), int(table[1, 0]), int(table.sum())
    else:
        xa = _zero_one(a, "a", where, 1)
        xb = _zero_one(b, "b", where, 1)
        if xa.shape != xb.shape:
            raise InputError(
                f"{where}: a and b must have the same length (got {xa.shape[0]} and {xb.shape[0]})"
            )
        nb = int(np.count_nonzero((xa == 1) & (xb == 0)))
        nc = int(np.count_nonzero((xa == 0) & (xb == 1)))
        n = int(xa.shape[0])
    stat, p = mcnemar_pvalues([nb], [nc], method)
    details = {"b": nb, "c": nc, "n": n, "method": method}
    return StatResult.of(float(stat[0]), float(p[0]), None, f"McNemar's test ({method})", details)


def cochran_q(x: ArrayLike) -> StatResult:
    """Cochran's Q test (Cochran 1950) that k classifiers are equally accurate on the same n
    items, from their per-item correctness.

    With C_j the items classifier j got right, R_i the classifiers that got item i right and
    N = Σ C_j,

        Q = (k − 1) · (k · Σ_j C_j² − N²) / (k · N − Σ_i R_i²),

    referred to χ² with k − 1 degrees of freedom (statsmodels' ``cochrans_q``, which takes
    the transpose: items × classifiers). Items that every classifier got right, or every one
    got wrong, add nothing. With no item on which the classifiers differ the denominator is
    0: Q = 0 and p = 1. For k = 2, Q is McNemar's uncorrected χ², (b − c)² / (b + c).

    Parameters
    ----------
    x : array_like
        (k, n) per-item correctness (0/1 or booleans): one row per classifier, k ≥ 2.

    Returns
    -------
    StatResult
        ``statistic`` Q, ``pvalue``, ``ci`` None; ``details``: df (k − 1), k, n.

    Examples
    --------
    >>> from assay.stats import cochran_q
    >>> res = cochran_q([[1, 1, 1, 1, 1, 1, 0, 1],
    ...                  [1, 0, 1, 0, 0, 1, 0, 0],
    ...                  [0, 0, 1, 0, 0, 1, 0, 0]])
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.details["df"]
    (8.4, 0.015, 2)
    """
    from scipy.stats import chi2

    where = "cochran_q"
    x = _zero_one(x, "x", where, 2)
    k, n = x.shape
    if k < 2:
        raise InputError(f"{where}: needs at least 2 classifiers (rows), got {k}")
    if n < 1:
        raise InputError(f"{where}: needs at least 1 item (column)")
    per_system = x.sum(axis=1)
    per_item = x.sum(axis=0)
    total = per_system.sum()
    den = k * total - np.sum(per_item**2)
    if den == 0:
        q, p = 0.0, 1.0
    else:
        q = float((k - 1) * (k * np.sum(per_system**2) - total**2) / den)
        p = float(chi2.sf(q, k - 1))
    details = {"df": int(k - 1), "k": int(k), "n": int(n)}
    return StatResult.of(q, p, None, "Cochran's Q test", details)
