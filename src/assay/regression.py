"""Regression evaluation: error measures (MSE, RMSE, MAE, median absolute error, max error,
MAPE), goodness of fit (R², explained variance), correlations with confidence intervals,
per-item errors, and paired comparisons of models' losses.

The public face of the regression family; the code lives in :mod:`assay.metrics.regression`
(the measures, declared in the metric registry: ``assay metrics``, ``docs/metrics.md``) and
:mod:`assay.metrics.regression_report` (the report and the comparison). See
:mod:`assay.metrics.regression` for the conventions (NaN, constant targets, zero targets).
"""

from __future__ import annotations

from .metrics import regression as _measures
from .metrics import regression_report as _report
from .metrics.regression import *  # noqa: F403
from .metrics.regression_report import *  # noqa: F403

__all__ = [*_measures.__all__, *_report.__all__]
