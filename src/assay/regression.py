"""Regression evaluation: error measures (MSE, RMSE, MAE, median absolute error, max error,
MAPE), goodness of fit (R², explained variance), correlations with confidence intervals,
per-item errors, and paired comparisons of models' losses.

The public face of the regression family; the code lives in :mod:`assay.metrics.regression`
(the measures, declared in the metric registry: ``assay metrics``, ``docs/metrics.md``) and
:mod:`assay.metrics.regression_report` (the report and the comparison). See
:mod:`assay.metrics.regression` for the conventions (NaN, constant targets, zero targets).
"""

from __future__ import annotations

from .metrics.regression import (
    explained_variance,
    mae,
    mape,
    max_error,
    median_absolute_error,
    mse,
    r2,
    rmse,
)
from .metrics.regression_report import (
    ModelComparison,
    ModelPair,
    RegressionReport,
    compare_models,
    regression_report,
)

__all__ = [
    "ModelComparison",
    "ModelPair",
    "RegressionReport",
    "compare_models",
    "explained_variance",
    "mae",
    "mape",
    "max_error",
    "median_absolute_error",
    "mse",
    "r2",
    "regression_report",
    "rmse",
]
