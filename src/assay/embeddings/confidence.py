"""Does a model know when it is unsure? Curves and statistics of per-query confidences.

- :func:`error_reject_curve` — reject the least confident queries first; the error is
  1 - the mean of a per-query metric over the queries kept; its area (AURC, Geifman et al.
  2019), with the oracle's (rejecting the worst queries first) and chance's for scale.
- :func:`threshold_curve` — a metric among the queries whose confidence (in [0, 1]) is at
  least each threshold, with the coverage.
- :func:`uncertainty_correlation` — Spearman's ρ and Kendall's τ-b, with confidence
  intervals from :mod:`assay.stats`, between predicted and reference uncertainties.
- :func:`hpd_interval` — highest posterior density intervals from posterior samples.

Per-query values come as an array or as a :class:`~assay.embeddings.RetrievalMetrics` and
a metric name; then queries left out of its means (R = 0) are left out here too, and
counted (``n_excluded``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._arrays import finite_array, same_length
from .._options import choice
from .._options import confidence as check_confidence
from .._options import n_resamples as check_resamples
from .._options import seed as check_seed
from .._result import Result, provenance
from ..errors import InputError, OptionError
from .result import RetrievalMetrics

if TYPE_CHECKING:
    from ..stats.result import StatResult

__all__ = [
    "ErrorRejectCurve",
    "HPDInterval",
    "ThresholdCurve",
    "UncertaintyCI",
    "UncertaintyCorrelation",
    "error_reject_curve",
    "hpd_interval",
    "threshold_curve",
    "uncertainty_correlation",
]

FloatArray = NDArray[np.float64]
UncertaintyCI = Literal["analytic", "bootstrap"]


def _per_query(
    values: ArrayLike | RetrievalMetrics, confidence: ArrayLike, metric: str | None
) -> tuple[FloatArray, FloatArray, int, str]:
    """Aligned finite values and confidences, the number of queries left out, the metric."""
    conf = finite_array(confidence, "confidence", purpose="confidence curves")
    if isinstance(values, RetrievalMetrics):
        if metric is None:
            if len(values.metrics) != 1:
                raise OptionError(
                    f"name the metric: one of {', '.join(values.metrics)}", option="metric"
                )
            metric = values.metrics[0]
        column = values[metric]
        same_length(("values", column), ("confidence", conf), what="queries")
        kept = ~values.lone
        return column[kept], conf[kept], int(np.count_nonzero(~kept)), str(metric)
    vals = finite_array(values, "values", purpose="confidence curves")
    same_length(("values", vals), ("confidence", conf), what="queries")
    return vals, conf, 0, metric or "value"


# ---------------------------------------------------------------- error vs reject


@dataclass(frozen=True, eq=False, repr=False)
class ErrorRejectCurve(Result):
    """``error[j]`` = 1 - mean metric of the queries kept after rejecting the j least
    confident (``rejected[j]`` = j / n, j = 0..n-1); ``oracle_error`` rejects the worst
    queries first. ``area`` is the mean of ``error`` (AURC), ``oracle_area`` and
    ``random_area`` (1 - mean: rejecting at random) its best and chance values.

    :func:`error_reject_curve` builds it.

    Parameters
    ----------
    metric : str
        The per-query metric.
    rejected : numpy.ndarray
        The fraction of the queries rejected at each point, j / n.
    error : numpy.ndarray
        1 - the mean metric of the queries kept, least confident rejected first.
    oracle_error : numpy.ndarray
        The same, rejecting the worst queries first.
    area, oracle_area, random_area : float
        The mean of ``error`` (AURC), of ``oracle_error``, and 1 - the mean metric.
    n : int
        The number of queries.
    n_excluded : int
        Queries left out (R = 0 in a :class:`~assay.embeddings.RetrievalMetrics`).
    provenance : mapping
        What produced it.

    Examples
    --------
    >>> from assay.embeddings import error_reject_curve
    >>> c = error_reject_curve([1.0, 0.0, 1.0, 1.0], confidence=[0.9, 0.1, 0.8, 0.7])
    >>> c.rejected.tolist(), c.area, c.random_area, c.excess_area
    ([0.0, 0.25, 0.5, 0.75], 0.0625, 0.25, 0.0)
    """

    metric: str
    rejected: FloatArray
    error: FloatArray
    oracle_error: FloatArray
    area: float
    oracle_area: float
    random_area: float
    n: int
    n_excluded: int
    provenance: Mapping[str, Any]  # Any: settings of every type

    @property
    def excess_area(self) -> float:
        """``area - oracle_area`` (E-AURC): 0 for confidences that order queries perfectly."""
        return self.area - self.oracle_area

    def records(self) -> list[dict[str, Any]]:
        """One row per point: metric, rejected (fraction), error, oracle_error."""
        return [
            {"metric": self.metric, "rejected": r, "error": e, "oracle_error": o}
            for r, e, o in zip(
                self.rejected.tolist(), self.error.tolist(), self.oracle_error.tolist(), strict=True
            )
        ]

    def summary(self) -> dict[str, Any]:
        """The areas as one flat row."""
        return {
            "metric": self.metric,
            "aurc": self.area,
            "oracle_aurc": self.oracle_area,
            "random_aurc": self.random_area,
            "e_aurc": self.excess_area,
            "n_queries": self.n,
            "n_excluded": self.n_excluded,
        }


def error_reject_curve(
    values: ArrayLike | RetrievalMetrics,
    confidence: ArrayLike,
    *,
    metric: str | None = None,
) -> ErrorRejectCurve:
    """The error-vs-reject curve of a per-query metric (values in [0, 1], higher better)
    under per-query ``confidence`` (higher: more confident).

    Rejecting j of n queries, least confident first, the error is 1 - (mean of the values
    kept). Queries of equal confidence are rejected in no particular order: the curve takes
    the expected value over their orders (a partly rejected group keeps its mean), so it does
    not depend on the input order. Area: AURC = (1/n) Σ_{j=0..n-1} error[j] (Geifman,
    Uziel & El-Yaniv 2019, "Bias-Reduced Uncertainty Estimation for Deep Neural
    Classifiers", ICLR).

    Parameters
    ----------
    values
        Per-query values of the metric, or a :class:`RetrievalMetrics` (then ``metric``
        names the measure; queries left out are left out here too).
    confidence
        One confidence per query.
    metric
        The measure of a :class:`RetrievalMetrics`.

    Returns
    -------
    ErrorRejectCurve
        The error after each rejection, the oracle's, and their areas.

    Examples
    --------
    >>> from assay.embeddings import error_reject_curve
    >>> c = error_reject_curve([1.0, 0.0, 1.0, 1.0], confidence=[0.9, 0.1, 0.8, 0.7])
    >>> c.error.tolist(), c.area
    ([0.25, 0.0, 0.0, 0.0], 0.0625)
    """
    vals, conf, excluded, name = _per_query(values, confidence, metric)
    n = vals.size
    order = np.argsort(conf, kind="stable")
    v, c = vals[order], conf[order]
    error = 1.0 - _kept_means(v, c)
    best = np.sort(vals)
    oracle = 1.0 - _suffix_means(best)
    settings = {"metric": name, "ties": "expected value over the orders of equal confidences"}
    return ErrorRejectCurve(
        metric=name,
        rejected=np.arange(n) / n,
        error=error,
        oracle_error=oracle,
        area=float(error.mean()),
        oracle_area=float(oracle.mean()),
        random_area=float(1.0 - vals.mean()),
        n=n,
        n_excluded=excluded,
        provenance=provenance(**settings),
    )


def _suffix_means(v: FloatArray) -> FloatArray:
    """Mean of v[j:] for j = 0..n-1."""
    tail = np.cumsum(v[::-1])[::-1]
    return tail / np.arange(v.size, 0, -1)


def _kept_means(v: FloatArray, c: FloatArray) -> FloatArray:
    """Expected mean of v[j:] for j = 0..n-1 when the items of each run of equal ``c`` come
    in random order: the rejected part of a run takes away its share of the run's sum."""
    n = v.size
    starts = np.flatnonzero(np.r_[True, c[1:] != c[:-1]])
    sizes = np.diff(np.r_[starts, n])
    prefix = np.r_[0.0, np.cumsum(v)]
    run_mean = (prefix[starts + sizes] - prefix[starts]) / sizes
    run = np.repeat(np.arange(starts.size), sizes)
    position = np.arange(n)
    rejected_sum = prefix[starts[run]] + (position - starts[run]) * run_mean[run]
    return cast(FloatArray, (prefix[n] - rejected_sum) / (n - position))


# ---------------------------------------------------------------- metric vs threshold


@dataclass(frozen=True, eq=False, repr=False)
class ThresholdCurve(Result):
    """``value[i]``: mean metric of the queries whose confidence is at least
    ``thresholds[i]`` (NaN when none is), ``n_kept[i]`` of them (``coverage`` = share).

    :func:`threshold_curve` builds it.

    Parameters
    ----------
    metric : str
        The per-query metric.
    thresholds : numpy.ndarray
        The confidence thresholds, in [0, 1].
    value : numpy.ndarray
        The mean metric of the queries kept at each threshold.
    n_kept : numpy.ndarray
        The number of queries kept at each threshold.
    n : int
        The number of queries.
    n_excluded : int
        Queries left out (R = 0 in a :class:`~assay.embeddings.RetrievalMetrics`).
    provenance : mapping
        What produced it.

    Examples
    --------
    >>> from assay.embeddings import threshold_curve
    >>> t = threshold_curve([1.0, 0.0, 1.0, 1.0], [0.9, 0.1, 0.8, 0.7], thresholds=[0.0, 0.5])
    >>> t.coverage.tolist()
    [1.0, 0.75]
    """

    metric: str
    thresholds: FloatArray
    value: FloatArray
    n_kept: NDArray[np.int64]
    n: int
    n_excluded: int
    provenance: Mapping[str, Any]  # Any: settings of every type

    @property
    def coverage(self) -> FloatArray:
        return self.n_kept / self.n

    def records(self) -> list[dict[str, Any]]:
        """One row per threshold: metric, threshold, value, n_kept, coverage."""
        return [
            {"metric": self.metric, "threshold": t, "value": v, "n_kept": k, "coverage": c}
            for t, v, k, c in zip(
                self.thresholds.tolist(),
                self.value.tolist(),
                self.n_kept.tolist(),
                self.coverage.tolist(),
                strict=True,
            )
        ]


def threshold_curve(
    values: ArrayLike | RetrievalMetrics,
    confidence: ArrayLike,
    *,
    metric: str | None = None,
    thresholds: ArrayLike | None = None,
) -> ThresholdCurve:
    """A per-query metric (Recall@1, MAP@R, ...) among the queries whose confidence is at
    least each threshold. Confidences and thresholds lie in [0, 1]; default thresholds
    0, 0.01, ..., 1.

    Parameters
    ----------
    values, confidence, metric
        As :func:`error_reject_curve`.
    thresholds
        Confidence thresholds in [0, 1].

    Returns
    -------
    ThresholdCurve
        The mean metric and the number of queries kept at each threshold.

    Examples
    --------
    >>> from assay.embeddings import threshold_curve
    >>> t = threshold_curve([1.0, 0.0, 1.0, 1.0], [0.9, 0.1, 0.8, 0.7], thresholds=[0.0, 0.5])
    >>> t.value.tolist(), t.n_kept.tolist()
    ([0.75, 1.0], [4, 3])
    """
    vals, conf, excluded, name = _per_query(values, confidence, metric)
    if conf.min() < 0 or conf.max() > 1:
        bad = int(np.flatnonzero((conf < 0) | (conf > 1))[0])
        raise InputError(f"confidence[{bad}] is {float(conf[bad])!r}; threshold curves need [0, 1]")
    if thresholds is None:
        t = np.linspace(0.0, 1.0, 101)
    else:
        t = finite_array(thresholds, "thresholds")
        if t.min() < 0 or t.max() > 1:
            raise OptionError("thresholds must lie in [0, 1]", option="thresholds")
    order = np.argsort(conf, kind="stable")
    tail = np.r_[np.cumsum(vals[order][::-1])[::-1], 0.0]
    first = np.searchsorted(conf[order], t, side="left")
    kept = vals.size - first
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(kept > 0, tail[first] / kept, np.nan)
    return ThresholdCurve(
        metric=name,
        thresholds=t,
        value=value,
        n_kept=kept.astype(np.int64),
        n=int(vals.size),
        n_excluded=excluded,
        provenance=provenance(metric=name, rule="confidence >= threshold"),
    )


# ---------------------------------------------------------------- rank correlation


@dataclass(frozen=True, eq=False, repr=False)
class UncertaintyCorrelation(Result):
    """Spearman's ρ and Kendall's τ-b between predicted and reference uncertainties, each a
    :class:`~assay.stats.StatResult` (statistic, p-value, interval).

    :func:`uncertainty_correlation` builds it.

    Parameters
    ----------
    spearman, kendall : StatResult
        Spearman's ρ and Kendall's τ-b.
    n : int
        The number of queries.
    provenance : mapping
        What produced it.

    Examples
    --------
    >>> from assay.embeddings import uncertainty_correlation
    >>> u = uncertainty_correlation([0.1, 0.4, 0.35, 0.8, 0.6], [0.0, 0.5, 0.3, 0.9, 0.7])
    >>> u.n, [row["coefficient"] for row in u.records()]
    (5, ['spearman', 'kendall'])
    """

    spearman: StatResult
    kendall: StatResult
    n: int
    provenance: Mapping[str, Any]  # Any: settings of every type

    def records(self) -> list[dict[str, Any]]:
        """One row per coefficient: coefficient, statistic, pvalue, ci_low, ci_high, method."""
        rows = []
        for name, res in (("spearman", self.spearman), ("kendall", self.kendall)):
            row = res.records()[0]
            rows.append({"coefficient": name, **row, "n": self.n})
        return rows


def uncertainty_correlation(
    predicted: ArrayLike,
    reference: ArrayLike,
    *,
    confidence: float | None = 0.95,
    ci_method: UncertaintyCI = "analytic",
    n_resamples: int = 9999,
    seed: int = 0,
) -> UncertaintyCorrelation:
    """Rank correlation between predicted uncertainties and reference uncertainties (or
    errors): Spearman's ρ and Kendall's τ-b with p-values and intervals from
    :func:`assay.stats.spearman` and :func:`assay.stats.kendall`. ``ci_method``:
    ``"analytic"`` (Fisher's z with Bonett & Wright's SE for ρ, Fieller's for τ) or
    ``"bootstrap"`` (percentile bootstrap of pairs, ``n_resamples``, ``seed``).

    Parameters
    ----------
    predicted, reference
        Predicted uncertainties and reference uncertainties (or errors), one per query.
    confidence, ci_method, n_resamples, seed
        The intervals (none when ``confidence`` is None).

    Returns
    -------
    UncertaintyCorrelation
        Spearman's ρ and Kendall's τ-b (:class:`~assay.stats.StatResult` each).

    Examples
    --------
    >>> from assay.embeddings import uncertainty_correlation
    >>> u = uncertainty_correlation([0.1, 0.4, 0.35, 0.8, 0.6], [0.0, 0.5, 0.3, 0.9, 0.7])
    >>> u.spearman.statistic, u.kendall.statistic
    (1.0, 1.0)
    """
    from ..stats import kendall, spearman

    ci_method = choice(ci_method, UncertaintyCI, "ci_method")
    n_resamples = check_resamples(n_resamples)
    seed = check_seed(seed)
    if confidence is not None:
        confidence = check_confidence(confidence)
    x = finite_array(predicted, "predicted", purpose="uncertainty correlations")
    y = finite_array(reference, "reference", purpose="uncertainty correlations")
    same_length(("predicted", x), ("reference", y), what="queries")
    boot = ci_method == "bootstrap"
    common = {"confidence": confidence, "n_resamples": n_resamples, "seed": seed}
    rho = spearman(
        x,
        y,
        ci_method="bootstrap" if boot else "fisher",
        confidence=confidence,
        n_resamples=n_resamples,
        seed=seed,
    )
    tau = kendall(
        x,
        y,
        ci_method="bootstrap" if boot else "fieller",
        confidence=confidence,
        n_resamples=n_resamples,
        seed=seed,
    )
    settings = {"ci_method": ci_method, **common, "n": int(x.size)}
    return UncertaintyCorrelation(rho, tau, int(x.size), provenance(**settings))


# ---------------------------------------------------------------- HPD intervals


@dataclass(frozen=True, eq=False, repr=False)
class HPDInterval(Result):
    """Highest posterior density intervals, one per parameter (``low``, ``high``).

    :func:`hpd_interval` builds it.

    Parameters
    ----------
    low, high : numpy.ndarray
        The interval of each parameter.
    confidence : float
        The share of the draws each interval holds.
    n_draws : int
        The number of posterior draws.
    provenance : mapping
        What produced it.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import hpd_interval
    >>> hpd_interval(np.arange(101.0), confidence=0.9).records()
    [{'parameter': 0, 'low': 0.0, 'high': 90.0, 'width': 90.0}]
    """

    low: FloatArray
    high: FloatArray
    confidence: float
    n_draws: int
    provenance: Mapping[str, Any]  # Any: settings of every type

    def records(self) -> list[dict[str, Any]]:
        """One row per parameter: parameter (column index), low, high, width."""
        return [
            {"parameter": i, "low": lo, "high": hi, "width": hi - lo}
            for i, (lo, hi) in enumerate(zip(self.low.tolist(), self.high.tolist(), strict=True))
        ]


def hpd_interval(samples: ArrayLike, *, confidence: float = 0.95) -> HPDInterval:
    """The shortest interval holding ⌊c·n⌋ + 1 of the n posterior draws of each parameter
    (``samples``: draws, or draws x parameters), the Monte Carlo HPD interval of Chen &
    Shao (1999, J. Comput. Graph. Stat. 8(1), 69-92), as ArviZ's ``hdi``: among
    [θ_(j), θ_(j+⌊c·n⌋)] the narrowest, the first one on equal widths. It assumes a unimodal
    posterior.

    Parameters
    ----------
    samples
        Posterior draws (n), or draws × parameters.
    confidence
        The share of the draws the interval holds.

    Returns
    -------
    HPDInterval
        ``low`` and ``high`` per parameter.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import hpd_interval
    >>> h = hpd_interval(np.arange(101.0), confidence=0.9)
    >>> h.low.tolist(), h.high.tolist()
    ([0.0], [90.0])
    """
    confidence = check_confidence(confidence)
    raw = np.asarray(samples)
    ndim = 1 if raw.ndim == 1 else 2
    draws = finite_array(raw, "samples", ndim=ndim, purpose="HPD intervals")
    if ndim == 1:
        draws = draws[:, None]
    n = draws.shape[0]
    if n == 0 or draws.shape[1] == 0:
        raise InputError("samples hold no draws")
    span = math.floor(confidence * n)
    ordered = np.sort(draws, axis=0)
    widths = ordered[span:] - ordered[: n - span]
    start = np.argmin(widths, axis=0)
    cols = np.arange(draws.shape[1])
    low, high = ordered[start, cols], ordered[start + span, cols]
    settings = {"confidence": confidence, "n_draws": n, "draws_per_interval": span + 1}
    return HPDInterval(low, high, confidence, n, provenance(**settings))
