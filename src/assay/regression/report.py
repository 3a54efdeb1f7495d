"""The regression report of one prediction: every measure of :mod:`assay.regression.measures`
at once with per-item errors, confidence intervals and correlations (through
:mod:`assay.stats`)."""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from .._options import BootstrapMethod
from .._result import Result, provenance
from ..stats import StatResult
from .measures import (
    FloatArray,
    check_pair,
    check_squared_errors,
    explained_variance,
    mae,
    mape,
    max_error,
    median_absolute_error,
    mse,
    percentage_errors,
    r2,
    rmse,
)
from .options import ConstantTarget, ZeroTarget

__all__ = ["RegressionReport", "regression_report"]

#: The measures of a report, in order (registry names).
MEASURES = (
    "mse",
    "rmse",
    "mae",
    "median_absolute_error",
    "max_error",
    "mape",
    "r2",
    "explained_variance",
)
CORRELATIONS = ("pearson", "spearman", "kendall")


def _own_default(func: Any, option: str) -> Any:
    """The default of ``option`` in the measure's own signature: a report (and the CLI, which
    passes nothing unless a flag is given) has no default of its own to drift from it."""
    return inspect.signature(func).parameters[option].default


#: MAPE's rule for zero targets, and R²'s for a constant target: the measures' defaults.
ZERO_TARGET: ZeroTarget = _own_default(mape, "zero_target")
CONSTANT_TARGET: ConstantTarget = _own_default(r2, "constant_target")
#: Fewest pairs for a coefficient, and for its Fisher-z interval (assay.stats' rules).
_MIN_PAIRS = 3
_MIN_CI_PAIRS = {"pearson": 4, "spearman": 4, "kendall": 5}


@dataclass(frozen=True, eq=False, repr=False)
class RegressionReport(Result):
    """Every regression measure of one prediction, with per-item errors.

    ``values``: measure name -> value (:data:`MEASURES`); ``intervals``: bootstrap confidence
    intervals of ``mae`` and ``mse`` (of the mean per-item loss) and ``rmse`` (the square
    roots of the MSE interval's endpoints, an interval for RMSE with the same coverage);
    ``correlations``: Pearson, Spearman and Kendall (τ-b) between ``y_true`` and ``y_pred``
    as :class:`~assay.stats.StatResult` (coefficient, p-value, Fisher-z interval);
    per item: ``residuals`` (ŷ - y), ``abs_errors``, ``squared_errors`` and
    ``percentage_errors`` (|ŷ - y| / |y|; NaN for a zero target unless ``zero_target="eps"``).

    ``records()``: one row per measure and correlation; ``item_records()``: one per item.
    Built by :func:`regression_report`.

    Parameters
    ----------
    n : int
        The number of items.
    y_true, y_pred : numpy.ndarray
        The targets and the predictions.
    values : mapping of str to float
        Every measure's value, by name.
    intervals : mapping of str to tuple of float
        Bootstrap confidence intervals of ``mae``, ``mse`` and ``rmse``.
    correlations : mapping of str to StatResult
        Pearson, Spearman and Kendall between the targets and the predictions.
    n_zero_targets : int
        The targets equal to 0 (undefined percentage errors).
    constant_target : bool
        Whether every target is the same (R² and explained variance then follow
        ``constant_target``).
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.regression import regression_report
    >>> rep = regression_report([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.5, 4.5], n_resamples=200)
    >>> rep.n, rep.values["mae"], rep.n_zero_targets, rep.constant_target
    (4, 0.375, 0, False)
    """

    n: int
    y_true: FloatArray
    y_pred: FloatArray
    values: Mapping[str, float]
    intervals: Mapping[str, tuple[float, float]]
    correlations: Mapping[str, StatResult]
    n_zero_targets: int
    constant_target: bool
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __repr__(self) -> str:
        # The headline numbers (every measure and correlation), not the per-item arrays.
        shown = [f"{k}={v:.4g}" for k, v in self.values.items()]
        shown += [f"{k}={float(r.statistic):.4g}" for k, r in self.correlations.items()]
        return f"RegressionReport(n={self.n}, {', '.join(shown)})"

    @property
    def residuals(self) -> FloatArray:
        return self.y_pred - self.y_true

    @property
    def abs_errors(self) -> FloatArray:
        return np.abs(self.y_pred - self.y_true)

    @property
    def squared_errors(self) -> FloatArray:
        return (self.y_pred - self.y_true) ** 2

    @property
    def percentage_errors(self) -> FloatArray:
        rule = "eps" if self.provenance.get("zero_target") == "eps" else "nan"
        return percentage_errors(self.y_true, self.y_pred, rule)

    def __getitem__(self, name: str) -> float:
        if name in self.values:
            return self.values[name]
        if name in self.correlations:
            return float(self.correlations[name].statistic)
        raise KeyError(name)

    def records(self) -> list[dict[str, Any]]:
        """Rows ``{measure, value, ci_low, ci_high, pvalue, n}``: the measures, then the
        correlations (with their p-values)."""
        nan = math.nan
        rows = []
        for name, value in self.values.items():
            low, high = self.intervals.get(name, (nan, nan))
            rows.append(_row(name, value, low, high, nan, self.n))
        for name, res in self.correlations.items():
            low, high = res.ci if res.ci is not None else (nan, nan)
            rows.append(_row(name, res.statistic, low, high, res.pvalue, self.n))
        return rows

    def item_records(self) -> list[dict[str, Any]]:
        """One row per item: ``{item, y_true, y_pred, residual, abs_error, squared_error,
        percentage_error}`` (``item`` counts from 0)."""
        cols = (
            self.y_true,
            self.y_pred,
            self.residuals,
            self.abs_errors,
            self.squared_errors,
            self.percentage_errors,
        )
        keys = ("y_true", "y_pred", "residual", "abs_error", "squared_error", "percentage_error")
        lists = [c.tolist() for c in cols]
        return [
            {"item": i, **dict(zip(keys, values, strict=True))}
            for i, values in enumerate(zip(*lists, strict=True))
        ]


def _row(name: str, value: float, low: float, high: float, p: float, n: int) -> dict[str, Any]:
    return {
        "measure": name,
        "value": float(value),
        "ci_low": float(low),
        "ci_high": float(high),
        "pvalue": float(p),
        "n": n,
    }


def check_resampling(
    confidence: Any, ci_method: Any, n_resamples: Any, seed: Any
) -> tuple[float, BootstrapMethod, int, int]:
    return (
        opt.confidence(confidence),
        cast(BootstrapMethod, opt.choice(ci_method, BootstrapMethod, "ci_method")),
        opt.n_resamples(n_resamples),
        opt.seed(seed),
    )


def _loss_intervals(
    t: FloatArray, p: FloatArray, confidence: float, ci_method: str, n_resamples: int, seed: int
) -> dict[str, tuple[float, float]]:
    from ..stats import bootstrap_mean_ci

    rows = np.vstack([np.abs(p - t), (p - t) ** 2])
    low, high = bootstrap_mean_ci(
        rows,
        n_resamples=n_resamples,
        seed=seed,
        ci_method=cast(BootstrapMethod, ci_method),
        confidence=confidence,
    )
    return {
        "mae": (float(low[0]), float(high[0])),
        "mse": (float(low[1]), float(high[1])),
        "rmse": (math.sqrt(max(float(low[1]), 0.0)), math.sqrt(max(float(high[1]), 0.0))),
    }


def _correlations(t: FloatArray, p: FloatArray, confidence: float) -> dict[str, StatResult]:
    """Pearson, Spearman and Kendall τ-b of (y_true, y_pred); without an interval when n is
    too small for one, NaN (with the reason in ``details``) below 3 pairs."""
    from .. import stats

    n = t.shape[0]
    out: dict[str, StatResult] = {}
    for name in CORRELATIONS:
        if n < _MIN_PAIRS:
            reason = f"a correlation needs at least {_MIN_PAIRS} pairs, got {n}"
            out[name] = StatResult.of(math.nan, math.nan, None, name, {"n": n, "reason": reason})
            continue
        conf = confidence if n >= _MIN_CI_PAIRS[name] else None
        out[name] = getattr(stats, name)(t, p, confidence=conf)
    return out


def regression_report(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    zero_target: ZeroTarget = ZERO_TARGET,
    constant_target: ConstantTarget = CONSTANT_TARGET,
    confidence: float = 0.95,
    ci_method: BootstrapMethod = "bca",
    n_resamples: int = 10000,
    seed: int = 0,
) -> RegressionReport:
    """Every regression measure of ``y_pred`` against ``y_true``, with intervals.

    ``zero_target`` (MAPE's rule) and ``constant_target`` (R² and explained variance) are
    the measures' options, with the measures' own defaults (:func:`~assay.metrics.regression.
    mape`: ``"error"``, a zero target is refused; ``"nan"`` gives a NaN MAPE, and
    ``n_zero_targets`` says why; :func:`~assay.metrics.regression.r2`: ``"finite"``). Intervals of
    MAE, MSE and RMSE: bootstrap of the mean per-item loss (:func:`assay.stats.
    bootstrap_mean_ci`; ``ci_method``, ``n_resamples``, ``seed``, ``confidence``; NaN for a
    single item). Correlations: :func:`assay.stats.pearson`, :func:`~assay.stats.spearman`,
    :func:`~assay.stats.kendall` with their Fisher-z intervals (no interval below 4 or 5
    pairs, NaN below 3; constant inputs give NaN, as there).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.
    zero_target : {"error", "eps", "nan", "skip"}
        MAPE's rule for a zero target.
    constant_target : {"finite", "nan", "error"}
        R²'s and explained variance's value for a constant ``y_true``.
    confidence : float
        Level of every interval.
    ci_method : {"bca", "percentile", "basic"}
        The bootstrap interval of MAE, MSE and RMSE.
    n_resamples : int
        Bootstrap resamples.
    seed : int
        Seed of the bootstrap.

    Returns
    -------
    RegressionReport
        Every measure (``report["mae"]``), the intervals, the correlations and the per-item
        errors.

    Examples
    --------
    >>> from assay.regression import regression_report
    >>> rep = regression_report([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0], n_resamples=200)
    >>> rep["mae"], round(rep["pearson"], 4)
    (0.5, 0.9849)
    """
    t, p = check_pair(y_true, y_pred)
    check_squared_errors(t, p)
    zero_target = cast(ZeroTarget, opt.choice(zero_target, ZeroTarget, "zero_target"))
    constant_target = cast(
        ConstantTarget, opt.choice(constant_target, ConstantTarget, "constant_target")
    )
    confidence, ci_method, n_resamples, seed = check_resampling(
        confidence, ci_method, n_resamples, seed
    )
    values = {
        "mse": mse(t, p),
        "rmse": rmse(t, p),
        "mae": mae(t, p),
        "median_absolute_error": median_absolute_error(t, p),
        "max_error": max_error(t, p),
        "mape": mape(t, p, zero_target=zero_target),
        "r2": r2(t, p, constant_target=constant_target),
        "explained_variance": explained_variance(t, p, constant_target=constant_target),
    }
    nan2 = (math.nan, math.nan)
    intervals = (
        _loss_intervals(t, p, confidence, ci_method, n_resamples, seed)
        if t.shape[0] > 1
        else {"mae": nan2, "mse": nan2, "rmse": nan2}
    )
    return RegressionReport(
        n=int(t.shape[0]),
        y_true=t,
        y_pred=p,
        values=values,
        intervals=intervals,
        correlations=_correlations(t, p, confidence),
        n_zero_targets=int(np.count_nonzero(t == 0)),
        constant_target=bool(np.all(t == t[0])),
        provenance=provenance(
            zero_target=zero_target,
            constant_target=constant_target,
            confidence=confidence,
            ci_method=ci_method,
            n_resamples=n_resamples,
            seed=seed,
            kendall_variant="b",
        ),
    )
