"""Several runs per system (one score per training seed): the distribution of a system's
scores (:class:`ScoreDistribution`, :func:`seed_distribution`) and Welch's unequal-variance
t-test of two systems' seed scores (:func:`welch_ttest`). The comparison of several systems
built on them (ASO and the classical tests, corrected across pairs) is the ranking core's
:func:`assay.compare_seeds`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._options import Alternative
from .._result import Result, provenance
from . import _checks as check
from .result import StatResult, _without_header

__all__ = ["ScoreDistribution", "seed_distribution", "welch_ttest"]


@dataclass(frozen=True, repr=False)
class ScoreDistribution(Result):
    """The scores of one system over its runs (seeds): their number, mean, standard
    deviation (ddof = 1; NaN for one run), extremes and quartiles (linear interpolation,
    NumPy's default).

    Parameters
    ----------
    system : str
        The system's name ("" when not given).
    n : int
        Runs (seeds).
    mean, sd, min, max : float
        Mean, sample standard deviation, smallest and largest score.
    q25, median, q75 : float
        The quartiles.
    provenance : mapping of str to any, optional
        assay's and Python's versions, ``ddof`` and the ``quantile_method``.

    Examples
    --------
    >>> from assay.stats import seed_distribution
    >>> dist = seed_distribution([0.31, 0.35, 0.33, 0.29], system="bm25")
    >>> dist.n, round(dist.mean, 4), round(dist.sd, 4), dist.min, dist.max
    (4, 0.32, 0.0258, 0.29, 0.35)
    >>> dist.records()[0]["system"]
    'bm25'
    """

    system: str
    n: int
    mean: float
    sd: float
    min: float
    max: float
    q25: float
    median: float
    q75: float
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @property
    def details(self) -> dict[str, Any]:  # Any: settings of every type
        """``ddof`` and ``quantile_method``: ``provenance`` without the version header."""
        return _without_header(self.provenance)

    def records(self) -> list[dict[str, Any]]:  # Any: names, counts and scores
        """One row: system, n, mean, sd, min, q25, median, q75, max."""
        return [
            {
                "system": self.system,
                "n": self.n,
                "mean": self.mean,
                "sd": self.sd,
                "min": self.min,
                "q25": self.q25,
                "median": self.median,
                "q75": self.q75,
                "max": self.max,
            }
        ]


def seed_distribution(scores: ArrayLike, *, system: str = "") -> ScoreDistribution:
    """The distribution of one system's scores over its runs (one score per seed).

    Parameters
    ----------
    scores : array_like
        One finite score per run (seed), at least one.
    system : str, default ""
        The system's name, carried by the result.

    Returns
    -------
    ScoreDistribution
        n, mean, sd (ddof = 1, NaN for a single run), min, max and the quartiles.

    Examples
    --------
    >>> from assay.stats import seed_distribution
    >>> d = seed_distribution([0.5, 0.7, 0.6])
    >>> round(d.mean, 4), d.median, d.q25, d.q75
    (0.6, 0.6, 0.55, 0.6499999999999999)
    >>> import math
    >>> math.isnan(seed_distribution([0.4]).sd)
    True
    """
    x = check.vector(scores, "scores", "seed_distribution")
    n = int(x.shape[0])
    q25, median, q75 = (float(v) for v in np.quantile(x, [0.25, 0.5, 0.75]))
    return ScoreDistribution(
        system=str(system),
        n=n,
        mean=float(x.mean()),
        sd=float(x.std(ddof=1)) if n > 1 else math.nan,
        min=float(x.min()),
        max=float(x.max()),
        q25=q25,
        median=median,
        q75=q75,
        provenance=provenance(ddof=1, quantile_method="linear"),
    )


def welch_ttest(
    a: ArrayLike,
    b: ArrayLike,
    *,
    confidence: float = 0.95,
    alternative: Alternative = "two-sided",
) -> StatResult:
    """Welch's t-test of two independent samples (unequal variances): are the seed scores
    of A and B from distributions with the same mean? The scores of two systems' runs are
    not paired (seed 1 of one system has nothing to do with seed 1 of the other), hence this
    test rather than the paired t-test.

    t = (mean(a) − mean(b)) / √(s²_a/n_a + s²_b/n_b) on the Welch–Satterthwaite degrees of
    freedom; the interval is mean(a) − mean(b) ± t_{df}·se. Equal to
    ``scipy.stats.ttest_ind(a, b, equal_var=False)``. With no spread in either sample the
    statistic is ±inf (p = 0) when the means differ and NaN when they are equal.

    Parameters
    ----------
    a, b : array_like
        The two samples (finite), at least 2 values each.
    confidence : float, default 0.95
        Level of the (two-sided) interval of the difference of the means.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater": A's mean is larger.

    Returns
    -------
    StatResult
        ``statistic`` t, ``pvalue``, ``ci`` of mean(a) − mean(b); ``details``: ``df``,
        ``diff``, ``n_a``, ``n_b``, ``alternative``, ``confidence``.

    Examples
    --------
    >>> from assay.stats import welch_ttest
    >>> res = welch_ttest([0.71, 0.74, 0.69, 0.75, 0.73], [0.66, 0.70, 0.64, 0.68])
    >>> round(res.statistic, 3), round(res.pvalue, 4), round(res.details["df"], 2)
    (3.212, 0.017, 6.33)
    """
    from scipy import special

    where = "welch_ttest"
    x = check.vector(a, "a", where, min_n=2)
    y = check.vector(b, "b", where, min_n=2)
    confidence = check.confidence(confidence, where)
    alternative = check.alternative(alternative, where)
    na, nb = x.shape[0], y.shape[0]
    va, vb = x.var(ddof=1) / na, y.var(ddof=1) / nb
    diff = float(x.mean() - y.mean())
    se = math.sqrt(va + vb)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = float((va + vb) ** 2 / (va**2 / (na - 1) + vb**2 / (nb - 1)))
        t = float(np.divide(diff, se))
    if se == 0:
        pvalue = math.nan if diff == 0 else _infinite_pvalue(t, alternative)
        low, high = diff, diff
    else:
        if alternative == "two-sided":
            pvalue = float(2 * special.stdtr(df, -abs(t)))
        elif alternative == "greater":
            pvalue = float(special.stdtr(df, -t))
        else:
            pvalue = float(special.stdtr(df, t))
        half = float(special.stdtrit(df, 0.5 + confidence / 2)) * se
        low, high = diff - half, diff + half
    details: dict[str, Any] = {  # Any: counts and settings
        "df": df,
        "diff": diff,
        "n_a": int(na),
        "n_b": int(nb),
        "alternative": alternative,
        "confidence": confidence,
    }
    return StatResult.of(t, pvalue, (low, high), "Welch's t-test", details)


def _infinite_pvalue(t: float, alternative: str) -> float:
    """The p-value of an infinite t (no spread, different means)."""
    if alternative == "two-sided":
        return 0.0
    return 0.0 if (t > 0) == (alternative == "greater") else 1.0
