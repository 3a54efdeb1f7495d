"""Risk-sensitive evaluation against a baseline: URisk and TRisk for one system (paired
per-topic scores), ZRisk and GeoRisk for several systems at once (a topics x systems table).

A topic where the system scores below the baseline is a loss and weighs ``1 + risk_alpha``
times its size; a win weighs its size. ``risk_alpha = 0`` is the plain mean difference. The
TREC 2013-2014 Web tracks reported URisk at risk_alpha = 1, 5 and 10 (gdeval's
``-riskAlpha``).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from ..errors import InputError
from . import _checks as check
from .result import StatResult

__all__ = ["georisk", "risk_differences", "trisk", "urisk", "zrisk"]


def risk_differences(a: ArrayLike, b: ArrayLike, *, risk_alpha: float) -> np.ndarray:
    """Per-topic risk-weighted differences: Δ = a - b where Δ >= 0, and
    (1 + risk_alpha) Δ where Δ < 0 (gdeval's per-topic numbers in its risk mode).

    Parameters
    ----------
    a, b : array_like
        Per-topic scores of the system and of the baseline, paired by position.
    risk_alpha : float
        Extra weight of a loss (>= 0).

    Returns
    -------
    numpy.ndarray
        One risk-weighted difference per topic.

    Examples
    --------
    >>> from assay.stats import risk_differences
    >>> risk_differences([0.5, 0.2, 0.4], [0.3, 0.4, 0.4], risk_alpha=1.0).round(4).tolist()
    [0.2, -0.4, 0.0]
    """
    where = "risk_differences"
    alpha = opt.risk_alpha(risk_alpha, where=where)
    return _weighted(check.difference(a, b, where, min_n=1), alpha)


def _weighted(delta: np.ndarray, alpha: float) -> np.ndarray:
    return np.where(delta < 0, (1.0 + alpha) * delta, delta)


def _counts(delta: np.ndarray) -> dict[str, int]:
    return {
        "wins": int((delta > 0).sum()),
        "ties": int((delta == 0).sum()),
        "losses": int((delta < 0).sum()),
    }


def urisk(a: ArrayLike, b: ArrayLike, *, risk_alpha: float) -> StatResult:
    """URisk (Collins-Thompson et al. 2014): the mean risk-weighted difference,
    (1/n) [Σ_{wins} Δ - (1 + risk_alpha) Σ_{losses} |Δ|].

    Positive: the system gains on the baseline even with its losses weighted up; negative:
    the losses outweigh the gains. An estimate, not a test (``pvalue`` is NaN; see
    :func:`trisk`).

    Parameters
    ----------
    a, b : array_like
        Per-topic scores of the system and of the baseline, paired by position (n >= 1).
    risk_alpha : float
        Extra weight of a loss (>= 0; 0 gives the mean difference).

    Returns
    -------
    StatResult
        ``statistic`` URisk; ``details``: risk_alpha, n, wins, ties, losses (by the raw
        difference), mean_difference.

    Examples
    --------
    >>> from assay.stats import urisk
    >>> res = urisk([0.5, 0.2, 0.4, 0.9], [0.3, 0.4, 0.4, 0.5], risk_alpha=1.0)
    >>> round(res.statistic, 4), res.details["wins"], res.details["losses"]
    (0.05, 2, 1)

    References
    ----------
    K. Collins-Thompson, C. Macdonald, P. Bennett, F. Diaz, E. Voorhees (2014), "TREC 2013
    Web Track Overview", TREC 2013.
    """
    where = "urisk"
    alpha = opt.risk_alpha(risk_alpha, where=where)
    delta = check.difference(a, b, where, min_n=1)
    details = {
        "risk_alpha": alpha,
        "n": int(delta.size),
        **_counts(delta),
        "mean_difference": float(delta.mean()),
    }
    value = float(_weighted(delta, alpha).mean())
    return StatResult.of(value, math.nan, None, "URisk", details)


def trisk(
    a: ArrayLike,
    b: ArrayLike,
    *,
    risk_alpha: float,
    confidence: float = 0.95,
) -> StatResult:
    """TRisk (Dinçer, Macdonald & Ounis 2014): URisk over its standard error, a one-sample
    t-statistic of the risk-weighted differences d: TRisk = mean(d) / (sd(d) / √n), sd with
    ddof=1, df = n - 1.

    The inferential reading: TRisk > 2 (p < 0.05 two-sided, for n of about 30 and more) is
    a significant gain over the baseline even with losses weighted by 1 + risk_alpha;
    TRisk < -2 a significant risk of loss; in between, no evidence either way. Constant
    differences follow :func:`assay.stats.ttest`: ±inf (p = 0), or NaN when all are 0.

    Parameters
    ----------
    a, b : array_like
        Per-topic scores of the system and of the baseline, paired by position (n >= 2).
    risk_alpha : float
        Extra weight of a loss (>= 0).
    confidence : float, default 0.95
        Level of the t-based interval of URisk.

    Returns
    -------
    StatResult
        ``statistic`` TRisk, ``pvalue`` (two-sided, Student's t with n - 1 df), ``ci`` the
        interval of URisk; ``details``: urisk, standard_error, df, risk_alpha, n, wins, ties,
        losses.

    Examples
    --------
    >>> from assay.stats import trisk
    >>> a = [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49]
    >>> b = [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47]
    >>> res = trisk(a, b, risk_alpha=1.0)
    >>> print(f"TRisk={res.statistic:.3f} URisk={res.details['urisk']:.4f} p={res.pvalue:.4f}")
    TRisk=3.366 URisk=0.0375 p=0.0120

    References
    ----------
    B. T. Dinçer, C. Macdonald, I. Ounis (2014), "Hypothesis testing for the risk-sensitive
    evaluation of retrieval systems", SIGIR 2014.
    """
    from scipy import stats

    where = "trisk"
    alpha = opt.risk_alpha(risk_alpha, where=where)
    level = check.confidence(confidence, where)
    delta = check.difference(a, b, where, min_n=2)
    d = _weighted(delta, alpha)
    with warnings.catch_warnings():  # constant d: scipy warns, and returns ±inf or NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.ttest_1samp(d, 0.0)
        ci = res.confidence_interval(confidence_level=level)
    details = {
        "urisk": float(d.mean()),
        "standard_error": float(d.std(ddof=1) / math.sqrt(d.size)),
        "df": int(d.size - 1),
        "risk_alpha": alpha,
        "confidence": level,
        "n": int(d.size),
        **_counts(delta),
    }
    interval = (float(ci.low), float(ci.high))
    return StatResult.of(float(res.statistic), float(res.pvalue), interval, "TRisk", details)


def _table(scores: ArrayLike, where: str) -> np.ndarray:
    table = check.matrix(scores, "scores", where, min_n=1)
    if table.shape[0] < 1:
        raise InputError(f"{where}: scores needs at least one topic (row)")
    if (table < 0).any():
        raise InputError(
            f"{where}: scores must be >= 0 (expected values of a topics x systems table); "
            f"the smallest is {float(table.min())!r}"
        )
    return table


def _z(table: np.ndarray) -> np.ndarray:
    """(x - e) / √e, e = topic total x system total / grand total (the chi-square expected
    value); 0 where e = 0 (a topic or system scoring 0 throughout has nothing to expect)."""
    total = table.sum()
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / total if total else table * 0
    out = np.zeros_like(table)
    ok = expected > 0
    out[ok] = (table[ok] - expected[ok]) / np.sqrt(expected[ok])
    return out


def zrisk(scores: ArrayLike, *, risk_alpha: float) -> np.ndarray:
    """ZRisk (Dinçer, Macdonald & Ounis 2016) of every system of a topics x systems table:
    Σ_{z > 0} z + (1 + risk_alpha) Σ_{z < 0} z over the system's column of
    z = (x - e) / √e, e the expected score of the topic and system (topic total x system
    total / grand total).

    All the systems are each other's baselines: a topic counts as a loss where the system
    scores below what the table leads to expect of it there.

    Parameters
    ----------
    scores : array_like
        (topics, systems) scores, each >= 0.
    risk_alpha : float
        Extra weight of a loss (>= 0).

    Returns
    -------
    numpy.ndarray
        One ZRisk per system (column).

    Examples
    --------
    >>> from assay.stats import zrisk
    >>> table = [[0.5, 0.3], [0.2, 0.4], [0.4, 0.4]]
    >>> zrisk(table, risk_alpha=0.0).round(4).tolist()
    [-0.0245, 0.0245]

    References
    ----------
    B. T. Dinçer, C. Macdonald, I. Ounis (2016), "Risk-sensitive evaluation and learning to
    rank using multiple baselines", SIGIR 2016.
    """
    where = "zrisk"
    alpha = opt.risk_alpha(risk_alpha, where=where)
    z = _z(_table(scores, where))
    return np.asarray(_weighted(z, alpha).sum(axis=0), dtype=np.float64)


def georisk(scores: ArrayLike, *, risk_alpha: float) -> np.ndarray:
    """GeoRisk (Benham & Culpepper 2017) of every system of a topics x systems table: the
    geometric mean of its mean score and the standard normal CDF of its ZRisk per topic,
    √(mean_j x_j · Φ(ZRisk / c)), c the number of topics.

    Parameters
    ----------
    scores : array_like
        (topics, systems) scores, each >= 0.
    risk_alpha : float
        Extra weight of a loss in ZRisk (>= 0).

    Returns
    -------
    numpy.ndarray
        One GeoRisk per system (column), in [0, √max score].

    Examples
    --------
    >>> from assay.stats import georisk
    >>> table = [[0.5, 0.3], [0.2, 0.4], [0.4, 0.4]]
    >>> georisk(table, risk_alpha=1.0).round(4).tolist()
    [0.4162, 0.4205]

    References
    ----------
    R. Benham, J. S. Culpepper (2017), "Risk-reward trade-offs in rank fusion", ADCS 2017.
    """
    from scipy import stats

    where = "georisk"
    alpha = opt.risk_alpha(risk_alpha, where=where)
    table = _table(scores, where)
    c = table.shape[0]
    z = _weighted(_z(table), alpha).sum(axis=0)
    return np.asarray(np.sqrt(table.mean(axis=0) * stats.norm.cdf(z / c)), dtype=np.float64)
