"""Paired comparisons of regression models: every model's per-item losses against the
baseline's, with paired significance tests and bootstrap intervals (through
:mod:`assay.stats`); each pair is an :class:`assay.stats.PairResult`."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from .._options import BootstrapMethod, Correction, PairedTest
from .._result import REPR_LIMIT, Result, provenance
from ..errors import InputError
from ..stats.pairs import PairResult
from .measures import FloatArray, as_values, check_squared_errors
from .options import RegressionLoss
from .report import check_resampling

__all__ = ["ModelComparison", "ModelPair", "compare_models"]

#: The old name of a model against the baseline: it is :class:`assay.stats.PairResult`, the one
#: "system against baseline" type (``system`` is the model, ``metric`` the loss measure,
#: ``mse`` or ``mae``; ``diff`` < 0: the model errs less, ``higher_is_better`` False).
ModelPair = PairResult

#: Models a repr names before "… n more".
_SHOWN = 8


@dataclass(frozen=True, eq=False, repr=False)
class ModelComparison(Result):
    """Per-item losses of several models on the same targets, the mean loss of each with a
    bootstrap interval, and every model against the baseline (an
    :class:`assay.stats.PairResult` per model: ``system`` the model, ``diff`` its mean loss
    minus the baseline's, ``wins`` the items where its loss is lower).
    ``records()``: one row per model, then one per pair. Built by :func:`compare_models`.

    Parameters
    ----------
    models : list of str
        The models, in the order given.
    baseline : str
        The model the others are compared with.
    loss : str
        The per-item loss (``"squared"`` or ``"absolute"``).
    test, correction : str
        The paired test and the multiple-comparison correction of its p-values.
    alpha : float
        The significance level.
    losses : mapping of str to numpy.ndarray
        Each model's per-item losses.
    mean_loss : mapping of str to float
        Each model's mean loss.
    intervals : mapping of str to tuple of float
        The bootstrap confidence interval of each mean loss.
    pairs : list of PairResult
        Every model against the baseline.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.regression import compare_models
    >>> cmp = compare_models([1.0, 2.0, 3.0, 4.0, 5.0],
    ...                      {"a": [1.5, 2.0, 2.5, 4.5, 5.0], "b": [2.0, 3.0, 3.0, 5.0, 6.0]},
    ...                      n_resamples=200)
    >>> cmp.baseline, cmp.mean_loss, [p.system for p in cmp.pairs]
    ('a', {'a': 0.15, 'b': 0.8}, ['b'])
    """

    models: list[str]
    baseline: str
    loss: str
    test: str
    correction: str
    alpha: float
    losses: Mapping[str, FloatArray]
    mean_loss: Mapping[str, float]
    intervals: Mapping[str, tuple[float, float]]
    pairs: list[PairResult]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __repr__(self) -> str:
        # The headline numbers: each model's mean loss, and each pair's difference and
        # corrected p-value (the per-item losses are left out: one screen).
        means = ", ".join(f"{m}: {self.mean_loss[m]:.4g}" for m in self.models[:_SHOWN])
        pairs = ", ".join(
            f"{p.system}: diff={p.diff:.4g} p_adjusted={p.p_adjusted:.4g}"
            + ("*" if p.significant else "")
            for p in self.pairs[:_SHOWN]
        )
        more = f", … {len(self.models) - _SHOWN} more" if len(self.models) > _SHOWN else ""
        text = (
            f"ModelComparison(loss={self.loss!r}, baseline={self.baseline!r}, "
            f"mean_loss={{{means}{more}}}, pairs={{{pairs}{more}}}, test={self.test!r}, "
            f"correction={self.correction!r}, alpha={self.alpha})"
        )
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 1] + "…"

    def pair(self, model: str) -> PairResult:
        """The comparison of ``model`` with the baseline (``KeyError`` for the baseline)."""
        for p in self.pairs:
            if p.system == model:
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
                    "model": p.system,
                    "baseline": p.baseline,
                    "measure": f"{measure} diff",
                    "value": p.diff,
                    "ci_low": p.ci_low,
                    "ci_high": p.ci_high,
                    "pvalue": p.p_value,
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

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    predictions : mapping of str to array_like, or sequence of array_like
        Each model's predictions, aligned with ``y_true`` (a sequence: models named
        ``model1``, ``model2``, ...).
    baseline : str, optional
        The model every other is compared with (default: the first).
    loss : {"squared", "absolute"}
        The per-item loss compared.
    test : {"randomization", "t", "wilcoxon", "sign", "bootstrap"}
        The paired test of the loss differences.
    n_resamples, seed
        Resamples and seed of the test and the intervals.
    correction : str
        The multiple-comparison correction of the pairs' p-values.
    alpha : float
        Significance level of ``significant``.
    confidence, ci_method
        Level and bootstrap method of the intervals.

    Returns
    -------
    ModelComparison
        The mean loss of each model with its interval, and each model against the baseline
        (:class:`assay.stats.PairResult`: ``diff`` < 0 when the model errs less).

    Examples
    --------
    >>> from assay.regression import compare_models
    >>> y = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    >>> cmp = compare_models(y, {"good": [1.1, 2.0, 2.9, 4.1, 5.0, 6.1],
    ...                          "poor": [2.0, 1.0, 4.0, 3.0, 6.0, 5.0]}, n_resamples=200)
    >>> pair = cmp.pair("poor")
    >>> pair.system, pair.baseline, pair.diff > 0, pair.wins
    ('poor', 'good', True, 0)
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
    confidence, ci_method, n_resamples, seed = check_resampling(
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
    measure = "mse" if loss == "squared" else "mae"
    pairs = [
        PairResult(
            system=m,
            baseline=base,
            metric=measure,
            diff=float(diffs[i].mean()),
            ci_low=float(d_low[i]),
            ci_high=float(d_high[i]),
            p_value=float(pvalues[i]),
            p_adjusted=float(adjusted[i]),
            significant=bool(adjusted[i] < alpha),
            higher_is_better=False,
            wins=int(np.count_nonzero(diffs[i] < 0)),
            ties=int(np.count_nonzero(diffs[i] == 0)),
            losses=int(np.count_nonzero(diffs[i] > 0)),
            n=int(t.shape[0]),
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
