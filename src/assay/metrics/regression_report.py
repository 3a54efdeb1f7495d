"""Regression reports and model comparisons: every measure of :mod:`assay.metrics.regression`
at once with per-item errors, confidence intervals and correlations, and paired significance
tests between models' per-item losses (all through :mod:`assay.stats`)."""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from .._options import (
    BootstrapMethod,
    ConstantTarget,
    Correction,
    PairedTest,
    RegressionLoss,
    ZeroTarget,
)
from .._result import Result, provenance
from ..errors import InputError
from ..stats import StatResult
from .regression import (
    FloatArray,
    as_values,
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

__all__ = [
    "ModelComparison",
    "ModelPair",
    "RegressionReport",
    "compare_models",
    "regression_report",
]

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


# ---------------------------------------------------------------- report


@dataclass(frozen=True, eq=False)
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
    """

    n: int
    y_true: FloatArray
    y_pred: FloatArray
    values: Mapping[str, float]
    intervals: Mapping[str, tuple[float, float]]
    correlations: Mapping[str, StatResult]
    n_zero_targets: int
    constant_target: bool
    provenance: Mapping[str, Any] = field(default_factory=dict)

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


def _check_resampling(
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
        rows, n_resamples=n_resamples, seed=seed, ci_method=ci_method, confidence=confidence
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
    """
    t, p = check_pair(y_true, y_pred)
    check_squared_errors(t, p)
    zero_target = cast(ZeroTarget, opt.choice(zero_target, ZeroTarget, "zero_target"))
    constant_target = cast(
        ConstantTarget, opt.choice(constant_target, ConstantTarget, "constant_target")
    )
    confidence, ci_method, n_resamples, seed = _check_resampling(
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


# ---------------------------------------------------------------- model comparison


@dataclass(frozen=True)
class ModelPair:
    """``model`` against ``baseline`` on the mean per-item loss: ``diff`` = mean loss of
    ``model`` - mean loss of ``baseline`` (negative: ``model`` errs less), its confidence
    interval, the test's p-value and the corrected one; ``wins`` counts the items where
    ``model``'s loss is lower, ``losses`` where it is higher, ``ties`` where they are equal."""

    model: str
    baseline: str
    diff: float
    ci_low: float
    ci_high: float
    pvalue: float
    p_adjusted: float
    wins: int
    ties: int
    losses: int
    n: int
    significant: bool

    @property
    def direction(self) -> int:
        """+1 if ``model`` errs significantly less than ``baseline``, -1 if more, else 0."""
        return 0 if not self.significant else (1 if self.diff < 0 else -1)


@dataclass(frozen=True, eq=False)
class ModelComparison(Result):
    """Per-item losses of several models on the same targets, the mean loss of each with a
    bootstrap interval, and every model against the baseline (:class:`ModelPair`).
    ``records()``: one row per model, then one per pair."""

    models: list[str]
    baseline: str
    loss: str
    test: str
    correction: str
    alpha: float
    losses: Mapping[str, FloatArray]
    mean_loss: Mapping[str, float]
    intervals: Mapping[str, tuple[float, float]]
    pairs: list[ModelPair]
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def pair(self, model: str) -> ModelPair:
        for p in self.pairs:
            if p.model == model:
                return p
        raise KeyError(model)

    def records(self) -> list[dict[str, Any]]:
        measure = "mse" if self.loss == "squared" else "mae"
        rows: list[dict[str, Any]] = []
        for m in self.models:
            low, high = self.intervals[m]
            rows.append(
                {
                    "model": m,
                    "baseline": None,
                    "measure": measure,
                    "value": self.mean_loss[m],
                    "ci_low": low,
                    "ci_high": high,
                    "pvalue": math.nan,
                    "p_adjusted": math.nan,
                    "significant": False,
                }
            )
        for p in self.pairs:
            rows.append(
                {
                    "model": p.model,
                    "baseline": p.baseline,
                    "measure": f"{measure} diff",
                    "value": p.diff,
                    "ci_low": p.ci_low,
                    "ci_high": p.ci_high,
                    "pvalue": p.pvalue,
                    "p_adjusted": p.p_adjusted,
                    "significant": p.significant,
                }
            )
        return rows


def _named_predictions(
    predictions: Mapping[str, ArrayLike] | Sequence[ArrayLike], t: FloatArray
) -> dict[str, FloatArray]:
    n = t.shape[0]
    if isinstance(predictions, Mapping):
        items = [(str(k), v) for k, v in predictions.items()]
    else:
        items = [(f"model{i + 1}", v) for i, v in enumerate(predictions)]
    if len(items) < 2:
        raise InputError(f"a comparison needs at least two models, got {len(items)}")
    out = {}
    for name, values in items:
        arr = as_values(values, f"predictions[{name!r}]")
        if arr.shape[0] != n:
            raise InputError(f"y_true has {n} values but model {name!r} has {arr.shape[0]}")
        check_squared_errors(t, arr, f"predictions[{name!r}]")
        out[name] = arr
    return out


def compare_models(
    y_true: ArrayLike,
    predictions: Mapping[str, ArrayLike] | Sequence[ArrayLike],
    *,
    baseline: str | None = None,
    loss: RegressionLoss = "squared",
    test: PairedTest = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    confidence: float = 0.95,
    ci_method: BootstrapMethod = "bca",
) -> ModelComparison:
    """Compare models' per-item losses (squared or absolute errors) on the same targets.

    Every model is compared with ``baseline`` (default: the first) by a paired test of the
    per-item loss differences (:func:`assay.stats.paired_pvalues`: ``randomization`` sign-flip
    test of the mean, ``t``, ``wilcoxon``, ``sign``, ``bootstrap``), two-sided, with one
    ``seed`` shared by all pairs; the p-values of the pairs are corrected together
    (:func:`assay.stats.correct`, ``correction``); ``significant`` is p_adjusted < ``alpha``.
    Intervals (mean loss of each model, mean difference of each pair): bootstrap of the mean
    (:func:`assay.stats.bootstrap_mean_ci`).
    """
    from ..stats import bootstrap_mean_ci, correct, paired_pvalues

    t = as_values(y_true, "y_true")
    if t.shape[0] < 2:
        raise InputError(f"a comparison needs at least 2 items, got {t.shape[0]}")
    preds = _named_predictions(predictions, t)
    loss = cast(RegressionLoss, opt.choice(loss, RegressionLoss, "loss"))
    test = cast(PairedTest, opt.choice(test, PairedTest, "test"))
    correction = cast(
        Correction,
        opt.choice(correction, Correction, "correction", aliases=opt.CORRECTION_ALIASES),
    )
    alpha = opt.alpha(alpha)
    confidence, ci_method, n_resamples, seed = _check_resampling(
        confidence, ci_method, n_resamples, seed
    )
    names = list(preds)
    base = names[0] if baseline is None else baseline
    if base not in preds:
        raise InputError(f"baseline {base!r} is not one of the models ({', '.join(names)})")
    losses = {m: (np.abs(v - t) if loss == "absolute" else (v - t) ** 2) for m, v in preds.items()}
    low, high = bootstrap_mean_ci(
        np.vstack([losses[m] for m in names]),
        n_resamples=n_resamples,
        seed=seed,
        ci_method=ci_method,
        confidence=confidence,
    )
    others = [m for m in names if m != base]
    diffs = np.vstack([losses[m] - losses[base] for m in others])
    pvalues = paired_pvalues(diffs, test=test, n_resamples=n_resamples, seed=seed)
    adjusted = correct(pvalues, correction=correction)
    d_low, d_high = bootstrap_mean_ci(
        diffs, n_resamples=n_resamples, seed=seed, ci_method=ci_method, confidence=confidence
    )
    pairs = [
        ModelPair(
            model=m,
            baseline=base,
            diff=float(diffs[i].mean()),
            ci_low=float(d_low[i]),
            ci_high=float(d_high[i]),
            pvalue=float(pvalues[i]),
            p_adjusted=float(adjusted[i]),
            wins=int(np.count_nonzero(diffs[i] < 0)),
            ties=int(np.count_nonzero(diffs[i] == 0)),
            losses=int(np.count_nonzero(diffs[i] > 0)),
            n=int(t.shape[0]),
            significant=bool(adjusted[i] < alpha),
        )
        for i, m in enumerate(others)
    ]
    return ModelComparison(
        models=names,
        baseline=base,
        loss=loss,
        test=test,
        correction=correction,
        alpha=alpha,
        losses=losses,
        mean_loss={m: float(losses[m].mean()) for m in names},
        intervals={m: (float(low[i]), float(high[i])) for i, m in enumerate(names)},
        pairs=pairs,
        provenance=provenance(
            loss=loss,
            test=test,
            n_resamples=n_resamples,
            seed=seed,
            correction=correction,
            alpha=alpha,
            confidence=confidence,
            ci_method=ci_method,
            baseline=base,
        ),
    )
