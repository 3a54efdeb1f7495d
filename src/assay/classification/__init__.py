"""Classification evaluation: confusion matrices, the measures computed from them, and the
curves and summaries computed from scores.

The family's package: :mod:`~assay.classification.matrix` (the confusion matrix),
:mod:`~assay.classification.measures` (the measures computed from it, declared in the metric
registry: ``assay metrics``, ``docs/metrics.md``), :mod:`~assay.classification.curves`
(score-based measures and curves),
:mod:`~assay.classification.summary` (the report of every measure at once and the F1/MCC
simulation), :mod:`~assay.classification.reader` (label and score files),
:mod:`~assay.classification.evaluation` (:func:`evaluate`, what ``assay classify`` prints and
its ``--report`` page), :mod:`~assay.classification.document` (the page's tables and plots)
and :mod:`~assay.classification.options` (the option types). :func:`cohen_kappa` is the
agreement family's (one implementation, exported by both). See
:mod:`assay.classification.measures` for the conventions (label order, ``labels``,
``average``, ``zero_division``, ``pos_label``). Public names load on first use.
"""

# ruff: noqa: F401  (the TYPE_CHECKING imports are the names __all__ lists, for mypy)
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .._lazy import LazyNames

if TYPE_CHECKING:  # the names mypy and editors see; at run time they load on first use
    from ..agreement import AgreementResult, cohen_kappa
    from .curves import (
        InterpolatedPrecision,
        PrecisionRecallCurve,
        RocCurve,
        average_precision,
        interpolated_precision,
        pr_curve,
        roc_auc,
        roc_curve,
    )
    from .document import (
        classification_document,
        confusion_table,
        labelled_report,
    )
    from .evaluation import ClassificationEvaluation
    from .evaluation import evaluate as evaluate  # re-exported for mypy --strict
    from .matrix import ConfusionMatrix, confusion_matrix
    from .measures import (
        accuracy,
        f1,
        f_score,
        fnr,
        fowlkes_mallows,
        fpr,
        jaccard,
        npv,
        precision,
        recall,
        specificity,
        tnr,
        tpr,
    )
    from .overall import balanced_accuracy, mcc, sba
    from .reader import read_labels as read_labels  # re-exported for mypy --strict
    from .reader import read_scores as read_scores  # re-exported for mypy --strict
    from .summary import (
        ClassificationReport,
        ClassMetrics,
        F1MCCSimulation,
        classification_report,
        simulate_f1_mcc,
    )


_LAZY = {
    # the confusion matrix and the measures computed from it
    "ConfusionMatrix": "matrix",
    "accuracy": "measures",
    "balanced_accuracy": "overall",
    "confusion_matrix": "matrix",
    "f1": "measures",
    "f_score": "measures",
    "fnr": "measures",
    "fowlkes_mallows": "measures",
    "fpr": "measures",
    "jaccard": "measures",
    "mcc": "overall",
    "npv": "measures",
    "precision": "measures",
    "recall": "measures",
    "sba": "overall",
    "specificity": "measures",
    "tnr": "measures",
    "tpr": "measures",
    # scores: curves and the measures over them
    "InterpolatedPrecision": "curves",
    "PrecisionRecallCurve": "curves",
    "RocCurve": "curves",
    "average_precision": "curves",
    "interpolated_precision": "curves",
    "pr_curve": "curves",
    "roc_auc": "curves",
    "roc_curve": "curves",
    # every measure at once, and the F1/MCC simulation
    "ClassMetrics": "summary",
    "ClassificationReport": "summary",
    "F1MCCSimulation": "summary",
    "classification_report": "summary",
    "simulate_f1_mcc": "summary",
    # files
    "read_labels": "reader",
    "read_scores": "reader",
    # what `assay classify` prints and draws
    "ClassificationEvaluation": "evaluation",
    "evaluate": "evaluation",
    "classification_document": "document",
    "confusion_table": "document",
    "labelled_report": "document",
}

#: Cohen's kappa is declared once, by the agreement family.
_ELSEWHERE = {
    "AgreementResult": "assay.agreement",
    "cohen_kappa": "assay.agreement",
}

_NAMES = LazyNames(__name__, globals(), _LAZY, _ELSEWHERE)


def __getattr__(name: str) -> Any:
    # The measures module first, whatever name is asked for: it declares the family's metrics
    # (and imports the modules declaring the rest) in their documented order.
    import_module(f"{__name__}.measures")
    return _NAMES.get(name)


__dir__ = _NAMES.listing


__all__ = [*_LAZY, *_ELSEWHERE]
