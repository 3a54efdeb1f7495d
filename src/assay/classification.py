"""Classification evaluation: confusion matrices, the measures computed from them, and the
curves and summaries computed from scores.

The public face of the classification family; the code lives in :mod:`assay.metrics`
(:mod:`~assay.metrics.classification`, :mod:`~assay.metrics.classification_curves`,
:mod:`~assay.metrics.classification_report`), where every scalar measure is declared in the
metric registry (``assay metrics``, ``docs/metrics.md``). :func:`cohen_kappa` is the agreement
family's (one implementation, exported by both). See :mod:`assay.metrics.classification` for
the conventions (label order, ``labels``, ``average``, ``zero_division``, ``pos_label``).
"""

from __future__ import annotations

from .metrics.agreement import AgreementResult, cohen_kappa
from .metrics.classification import (
    ConfusionMatrix,
    accuracy,
    balanced_accuracy,
    confusion_matrix,
    f1,
    f_score,
    fnr,
    fowlkes_mallows,
    fpr,
    jaccard,
    mcc,
    npv,
    precision,
    recall,
    sba,
    specificity,
    tnr,
    tpr,
)
from .metrics.classification_curves import (
    InterpolatedPrecision,
    PrecisionRecallCurve,
    RocCurve,
    average_precision,
    interpolated_precision,
    pr_curve,
    roc_auc,
    roc_curve,
)
from .metrics.classification_report import (
    ClassificationReport,
    ClassMetrics,
    F1MCCSimulation,
    classification_report,
    simulate_f1_mcc,
)

__all__ = [
    "AgreementResult",
    "ClassMetrics",
    "ClassificationReport",
    "ConfusionMatrix",
    "F1MCCSimulation",
    "InterpolatedPrecision",
    "PrecisionRecallCurve",
    "RocCurve",
    "accuracy",
    "average_precision",
    "balanced_accuracy",
    "classification_report",
    "cohen_kappa",
    "confusion_matrix",
    "f1",
    "f_score",
    "fnr",
    "fowlkes_mallows",
    "fpr",
    "interpolated_precision",
    "jaccard",
    "mcc",
    "npv",
    "pr_curve",
    "precision",
    "recall",
    "roc_auc",
    "roc_curve",
    "sba",
    "simulate_f1_mcc",
    "specificity",
    "tnr",
    "tpr",
]
