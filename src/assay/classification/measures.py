"""Classification: the measures computed from the confusion matrix (the matrix itself is
:mod:`assay.classification.matrix`, re-exported here). Score-based
measures and curves are in :mod:`assay.classification.curves`, the report and the
F1/MCC simulation in :mod:`assay.classification.summary`; Cohen's kappa is declared once,
in the agreement family (:func:`assay.agreement.cohen_kappa`).

Everything is vectorised: labels are factorised to integer codes once and the confusion matrix
is one ``np.bincount``. Labels may be ints, bools, floats or strings (any 1-D sequence or
array); int and string labels cannot be mixed.

Conventions (each a parameter, documented where it is used; names follow the glossary in
``docs/parameters.md``):

- **Label order.** Sorted unique labels of ``y_true`` and ``y_pred`` (as scikit-learn), or the
  order of ``labels=``. Rows of a confusion matrix are true labels, columns predicted labels.
- **``labels=``** in the per-class measures *selects* the classes that are reported or averaged;
  every item still counts (an item whose label is not selected is a negative for every selected
  class) -- scikit-learn's ``precision_recall_fscore_support``. In :func:`confusion_matrix` and
  :func:`~assay.agreement.cohen_kappa` it *restricts*: items whose true or predicted
  label is not listed are dropped (scikit-learn's ``confusion_matrix``).
- **``average``**: ``"binary"`` (the class ``pos_label``; the data may hold at most two
  labels), ``"micro"`` (counts summed over classes first), ``"macro"`` (unweighted mean over
  classes), ``"weighted"`` (mean weighted by support, the number of true items; all-zero
  supports fall back to the unweighted mean), ``None`` (one value per class, an array).
- **``zero_division``** -- the value of a ratio whose denominator is 0 (precision with nothing
  predicted, recall with no true item, ...): ``0`` (default; scikit-learn's default value, but
  without its warning), ``1`` or ``"nan"``. ``"nan"`` values are left out of macro and weighted
  means (as scikit-learn); a mean of nothing but ``nan`` is ``nan``. The F-score is
  ``(1+β²)·TP / ((1+β²)·TP + β²·FN + FP)``, undefined only when TP = FN = FP = 0.
  :func:`~assay.classification.summary.classification_report` counts the undefined
  values it replaced (``ClassificationReport.undefined``).
- **``pos_label``** defaults to ``1`` (scikit-learn) when the labels are numbers; string labels
  need it.
- Empty input raises :class:`~assay.errors.EmptyInputError`; NaN labels, length mismatches and
  mixed label types raise :class:`~assay.errors.InputError`; bad option values raise
  :class:`~assay.errors.MetricError` (an :class:`~assay.errors.OptionError`).
"""

from __future__ import annotations

import functools
import math
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from .._options import Average, ZeroDivision, number
from ..errors import InputError, MetricError
from ..metrics.labels import (
    AVERAGE,
    LABELS,
    POS_LABEL,
    ZERO_DIVISION,
    Counts,
    average_values,
    check_pair,
    counts,
    divide,
    kind,
    kind_name,
    py,
    unique,
)
from ..metrics.registry import FROM_SIGNATURE, Param, Peer, measure
from .matrix import ConfusionMatrix, confusion_matrix

__all__ = [
    "ConfusionMatrix",
    "accuracy",
    "confusion_matrix",
    "f1",
    "f_score",
    "fnr",
    "fowlkes_mallows",
    "fpr",
    "jaccard",
    "npv",
    "precision",
    "recall",
    "specificity",
    "tnr",
    "tpr",
]

FAMILY = "classification"

#: A class label: a number, a boolean or a string (a Python or NumPy scalar).
Label: TypeAlias = int | float | str | np.generic

# The declaration of a measure over (y_true, y_pred) labels, and of a per-class one.
_labels_measure = functools.partial(measure, family=FAMILY, input="labels")
_per_class = functools.partial(_labels_measure, params=(LABELS, AVERAGE, POS_LABEL, ZERO_DIVISION))


# ---------------------------------------------------------------- per-class machinery


def _default_pos_label(t: np.ndarray, p: np.ndarray) -> Any:
    if kind(t) == "num" and kind(p) == "num":
        return 1
    raise MetricError(
        "pos_label is required when the labels are not numbers "
        "(or use average='micro', 'macro', 'weighted' or None)",
        option="pos_label",
    )


def _binary_counts(y_true: ArrayLike, y_pred: ArrayLike, pos_label: Any) -> Counts:
    t, p = check_pair(y_true, y_pred)
    if pos_label is None:
        pos_label = _default_pos_label(t, p)
    present, _ = unique(np.concatenate([t, p]), "y_true and y_pred")
    if present.shape[0] > 2:
        raise InputError(
            f"average='binary' needs at most two labels, the data holds "
            f"{present.shape[0]}; choose average='micro', 'macro', 'weighted' "
            "or None"
        )
    pk = kind(np.asarray([pos_label]))
    if "obj" not in (pk, kind(t)) and pk != kind(t):
        raise MetricError(
            f"pos_label={pos_label!r} is not one of the labels (the labels are "
            f"{kind_name(kind(t))})",
            option="pos_label",
        )
    c = counts(t, p, labels=[pos_label])
    if present.shape[0] == 2 and c.cm.shape[0] > 2:
        raise MetricError(
            f"pos_label={pos_label!r} is not one of the labels {[py(x) for x in present]}",
            option="pos_label",
        )
    return c


def _select(
    y_true: ArrayLike, y_pred: ArrayLike, labels: Any, average: Average | None, pos_label: Any
) -> Counts:
    if average == "binary":
        return _binary_counts(y_true, y_pred, pos_label)
    return counts(y_true, y_pred, labels)


def _ratio_measure(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    num: str,
    den: tuple[str, ...],
    labels: Any,
    average: Average | None,
    pos_label: Any,
    zero_division: ZeroDivision,
) -> float | np.ndarray:
    c = _select(y_true, y_pred, labels, average, pos_label)
    tp, fp, fn, tn = c.ovr()
    parts = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    nu = parts[num]
    de = np.sum([parts[d] for d in den], axis=0)
    if average == "micro":
        nu, de = np.atleast_1d(nu.sum()), np.atleast_1d(np.sum(de))
    return average_values(divide(nu, de, zero_division), tp + fn, average)


# ---------------------------------------------------------------- measures from the matrix


@_labels_measure(peers=(Peer("scikit-learn", "sklearn.metrics.accuracy_score"),))
def accuracy(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Accuracy: the fraction of items whose predicted label is the true label, trace(C) / n.

    Reference: Sokolova & Lapalme (2009), "A systematic analysis of performance measures for
    classification tasks", Information Processing & Management 45(4).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).

    Returns
    -------
    float
        In [0, 1].

    Examples
    --------
    >>> from assay.classification import accuracy
    >>> round(accuracy(["a", "b", "a"], ["a", "b", "b"]), 4)
    0.6667
    """
    c = counts(y_true, y_pred)
    return float(np.trace(c.cm) / c.n)


@_per_class(aliases=("ppv",), peers=(Peer("scikit-learn", "sklearn.metrics.precision_score"),))
def precision(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Precision TP / (TP + FP) (positive predictive value). Undefined with no predicted item.

    Reference: Sokolova & Lapalme (2009), "A systematic analysis of performance measures for
    classification tasks", Information Processing & Management 45(4).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import precision
    >>> round(precision([1, 0, 1, 1], [1, 1, 0, 1]), 4)
    0.6667
    """
    return _ratio_measure(
        y_true, y_pred, "tp", ("tp", "fp"), labels, average, pos_label, zero_division
    )


@_per_class(
    aliases=("tpr", "sensitivity"), peers=(Peer("scikit-learn", "sklearn.metrics.recall_score"),)
)
def recall(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Recall TP / (TP + FN) (sensitivity, TPR). Undefined with no true item.

    Reference: Sokolova & Lapalme (2009), "A systematic analysis of performance measures for
    classification tasks", Information Processing & Management 45(4).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import recall
    >>> round(recall([1, 0, 1, 1], [1, 0, 0, 1]), 4)
    0.6667
    """
    return _ratio_measure(
        y_true, y_pred, "tp", ("tp", "fn"), labels, average, pos_label, zero_division
    )


tpr = recall


@_per_class(aliases=("tnr",))
def specificity(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Specificity TN / (TN + FP) (TNR), one class against the rest.

    Reference: Sokolova & Lapalme (2009), "A systematic analysis of performance measures for
    classification tasks", Information Processing & Management 45(4).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import specificity
    >>> round(specificity([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 1]), 4)
    0.3333
    """
    return _ratio_measure(
        y_true, y_pred, "tn", ("tn", "fp"), labels, average, pos_label, zero_division
    )


tnr = specificity


@_per_class()
def npv(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Negative predictive value TN / (TN + FN).

    Reference: Altman & Bland (1994), "Diagnostic tests 2: predictive values", BMJ 309.

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import npv
    >>> round(npv([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 1]), 4)
    0.5
    """
    return _ratio_measure(
        y_true, y_pred, "tn", ("tn", "fn"), labels, average, pos_label, zero_division
    )


@_per_class(higher_is_better=False)
def fpr(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """False positive rate FP / (FP + TN) = 1 - specificity.

    Reference: Fawcett (2006), "An introduction to ROC analysis", Pattern Recognition Letters
    27(8).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import fpr
    >>> round(fpr([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 1]), 4)
    0.6667
    """
    return _ratio_measure(
        y_true, y_pred, "fp", ("fp", "tn"), labels, average, pos_label, zero_division
    )


@_per_class(higher_is_better=False)
def fnr(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """False negative rate FN / (FN + TP) = 1 - recall.

    Reference: Fawcett (2006), "An introduction to ROC analysis", Pattern Recognition Letters
    27(8).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import fnr
    >>> round(fnr([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 1]), 4)
    0.3333
    """
    return _ratio_measure(
        y_true, y_pred, "fn", ("fn", "tp"), labels, average, pos_label, zero_division
    )


@_per_class(
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.jaccard_score",
            "zero_division takes 0 or 1 only (no 'nan').",
        ),
    )
)
def jaccard(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Jaccard index TP / (TP + FP + FN). Undefined when the class is neither true nor
    predicted.

    Reference: Jaccard (1912), "The distribution of the flora in the alpine zone", New
    Phytologist 11(2).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import jaccard
    >>> round(jaccard([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 1]), 4)
    0.4
    """
    return _ratio_measure(
        y_true, y_pred, "tp", ("tp", "fp", "fn"), labels, average, pos_label, zero_division
    )


def _beta(value: Any) -> float:
    """β of an F-score: a number >= 0, or infinity (recall)."""
    numeric = not isinstance(value, bool) and isinstance(value, float | int | np.number)
    if numeric and value == math.inf:
        return math.inf
    # Past 1e150, β² overflows to inf and F_β is inf/inf = NaN (with NumPy's RuntimeWarning).
    return number(value, "beta", low=0, high=1e150, error=MetricError)


BETA = Param("beta", FROM_SIGNATURE, _beta, "weight of recall: 0 is precision, inf recall")


@_labels_measure(
    params=(BETA, LABELS, AVERAGE, POS_LABEL, ZERO_DIVISION),
    peers=(Peer("scikit-learn", "sklearn.metrics.fbeta_score"),),
)
def f_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float = 1.0,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """F-beta: (1+β²)·TP / ((1+β²)·TP + β²·FN + FP), the weighted harmonic mean of precision
    and recall (van Rijsbergen's effectiveness 1 - E). β = 0 is precision, β = inf recall.
    Undefined only when TP = FN = FP = 0. Micro-averaging sums the counts first.

    Reference: van Rijsbergen (1979), Information Retrieval, ch. 7.

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    beta
        The weight of recall (>= 0, or ``inf``).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import f_score
    >>> round(f_score([1, 0, 1, 1], [1, 0, 0, 1], beta=2.0), 4)
    0.7143
    """
    b = float(beta)
    if b == 0:
        return _ratio_measure(
            y_true, y_pred, "tp", ("tp", "fp"), labels, average, pos_label, zero_division
        )
    if math.isinf(b):
        return _ratio_measure(
            y_true, y_pred, "tp", ("tp", "fn"), labels, average, pos_label, zero_division
        )
    c = _select(y_true, y_pred, labels, average, pos_label)
    tp, fp, fn, _ = c.ovr()
    b2 = b * b
    num = (1 + b2) * tp.astype(np.float64)
    den = num + b2 * fn + fp
    if average == "micro":
        num, den = np.atleast_1d(num.sum()), np.atleast_1d(den.sum())
    return average_values(divide(num, den, zero_division), tp + fn, average)


@_per_class(aliases=("f1_score",), peers=(Peer("scikit-learn", "sklearn.metrics.f1_score"),))
def f1(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """F1 = 2·TP / (2·TP + FP + FN).

    Reference: van Rijsbergen (1979), Information Retrieval, ch. 7.

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import f1
    >>> f1([1, 0, 1, 1], [1, 0, 0, 1])
    0.8
    >>> round(f1(["a", "b", "a", "c"], ["a", "b", "b", "c"], average="macro"), 4)
    0.7778
    """
    return f_score(
        y_true,
        y_pred,
        beta=1.0,
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


@_per_class()
def fowlkes_mallows(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    average: Average | None = "binary",
    pos_label: Label | None = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Fowlkes–Mallows index of a class, √(precision · recall) = TP / √((TP+FP)(TP+FN)).
    Undefined (``zero_division``) when the class is never predicted or never true.

    Reference: Fowlkes & Mallows (1983), "A method for comparing two hierarchical clusterings",
    JASA 78(383).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels, average, pos_label, zero_division
        The classes, their average and the value of an undefined ratio (module conventions).

    Returns
    -------
    float or numpy.ndarray
        One value, or one per class with ``average=None``.

    Examples
    --------
    >>> from assay.classification import fowlkes_mallows
    >>> round(fowlkes_mallows([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 1]), 4)
    0.5774
    """
    c = _select(y_true, y_pred, labels, average, pos_label)
    tp, fp, fn, _ = c.ovr()
    num = tp.astype(np.float64)
    den = (tp + fp).astype(np.float64) * (tp + fn)
    if average == "micro":
        num = np.atleast_1d(num.sum())
        den = np.atleast_1d(float((tp + fp).sum()) * float((tp + fn).sum()))
    return average_values(divide(num, np.sqrt(den), zero_division), tp + fn, average)
