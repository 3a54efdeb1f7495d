"""Regression evaluation: error measures (MSE, RMSE, MAE, median absolute error, max error,
MAPE), goodness of fit (R², explained variance), correlations with confidence intervals,
per-item errors, and paired comparisons of models' losses.

Modules, by role: :mod:`~assay.regression.measures` (the measures, declared in the metric
registry: ``assay metrics``, ``docs/metrics.md``; the conventions for NaN, constant targets
and zero targets), :mod:`~assay.regression.report` (:func:`regression_report`: every measure
of one prediction), :mod:`~assay.regression.compare` (:func:`compare_models`: paired tests
of models' losses, each pair an :class:`assay.stats.PairResult`),
:mod:`~assay.regression.evaluation` (:func:`evaluate`: what ``assay regression`` prints, as
a result that builds its own table and HTML page), :mod:`~assay.regression.render` (that
table) and :mod:`~assay.regression.options` (the option types). Their public names are
loaded lazily from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import LazyNames

_LAZY = {
    # measures
    "explained_variance": "measures",
    "mae": "measures",
    "mape": "measures",
    "max_error": "measures",
    "median_absolute_error": "measures",
    "mse": "measures",
    "r2": "measures",
    "rmse": "measures",
    # one prediction's report; models compared; both at once
    "RegressionReport": "report",
    "regression_report": "report",
    "ModelComparison": "compare",
    "ModelPair": "compare",
    "compare_models": "compare",
    "RegressionEvaluation": "evaluation",
    "evaluate": "evaluation",
}


if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .compare import ModelComparison as ModelComparison
    from .compare import ModelPair as ModelPair
    from .compare import compare_models as compare_models
    from .evaluation import RegressionEvaluation as RegressionEvaluation
    from .evaluation import evaluate as evaluate
    from .measures import explained_variance as explained_variance
    from .measures import mae as mae
    from .measures import mape as mape
    from .measures import max_error as max_error
    from .measures import median_absolute_error as median_absolute_error
    from .measures import mse as mse
    from .measures import r2 as r2
    from .measures import rmse as rmse
    from .report import RegressionReport as RegressionReport
    from .report import regression_report as regression_report

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
