"""One call for what ``assay regression`` prints: :func:`evaluate` reports every model
(:func:`~assay.regression.regression_report`) and, with two or more, compares their per-item
losses (:func:`~assay.regression.compare_models`); its :class:`RegressionEvaluation` builds
the table (:meth:`~RegressionEvaluation.report`) and the ``--report`` page
(:meth:`~assay.report.Reported.html`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from numpy.typing import ArrayLike

from .._options import BootstrapMethod, Correction, PairedTest
from .._result import REPR_LIMIT, Result
from ..errors import InputError
from ..report.reported import Reported
from .compare import ModelComparison, compare_models
from .options import ConstantTarget, RegressionLoss, ZeroTarget
from .report import CONSTANT_TARGET, ZERO_TARGET, RegressionReport, regression_report

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["RegressionEvaluation", "evaluate"]


@dataclass(frozen=True, eq=False, repr=False)
class RegressionEvaluation(Result, Reported):
    """The reports of several models' predictions of the same targets (``reports``: model
    name → :class:`~assay.regression.RegressionReport`, in the order given) and, with two
    models or more, their ``comparison`` (:class:`~assay.regression.ModelComparison`).

    ``report()``: models × measures, with the corrected p-value of each model's loss against
    the baseline; ``records()``: its rows (every measure of every model, then one row per
    model pair). Built by :func:`evaluate`.

    Parameters
    ----------
    reports : mapping of str to RegressionReport
        Each model's report, in the order given.
    comparison : ModelComparison, optional
        The models compared (two models or more).
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay import regression
    >>> ev = regression.evaluate([1.0, 2.0, 3.0, 4.0, 5.0],
    ...                          {"a": [1.5, 2.0, 2.5, 4.5, 5.0], "b": [2.0, 3.0, 3.0, 5.0, 6.0]},
    ...                          n_resamples=200)
    >>> list(ev.reports), ev.comparison.baseline
    (['a', 'b'], 'a')
    """

    family = "regression"

    reports: Mapping[str, RegressionReport]
    comparison: ModelComparison | None = None
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __repr__(self) -> str:
        models = "\n  ".join(f"{name}: {rep!r}" for name, rep in self.reports.items())
        text = f"RegressionEvaluation(\n  {models}\n  comparison={self.comparison!r})"
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 1] + "…"

    def records(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self.report().records]

    def report(self) -> Report:
        from .render import models_report

        return models_report(self.reports, self.comparison)

    def document(self) -> Document:
        from ..report.sections_tasks import tables_document

        return tables_document("Regression", self.family, self.report())


def evaluate(
    y_true: ArrayLike,
    predictions: Mapping[str, ArrayLike],
    *,
    baseline: str | None = None,
    loss: RegressionLoss = "squared",
    test: PairedTest = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    confidence: float = 0.95,
    ci_method: BootstrapMethod = "bca",
    correction: Correction = "holm",
    alpha: float = 0.05,
    zero_target: ZeroTarget = ZERO_TARGET,
    constant_target: ConstantTarget = CONSTANT_TARGET,
) -> RegressionEvaluation:
    """Report every model's predictions of ``y_true`` and compare the models' losses.

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    predictions : mapping of str to array_like
        Each model's predictions, aligned with ``y_true``, by model name (the order is the
        report's).
    baseline : str, optional
        The model every other is tested against (default: the first).
    loss, test, n_resamples, seed, confidence, ci_method, correction, alpha
        The comparison's options (:func:`~assay.regression.compare_models`); ``confidence``,
        ``ci_method``, ``n_resamples`` and ``seed`` also make the reports' intervals.
    zero_target, constant_target : str, optional
        MAPE's rule for a zero target and R²'s for a constant one (the measures' own
        defaults: ``"error"`` and ``"finite"``).

    Returns
    -------
    RegressionEvaluation
        The reports, and the comparison when there are two models or more.

    Examples
    --------
    >>> from assay import regression
    >>> ev = regression.evaluate([1.0, 2.0, 3.0, 4.0], {"a": [1.1, 2.1, 2.9, 4.2]},
    ...                          n_resamples=100)
    >>> round(ev.reports["a"]["mae"], 3)
    0.125
    >>> ev.comparison is None
    True
    """
    if not predictions:
        raise InputError("no predictions to evaluate")
    reports = {
        str(name): regression_report(
            y_true,
            p,
            zero_target=zero_target,
            constant_target=constant_target,
            confidence=confidence,
            ci_method=ci_method,
            n_resamples=n_resamples,
            seed=seed,
        )
        for name, p in predictions.items()
    }
    comparison = None
    if len(reports) > 1:
        comparison = compare_models(
            y_true,
            predictions,
            baseline=baseline,
            loss=loss,
            test=test,
            correction=correction,
            alpha=alpha,
            confidence=confidence,
            ci_method=ci_method,
            n_resamples=n_resamples,
            seed=seed,
        )
    return RegressionEvaluation(reports, comparison)
