"""Classification evaluation: confusion matrices, the measures computed from them, and the
curves and summaries computed from scores.

The family's package: :mod:`~assay.classification.matrix` (the confusion matrix),
:mod:`~assay.classification.measures` (the measures computed from it, declared in the metric
registry: ``assay metrics``, ``docs/metrics.md``), :mod:`~assay.classification.curves`
(score-based measures and curves),
:mod:`~assay.classification.summary` (the report of every measure at once and the F1/MCC
simulation), :mod:`~assay.classification.reader` (label and score files),
:mod:`~assay.classification.evaluation` (:func:`evaluate`, what ``assay classify`` prints and
its ``--report`` page), :mod:`~assay.classification.comparison` (:func:`compare`: several
systems against a baseline, McNemar's test, Cochran's Q; its resampled measures are
:mod:`~assay.classification.resampled`), :mod:`~assay.classification.document` (the page's tables and plots)
and :mod:`~assay.classification.options` (the option types). :func:`cohen_kappa` is the
agreement family's (one implementation, exported by both). See
:mod:`assay.classification.measures` for the conventions (label order, ``labels``,
``average``, ``zero_division``, ``pos_label``). Public names load on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .._lazy import LazyNames

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
    # several systems against a baseline
    "compare": "comparison",
    "classification_document": "document",
    "confusion_table": "document",
    "labelled_report": "document",
}

#: Cohen's kappa is declared once, by the agreement family.
_ELSEWHERE = {
    "AgreementResult": "assay.agreement",
    "cohen_kappa": "assay.agreement",
}

if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from ..agreement import AgreementResult as AgreementResult
    from ..agreement import cohen_kappa as cohen_kappa
    from .comparison import compare as compare
    from .curves import InterpolatedPrecision as InterpolatedPrecision
    from .curves import PrecisionRecallCurve as PrecisionRecallCurve
    from .curves import RocCurve as RocCurve
    from .curves import average_precision as average_precision
    from .curves import interpolated_precision as interpolated_precision
    from .curves import pr_curve as pr_curve
    from .curves import roc_auc as roc_auc
    from .curves import roc_curve as roc_curve
    from .document import classification_document as classification_document
    from .document import confusion_table as confusion_table
    from .document import labelled_report as labelled_report
    from .evaluation import ClassificationEvaluation as ClassificationEvaluation
    from .evaluation import evaluate as evaluate
    from .matrix import ConfusionMatrix as ConfusionMatrix
    from .matrix import confusion_matrix as confusion_matrix
    from .measures import accuracy as accuracy
    from .measures import f1 as f1
    from .measures import f_score as f_score
    from .measures import fnr as fnr
    from .measures import fowlkes_mallows as fowlkes_mallows
    from .measures import fpr as fpr
    from .measures import jaccard as jaccard
    from .measures import npv as npv
    from .measures import precision as precision
    from .measures import recall as recall
    from .measures import specificity as specificity
    from .measures import tnr as tnr
    from .measures import tpr as tpr
    from .overall import balanced_accuracy as balanced_accuracy
    from .overall import mcc as mcc
    from .overall import sba as sba
    from .reader import read_labels as read_labels
    from .reader import read_scores as read_scores
    from .summary import ClassificationReport as ClassificationReport
    from .summary import ClassMetrics as ClassMetrics
    from .summary import F1MCCSimulation as F1MCCSimulation
    from .summary import classification_report as classification_report
    from .summary import simulate_f1_mcc as simulate_f1_mcc

_NAMES = LazyNames(__name__, globals(), _LAZY, _ELSEWHERE)


def __getattr__(name: str) -> Any:
    # The measures module first, whatever name is asked for: it declares the family's metrics
    # (and imports the modules declaring the rest) in their documented order.
    import_module(f"{__name__}.measures")
    return _NAMES.get(name)


__dir__ = _NAMES.listing


__all__ = [*_LAZY, *_ELSEWHERE]
