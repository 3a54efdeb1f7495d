"""Classification evaluation: confusion matrices, the measures computed from them, and the
curves and summaries computed from scores.

Everything is vectorised: labels are factorised to integer codes once and the confusion matrix
is one ``np.bincount``. Labels may be ints, bools, floats or strings (any 1-D sequence or
array); int and string labels cannot be mixed.

Conventions (each a parameter, documented where it is used):

- **Label order.** Sorted unique labels of ``y_true`` and ``y_pred`` (as scikit-learn), or the
  order of ``labels=``. Rows of a confusion matrix are true labels, columns predicted labels.
- **``labels=``** in the per-class measures *selects* the classes that are reported or averaged;
  every item still counts (an item whose label is not selected is a negative for every selected
  class) -- scikit-learn's ``precision_recall_fscore_support``. In :func:`confusion_matrix` and
  :func:`cohen_kappa` it *restricts*: items whose true or predicted label is not listed are
  dropped (scikit-learn's ``confusion_matrix``).
- **``average``**: ``"binary"`` (the class ``pos_label``; the data may hold at most two
  labels), ``"micro"`` (counts summed over classes first), ``"macro"`` (unweighted mean over
  classes), ``"weighted"`` (mean weighted by support, the number of true items; all-zero
  supports fall back to the unweighted mean), ``None`` (one value per class, an array).
- **``zero_division``** -- the value of a ratio whose denominator is 0 (precision with nothing
  predicted, recall with no true item, ...): ``0`` (default; scikit-learn's default value, but
  without its warning), ``1`` or ``"nan"``. ``"nan"`` values are left out of macro and weighted
  means (as scikit-learn); a mean of nothing but ``nan`` is ``nan``. The F-score is
  ``(1+β²)·TP / ((1+β²)·TP + β²·FN + FP)``, undefined only when TP = FN = FP = 0.
  :func:`classification_report` counts the undefined values it replaced
  (``ClassificationReport.undefined``).
- **``pos_label``** defaults to ``1`` (scikit-learn) when the labels are numbers; string labels
  need it.
- Empty input raises :class:`~assay.errors.EmptyInputError`; NaN labels, length mismatches and
  mixed label types raise :class:`~assay.errors.InputError`; bad option values raise
  :class:`~assay.errors.MetricError`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .errors import EmptyInputError, InputError, MetricError

__all__ = [
    "ClassMetrics",
    "ClassificationReport",
    "ConfusionMatrix",
    "F1MCCSimulation",
    "InterpolatedPrecision",
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

Average = Literal["binary", "micro", "macro", "weighted"] | None
ZeroDivision = float | int | str
_AVERAGES = ("binary", "micro", "macro", "weighted", None)


# ---------------------------------------------------------------- input handling


def _as_labels(y: Any, name: str) -> np.ndarray:
    arr = np.asarray(y)
    if arr.ndim == 0:
        raise InputError(f"{name} must be a 1-D sequence of labels, got a scalar")
    if arr.ndim != 1:
        raise InputError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise InputError(f"{name} holds NaN labels (item {int(np.flatnonzero(np.isnan(arr))[0])})")
    if arr.dtype.kind not in "biufUSO":
        raise InputError(f"{name}: unsupported label type {arr.dtype}")
    return arr


def _kind(arr: np.ndarray) -> str:
    k = arr.dtype.kind
    return "num" if k in "biuf" else "str" if k in "US" else "obj"


def _check_pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    t = _as_labels(y_true, "y_true")
    p = _as_labels(y_pred, "y_pred")
    if t.shape[0] != p.shape[0]:
        raise InputError(f"y_true has {t.shape[0]} items but y_pred has {p.shape[0]}")
    if t.shape[0] == 0:
        raise EmptyInputError("no items to evaluate")
    kt, kp = _kind(t), _kind(p)
    if "obj" not in (kt, kp) and kt != kp:
        raise InputError(f"y_true holds {_kind_name(kt)} labels but y_pred holds {_kind_name(kp)}")
    return t, p


def _kind_name(kind: str) -> str:
    return {"num": "numeric", "str": "string", "obj": "object"}[kind]


def _unique(values: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    try:
        return np.unique(values, return_inverse=True)
    except TypeError as exc:
        raise InputError(f"{what} mix label types that cannot be compared ({exc})") from None


@dataclass(frozen=True)
class _Counts:
    """The full confusion matrix over ``labels`` (requested labels first, then the other labels
    present in the data, sorted) and the indices of the selected classes."""

    cm: np.ndarray  # (K, K) int64, rows true, columns predicted
    labels: np.ndarray  # (K,)
    selected: np.ndarray  # indices into labels

    @property
    def n(self) -> int:
        return int(self.cm.sum())

    @property
    def tp(self) -> np.ndarray:
        return np.diagonal(self.cm).astype(np.int64)

    @property
    def true_sum(self) -> np.ndarray:
        return self.cm.sum(axis=1)

    @property
    def pred_sum(self) -> np.ndarray:
        return self.cm.sum(axis=0)

    def ovr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One-vs-rest (tp, fp, fn, tn) of the selected classes."""
        tp = self.tp[self.selected]
        fp = self.pred_sum[self.selected] - tp
        fn = self.true_sum[self.selected] - tp
        tn = self.n - tp - fp - fn
        return tp, fp, fn, tn


def _counts(y_true: Any, y_pred: Any, labels: Any = None) -> _Counts:
    t, p = _check_pair(y_true, y_pred)
    n = t.shape[0]
    requested: np.ndarray | None = None
    if labels is not None:
        requested = _as_labels(labels, "labels")
        if requested.shape[0] == 0:
            raise MetricError("labels must not be empty")
        kr, kd = _kind(requested), _kind(t)
        if "obj" not in (kr, kd) and kr != kd:
            raise InputError(
                f"labels are {_kind_name(kr)} but the data holds {_kind_name(kd)} labels"
            )
        pieces = [t, p, requested]
    else:
        pieces = [t, p]
    try:
        allv = np.concatenate(pieces)
    except (TypeError, ValueError) as exc:  # pragma: no cover - numpy promotes almost anything
        raise InputError(f"labels of incompatible types: {exc}") from None
    uniq, inv = _unique(allv, "y_true, y_pred and labels")
    k_all = uniq.shape[0]
    if requested is not None:
        req_codes = inv[2 * n :]
        if np.unique(req_codes).shape[0] != req_codes.shape[0]:
            raise MetricError("labels holds duplicates")
        present = np.zeros(k_all, dtype=bool)
        present[inv[: 2 * n]] = True
        present[req_codes] = False
        order = np.concatenate([req_codes, np.flatnonzero(present)])
        selected = np.arange(req_codes.shape[0])
    else:
        order = np.arange(k_all)
        selected = order
    k = order.shape[0]
    perm = np.full(k_all, -1, dtype=np.int64)
    perm[order] = np.arange(k)
    ct = perm[inv[:n]]
    cp = perm[inv[n : 2 * n]]
    cm = np.bincount(ct * k + cp, minlength=k * k).reshape(k, k).astype(np.int64)
    return _Counts(cm=cm, labels=uniq[order], selected=selected)


def _zero_division_value(zero_division: ZeroDivision) -> float:
    if isinstance(zero_division, str):
        if zero_division == "nan":
            return math.nan
    elif not isinstance(zero_division, bool) and zero_division in (0, 1):
        return float(zero_division)
    raise MetricError(f"zero_division must be 0, 1 or 'nan', got {zero_division!r}")


def _divide(num: np.ndarray, den: np.ndarray, zero_division: ZeroDivision) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.divide(num, den, out=np.zeros_like(num), where=den != 0)
    out[den == 0] = _zero_division_value(zero_division)
    return out


def _default_pos_label(t: np.ndarray, p: np.ndarray) -> Any:
    if _kind(t) == "num" and _kind(p) == "num":
        return 1
    raise MetricError(
        "pos_label is required when the labels are not numbers "
        "(or use average='micro', 'macro', 'weighted' or None)"
    )


def _binary_counts(y_true: Any, y_pred: Any, pos_label: Any) -> _Counts:
    t, p = _check_pair(y_true, y_pred)
    if pos_label is None:
        pos_label = _default_pos_label(t, p)
    present, _ = _unique(np.concatenate([t, p]), "y_true and y_pred")
    if present.shape[0] > 2:
        raise InputError(
            f"average='binary' needs at most two labels, the data holds "
            f"{present.shape[0]}; choose average='micro', 'macro', 'weighted' "
            "or None"
        )
    pk = _kind(np.asarray([pos_label]))
    if "obj" not in (pk, _kind(t)) and pk != _kind(t):
        raise MetricError(
            f"pos_label={pos_label!r} is not one of the labels (the labels are "
            f"{_kind_name(_kind(t))})"
        )
    counts = _counts(t, p, labels=[pos_label])
    if present.shape[0] == 2 and counts.cm.shape[0] > 2:
        raise MetricError(
            f"pos_label={pos_label!r} is not one of the labels "
            f"{[x.item() if hasattr(x, 'item') else x for x in present]}"
        )
    return counts


def _select(y_true: Any, y_pred: Any, labels: Any, average: Average, pos_label: Any) -> _Counts:
    if average not in _AVERAGES:
        raise MetricError(
            f"average must be one of 'binary', 'micro', 'macro', 'weighted' or "
            f"None, got {average!r}"
        )
    if average == "binary":
        return _binary_counts(y_true, y_pred, pos_label)
    return _counts(y_true, y_pred, labels)


def _average(values: np.ndarray, support: np.ndarray, average: Average) -> float | np.ndarray:
    if average is None:
        return values
    if average in ("binary", "micro"):
        return float(values[0])
    mask = ~np.isnan(values)
    if not mask.any():
        return math.nan
    if average == "weighted":
        w = support[mask].astype(np.float64)
        if w.sum() > 0:
            return float(np.sum(values[mask] * w) / w.sum())
    return float(values[mask].mean())


def _ratio_measure(
    y_true: Any,
    y_pred: Any,
    num: str,
    den: tuple[str, ...],
    *,
    labels: Any,
    average: Average,
    pos_label: Any,
    zero_division: ZeroDivision,
) -> float | np.ndarray:
    c = _select(y_true, y_pred, labels, average, pos_label)
    tp, fp, fn, tn = c.ovr()
    parts = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    support = tp + fn
    nu = parts[num]
    de = np.sum([parts[d] for d in den], axis=0)
    if average == "micro":
        nu, de = np.atleast_1d(nu.sum()), np.atleast_1d(np.sum(de))
    return _average(_divide(nu, de, zero_division), support, average)


# ---------------------------------------------------------------- confusion matrix


@dataclass(frozen=True)
class ConfusionMatrix:
    """A confusion matrix: ``matrix[i, j]`` counts items of true label ``labels[i]`` predicted
    as ``labels[j]`` (rows true, columns predicted). ``np.asarray(cm)`` is the matrix; for two
    labels ``cm.ravel()`` is ``(tn, fp, fn, tp)`` with ``labels[1]`` positive (scikit-learn's
    layout). Normalised matrices hold floats."""

    matrix: np.ndarray
    labels: np.ndarray
    normalize: str | None = None

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.matrix if dtype is None else self.matrix.astype(dtype)

    def ravel(self) -> np.ndarray:
        return self.matrix.ravel()

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.matrix.shape)

    def binary(self, pos_label: Any) -> tuple[Any, Any, Any, Any]:
        """``(tn, fp, fn, tp)`` of ``pos_label`` against every other label."""
        hits = np.flatnonzero(self.labels == pos_label)
        if hits.shape[0] != 1:
            raise MetricError(f"pos_label={pos_label!r} is not one of the labels")
        i = int(hits[0])
        m = self.matrix
        tp = m[i, i]
        fp = m[:, i].sum() - tp
        fn = m[i, :].sum() - tp
        tn = m.sum() - tp - fp - fn
        return tn.item(), fp.item(), fn.item(), tp.item()

    def to_dict(self) -> dict[Any, dict[Any, Any]]:
        """``{true_label: {predicted_label: value}}``."""
        labs = [x.item() if hasattr(x, "item") else x for x in self.labels]
        return {
            a: {b: self.matrix[i, j].item() for j, b in enumerate(labs)} for i, a in enumerate(labs)
        }


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    labels: Any = None,
    normalize: Literal["true", "pred", "all"] | None = None,
    zero_division: ZeroDivision = 0,
) -> ConfusionMatrix:
    """Confusion matrix, rows = true labels, columns = predicted labels.

    ``labels`` fixes the order and restricts the matrix: items whose true or predicted label is
    not listed are dropped (scikit-learn). ``normalize``: ``"true"`` divides each row by its
    sum (rates given the true class: the diagonal is recall), ``"pred"`` each column (the
    diagonal is precision), ``"all"`` by the total. A zero row/column (a class absent from
    ``y_true``/``y_pred``) normalises to ``zero_division`` (0, as scikit-learn; or 1, "nan").
    """
    if normalize not in (None, "true", "pred", "all"):
        raise MetricError(f"normalize must be None, 'true', 'pred' or 'all', got {normalize!r}")
    c = _counts(y_true, y_pred, labels)
    k = c.selected.shape[0]
    m = c.cm[:k, :k]  # requested labels come first; dropping the rest drops those items
    if normalize is None:
        return ConfusionMatrix(m.copy(), c.labels[:k], None)
    if normalize == "true":
        den = np.broadcast_to(m.sum(axis=1, keepdims=True), m.shape)
    elif normalize == "pred":
        den = np.broadcast_to(m.sum(axis=0, keepdims=True), m.shape)
    else:
        den = np.full(m.shape, m.sum())
    return ConfusionMatrix(_divide(m, den, zero_division), c.labels[:k], normalize)


# ---------------------------------------------------------------- measures from the matrix


def accuracy(y_true: Any, y_pred: Any) -> float:
    """Fraction of items whose predicted label equals the true label."""
    c = _counts(y_true, y_pred)
    return float(np.trace(c.cm) / c.n)


def precision(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Precision TP / (TP + FP) (positive predictive value). Undefined with no predicted item."""
    return _ratio_measure(
        y_true,
        y_pred,
        "tp",
        ("tp", "fp"),
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


def recall(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Recall TP / (TP + FN) (sensitivity, TPR). Undefined with no true item."""
    return _ratio_measure(
        y_true,
        y_pred,
        "tp",
        ("tp", "fn"),
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


tpr = recall


def specificity(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Specificity TN / (TN + FP) (TNR), one class against the rest."""
    return _ratio_measure(
        y_true,
        y_pred,
        "tn",
        ("tn", "fp"),
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


tnr = specificity


def npv(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Negative predictive value TN / (TN + FN)."""
    return _ratio_measure(
        y_true,
        y_pred,
        "tn",
        ("tn", "fn"),
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


def fpr(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """False positive rate FP / (FP + TN) = 1 - specificity."""
    return _ratio_measure(
        y_true,
        y_pred,
        "fp",
        ("fp", "tn"),
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


def fnr(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """False negative rate FN / (FN + TP) = 1 - recall."""
    return _ratio_measure(
        y_true,
        y_pred,
        "fn",
        ("fn", "tp"),
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


def jaccard(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Jaccard index TP / (TP + FP + FN). Undefined when the class is neither true nor
    predicted."""
    return _ratio_measure(
        y_true,
        y_pred,
        "tp",
        ("tp", "fp", "fn"),
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


def f_score(
    y_true: Any,
    y_pred: Any,
    beta: float = 1.0,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """F-beta: (1+β²)·TP / ((1+β²)·TP + β²·FN + FP), the weighted harmonic mean of precision
    and recall (van Rijsbergen's effectiveness 1 - E). β = 0 is precision, β = inf recall.
    Undefined only when TP = FN = FP = 0. Micro-averaging sums the counts first."""
    b = float(beta)
    if not b >= 0:
        raise MetricError(f"beta must be >= 0, got {beta!r}")
    if b == 0:
        return precision(
            y_true,
            y_pred,
            labels=labels,
            average=average,
            pos_label=pos_label,
            zero_division=zero_division,
        )
    if math.isinf(b):
        return recall(
            y_true,
            y_pred,
            labels=labels,
            average=average,
            pos_label=pos_label,
            zero_division=zero_division,
        )
    c = _select(y_true, y_pred, labels, average, pos_label)
    tp, fp, fn, _ = c.ovr()
    support = tp + fn
    b2 = b * b
    num = (1 + b2) * tp.astype(np.float64)
    den = num + b2 * fn + fp
    if average == "micro":
        num, den = np.atleast_1d(num.sum()), np.atleast_1d(den.sum())
    return _average(_divide(num, den, zero_division), support, average)


def f1(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """F1 = 2·TP / (2·TP + FP + FN)."""
    return f_score(
        y_true,
        y_pred,
        1.0,
        labels=labels,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
    )


def fowlkes_mallows(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    average: Average = "binary",
    pos_label: Any = None,
    zero_division: ZeroDivision = 0,
) -> float | np.ndarray:
    """Fowlkes–Mallows index of a class, √(precision · recall) = TP / √((TP+FP)(TP+FN)).
    Undefined (``zero_division``) when the class is never predicted or never true."""
    c = _select(y_true, y_pred, labels, average, pos_label)
    tp, fp, fn, _ = c.ovr()
    support = tp + fn
    num = tp.astype(np.float64)
    den = (tp + fp).astype(np.float64) * (tp + fn)
    if average == "micro":
        num = np.atleast_1d(num.sum())
        den = np.atleast_1d(float((tp + fp).sum()) * float((tp + fn).sum()))
    return _average(_divide(num, np.sqrt(den), zero_division), support, average)


def balanced_accuracy(y_true: Any, y_pred: Any, *, adjusted: bool = False) -> float:
    """Mean recall over the classes present in ``y_true`` (for two classes (TPR + TNR) / 2).
    Classes that are only predicted have no recall and are left out (as scikit-learn).
    ``adjusted=True`` rescales so that chance is 0: (score - 1/K) / (1 - 1/K)."""
    c = _counts(y_true, y_pred)
    t = c.true_sum
    keep = t > 0
    per_class = c.tp[keep] / t[keep]
    score = float(per_class.mean())
    if adjusted:
        k = per_class.shape[0]
        if k == 1:
            return math.nan
        chance = 1.0 / k
        score = (score - chance) / (1 - chance)
    return score


def cohen_kappa(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    weights: Literal["linear", "quadratic"] | None = None,
    zero_division: ZeroDivision = "nan",
) -> float:
    """Cohen's kappa (p_o - p_e) / (1 - p_e), optionally weighted (``"linear"`` or
    ``"quadratic"`` disagreement weights over the label order). Undefined when chance
    agreement is certain (p_e = 1: both sides use one and the same label) or nothing is left
    after ``labels`` restricts the items: ``zero_division`` (default ``"nan"``, scikit-learn's
    ``replace_undefined_by``). ``labels`` restricts, as in :func:`confusion_matrix`."""
    if weights not in (None, "linear", "quadratic"):
        raise MetricError(f"weights must be None, 'linear' or 'quadratic', got {weights!r}")
    m = confusion_matrix(y_true, y_pred, labels=labels).matrix.astype(np.float64)
    n = m.sum()
    undefined = _zero_division_value(zero_division)
    if n == 0:
        return undefined
    k = m.shape[0]
    expected = np.outer(m.sum(axis=1), m.sum(axis=0)) / n
    idx = np.arange(k)
    if weights is None:
        w = (idx[:, None] != idx[None, :]).astype(np.float64)
    elif weights == "linear":
        w = np.abs(idx[:, None] - idx[None, :]).astype(np.float64)
    else:
        w = ((idx[:, None] - idx[None, :]) ** 2).astype(np.float64)
    den = float(np.sum(w * expected))
    if den == 0:
        return undefined
    return float(1 - np.sum(w * m) / den)


def mcc(y_true: Any, y_pred: Any, *, degenerate: Literal["zero", "limit", "nan"] = "zero") -> float:
    """Matthews correlation coefficient; for more than two classes Gorodkin's (2004) R_K,
    (n·c - t·p) / √((n² - t·t)(n² - p·p)) with c the number correct, t and p the true and
    predicted class sizes. For two classes R_K is the binary MCC
    (TP·TN - FP·FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN)), whichever class is positive.

    The denominator is 0 when all true or all predicted labels are one class. ``degenerate``:

    - ``"zero"`` (default): 0, as scikit-learn.
    - ``"limit"``: the values of Chicco & Jurman (2020, BMC Genomics 21:6; 2023, BioData
      Mining 16:4): +1 when the matrix has a single non-zero cell on the diagonal (every item
      correct and of one class), -1 when its single non-zero cell is off the diagonal (every
      item wrong, one class predicted for another), else 0, the limit of MCC when the empty
      row or column is filled with ε → 0.
    - ``"nan"``: NaN.
    """
    if degenerate not in ("zero", "limit", "nan"):
        raise MetricError(f"degenerate must be 'zero', 'limit' or 'nan', got {degenerate!r}")
    c = _counts(y_true, y_pred)
    return _mcc_from_matrix(c.cm, degenerate)


def _mcc_from_matrix(cm: np.ndarray, degenerate: str) -> float:
    m = cm.astype(np.float64)
    t = m.sum(axis=1)
    p = m.sum(axis=0)
    n = m.sum()
    cov_tp = np.trace(m) * n - t @ p
    cov_tt = n * n - t @ t
    cov_pp = n * n - p @ p
    den = cov_tt * cov_pp
    if den == 0:
        if degenerate == "nan":
            return math.nan
        if degenerate == "limit":
            nz = np.argwhere(cm)
            if nz.shape[0] == 1:
                return 1.0 if nz[0, 0] == nz[0, 1] else -1.0
        return 0.0
    return float(cov_tp / np.sqrt(den))


def sba(y_true: Any, y_pred: Any, *, absent: Literal["gosgens", "nan"] = "gosgens") -> float:
    """Symmetric Balanced Accuracy (Gösgens, Zhiyanov, Tikhonov & Prokhorenkova 2021, "Good
    classification measures and how to find them", NeurIPS): the mean of balanced accuracy and
    its version with true and predicted labels swapped,

        SBA = 1/(2m) · Σ_i (c_ii / a_i + c_ii / b_i)

    over the m classes that occur in ``y_true`` or ``y_pred`` (a_i true, b_i predicted class
    sizes; c_ii correct items of class i). A class absent from one side makes a term 0/0;
    ``absent="gosgens"`` (default) applies the authors' rule (their reference code,
    yandex-research/classification-measures): c_ii/a_i is replaced by b_i/n when a_i = 0 and
    c_ii/b_i by a_i/n when b_i = 0, and SBA is 0 when no item is correct (minimal agreement).
    ``absent="nan"`` returns NaN instead whenever a class is absent from one side. Classes
    absent from both sides do not count.
    """
    if absent not in ("gosgens", "nan"):
        raise MetricError(f"absent must be 'gosgens' or 'nan', got {absent!r}")
    c = _counts(y_true, y_pred)
    a = c.true_sum.astype(np.float64)
    b = c.pred_sum.astype(np.float64)
    d = c.tp.astype(np.float64)
    n = float(c.n)
    if (a == 0).any() or (b == 0).any():
        if absent == "nan":
            return math.nan
        if not d.any():
            return 0.0
    m = a.shape[0]
    term_a = np.where(a > 0, d / np.where(a > 0, a, 1), b / n)
    term_b = np.where(b > 0, d / np.where(b > 0, b, 1), a / n)
    return float((term_a.sum() + term_b.sum()) / (2 * m))


# ---------------------------------------------------------------- curves from scores


def _scores_pair(y_true: Any, scores: Any, pos_label: Any) -> tuple[np.ndarray, np.ndarray]:
    t = _as_labels(y_true, "y_true")
    s = np.asarray(scores)
    if s.ndim != 1:
        raise InputError(f"scores must be 1-D, got shape {s.shape}")
    if s.dtype.kind not in "biuf":
        raise InputError(f"scores must be numbers, got {s.dtype}")
    s = s.astype(np.float64)
    if t.shape[0] != s.shape[0]:
        raise InputError(f"y_true has {t.shape[0]} items but scores has {s.shape[0]}")
    if t.shape[0] == 0:
        raise EmptyInputError("no items to evaluate")
    if not np.isfinite(s).all():
        raise InputError(
            f"scores hold NaN or infinite values (item {int(np.flatnonzero(~np.isfinite(s))[0])})"
        )
    uniq, _ = _unique(t, "y_true")
    if uniq.shape[0] > 2:
        raise InputError(
            f"y_true holds {uniq.shape[0]} labels; curves need binary labels "
            "(compare one class against the rest: y_true == label)"
        )
    if pos_label is None:
        if t.dtype.kind == "b":
            pos_label = True
        elif _kind(t) == "num" and set(uniq.tolist()) <= {-1, 0, 1}:
            pos_label = 1
        else:
            raise MetricError("pos_label is required unless y_true holds {0, 1} or {-1, 1}")
    try:
        y = np.asarray(t == pos_label, dtype=bool)
    except (TypeError, ValueError):  # pragma: no cover
        raise MetricError(f"pos_label={pos_label!r} cannot be compared with the labels") from None
    if y.shape != t.shape:
        raise MetricError(f"pos_label={pos_label!r} cannot be compared with the labels")
    if uniq.shape[0] == 2 and not y.any():
        raise MetricError(f"pos_label={pos_label!r} is not one of the labels")
    return y, s


def _threshold_counts(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cumulative (tps, fps) at every distinct score, thresholds decreasing: items with score
    >= threshold are predicted positive (tied items enter together)."""
    order = np.argsort(-s, kind="stable")
    s_sorted = s[order]
    y_sorted = y[order]
    ends = np.r_[np.flatnonzero(np.diff(s_sorted)), y.shape[0] - 1]
    tps = np.cumsum(y_sorted, dtype=np.int64)[ends]
    fps = ends + 1 - tps
    return tps, fps, s_sorted[ends]


def roc_curve(
    y_true: Any, scores: Any, pos_label: Any = None, *, drop_intermediate: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC curve: ``fpr, tpr, thresholds`` with thresholds decreasing, the first +inf (the point
    (0, 0)), then one point per distinct score (scikit-learn's ``roc_curve`` with
    ``drop_intermediate=False``; ``drop_intermediate=True`` drops collinear points as
    scikit-learn's default does). ``pos_label`` defaults to 1 for {0, 1} / {-1, 1} labels.
    Without negatives fpr is NaN, without positives tpr is NaN (as scikit-learn)."""
    y, s = _scores_pair(y_true, scores, pos_label)
    tps, fps, thr = _threshold_counts(y, s)
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    tps = np.r_[0, tps].astype(np.float64)
    fps = np.r_[0, fps].astype(np.float64)
    thr = np.r_[np.inf, thr]
    f = fps / fps[-1] if fps[-1] > 0 else np.full(fps.shape, np.nan)
    t = tps / tps[-1] if tps[-1] > 0 else np.full(tps.shape, np.nan)
    return f, t, thr


def _undefined(undefined: float | str, what: str) -> float:
    if undefined == "error":
        raise InputError(what)
    if undefined == "nan":
        return math.nan
    if isinstance(undefined, int | float) and not isinstance(undefined, bool):
        return float(undefined)
    raise MetricError(f"undefined must be 'nan', 'error' or a number, got {undefined!r}")


def roc_auc(
    y_true: Any, scores: Any, pos_label: Any = None, *, undefined: float | str = "nan"
) -> float:
    """Area under the ROC curve, computed as the Mann–Whitney U statistic / (P·N): the
    probability that a random positive scores above a random negative, ties counting ½ (equal
    to the trapezoidal area under the full curve, scikit-learn's ``roc_auc_score``). Undefined
    when y_true holds one class only: ``undefined`` = ``"nan"`` (default), ``"error"`` (raise
    InputError, as scikit-learn) or a number."""
    y, s = _scores_pair(y_true, scores, pos_label)
    n_pos = int(y.sum())
    n_neg = y.shape[0] - n_pos
    if n_pos == 0 or n_neg == 0:
        return _undefined(undefined, "ROC AUC is undefined: y_true holds one class only")
    _, inv, cnt = np.unique(s, return_inverse=True, return_counts=True)
    upper = np.cumsum(cnt)
    mid_rank = upper - (cnt - 1) / 2.0  # average 1-based rank of each distinct score
    rank_sum = float(mid_rank[inv][y].sum())
    u = rank_sum - n_pos * (n_pos + 1) / 2.0
    return u / (n_pos * n_neg)


def pr_curve(
    y_true: Any, scores: Any, pos_label: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision–recall curve: ``precision, recall, thresholds`` with thresholds increasing
    (one per distinct score) and a final point precision 1, recall 0 without a threshold
    (scikit-learn's ``precision_recall_curve``, ``drop_intermediate=False``). Without positives
    recall is NaN (scikit-learn sets it to 1)."""
    y, s = _scores_pair(y_true, scores, pos_label)
    tps, fps, thr = _threshold_counts(y, s)
    prec = tps / (tps + fps)
    rec = tps / tps[-1] if tps[-1] > 0 else np.full(tps.shape, np.nan)
    return np.r_[prec[::-1], 1.0], np.r_[rec[::-1], 0.0], thr[::-1].copy()


def average_precision(
    y_true: Any, scores: Any, pos_label: Any = None, *, undefined: float | str = "nan"
) -> float:
    """Average precision Σ_k (R_k - R_{k-1}) · P_k over the distinct score thresholds (the step
    integral of the PR curve without interpolation, scikit-learn's
    ``average_precision_score``; tied items enter together). Undefined without positives:
    ``undefined`` = ``"nan"`` (default), ``"error"`` or a number (scikit-learn gives 0)."""
    y, s = _scores_pair(y_true, scores, pos_label)
    tps, fps, _ = _threshold_counts(y, s)
    if tps[-1] == 0:
        return _undefined(undefined, "average precision is undefined: no positive item")
    prec = tps / (tps + fps)
    rec = tps / tps[-1]
    return float(np.sum(np.diff(rec, prepend=0.0) * prec))


@dataclass(frozen=True)
class InterpolatedPrecision:
    """Interpolated precision at recall ``levels`` and its mean (the 11-point average when
    levels are 0.0, 0.1, ..., 1.0)."""

    levels: np.ndarray
    precision: np.ndarray
    mean: float

    def __float__(self) -> float:
        return self.mean


def interpolated_precision(
    y_true: Any, scores: Any, levels: int | Sequence[float] = 11, pos_label: Any = None
) -> InterpolatedPrecision:
    """Interpolated precision (Manning, Raghavan & Schütze 2008, §8.4): at recall level r, the
    highest precision at any point of the PR curve whose recall is >= r; 0 if no point reaches
    r (trec_eval). ``levels`` is a number of equally spaced levels from 0 to 1 (11: 0.0, 0.1,
    ..., 1.0; level i is i/(levels-1), computed so that recall 3/10 meets level 0.3 exactly) or
    a sequence of levels in [0, 1]. The curve has one point per distinct score (tied items enter
    together), without scikit-learn's added point (recall 0, precision 1). Without positives
    every value is NaN."""
    if isinstance(levels, int | np.integer) and not isinstance(levels, bool):
        if levels < 2:
            raise MetricError(f"levels must be >= 2, got {levels}")
        lv = np.arange(int(levels)) / (int(levels) - 1)
    else:
        lv = np.asarray(levels, dtype=np.float64)
        if lv.ndim != 1 or lv.shape[0] == 0 or not ((lv >= 0) & (lv <= 1)).all():
            raise MetricError(
                "levels must be a count >= 2 or a sequence of recall levels in [0, 1]"
            )
    y, s = _scores_pair(y_true, scores, pos_label)
    tps, fps, _ = _threshold_counts(y, s)
    if tps[-1] == 0:
        vals = np.full(lv.shape, np.nan)
        return InterpolatedPrecision(lv, vals, math.nan)
    prec = tps / (tps + fps)
    rec = tps / tps[-1]  # non-decreasing along the curve
    suffix_max = np.maximum.accumulate(prec[::-1])[::-1]
    idx = np.searchsorted(rec, lv, side="left")
    vals = np.where(idx < rec.shape[0], suffix_max[np.minimum(idx, rec.shape[0] - 1)], 0.0)
    return InterpolatedPrecision(lv, vals, float(vals.mean()))


# ---------------------------------------------------------------- report


def _py(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


@dataclass(frozen=True)
class ClassMetrics:
    """Per-class values: precision, recall, F-beta and support (number of true items)."""

    label: Any
    precision: float
    recall: float
    f: float
    support: int


@dataclass(frozen=True)
class ClassificationReport:
    """Everything :func:`classification_report` computes. ``averages[name]`` maps
    ``"micro"``, ``"macro"``, ``"weighted"`` to {"precision", "recall", "f"}; ``binary`` holds
    the measures of the ``positive`` class against the rest (when given); ``scores`` AUC, AP
    and interpolated precision (when scores were given); ``undefined`` counts the per-class
    values replaced by ``zero_division``."""

    labels: list[Any]
    classes: list[ClassMetrics]
    averages: dict[str, dict[str, float]]
    accuracy: float
    balanced_accuracy: float
    cohen_kappa: float
    mcc: float
    sba: float
    n: int
    beta: float = 1.0
    positive: Any = None
    binary: dict[str, float] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    interpolated: InterpolatedPrecision | None = None
    undefined: dict[str, int] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def f_name(self) -> str:
        return "f1" if self.beta == 1 else f"f{self.beta:g}"

    def __getitem__(self, label: Any) -> ClassMetrics:
        for c in self.classes:
            if c.label == label:
                return c
        raise KeyError(label)

    def records(self) -> list[dict[str, Any]]:
        """Rows ``{"metric", "value"}`` plus ``"label"`` for per-class values; per-class rows
        first, then averages (``precision_macro`` ...), then overall measures, then the
        positive class's binary and score-based measures."""
        fname = self.f_name
        out: list[dict[str, Any]] = []
        for c in self.classes:
            out.append({"metric": "precision", "label": c.label, "value": c.precision})
            out.append({"metric": "recall", "label": c.label, "value": c.recall})
            out.append({"metric": fname, "label": c.label, "value": c.f})
            out.append({"metric": "support", "label": c.label, "value": c.support})
        for avg, vals in self.averages.items():
            out.append({"metric": f"precision_{avg}", "value": vals["precision"]})
            out.append({"metric": f"recall_{avg}", "value": vals["recall"]})
            out.append({"metric": f"{fname}_{avg}", "value": vals["f"]})
        for name in ("accuracy", "balanced_accuracy", "cohen_kappa", "mcc", "sba"):
            out.append({"metric": name, "value": getattr(self, name)})
        out.append({"metric": "n", "value": self.n})
        for name, v in self.binary.items():
            out.append({"metric": name, "label": self.positive, "value": v})
        for name, v in self.scores.items():
            out.append({"metric": name, "label": self.positive, "value": v})
        if self.interpolated is not None:
            for lv, v in zip(self.interpolated.levels, self.interpolated.precision, strict=True):
                out.append(
                    {
                        "metric": f"iprec_at_recall_{lv:.2f}",
                        "label": self.positive,
                        "value": float(v),
                    }
                )
            out.append(
                {"metric": "iprec_mean", "label": self.positive, "value": self.interpolated.mean}
            )
        return out


def classification_report(
    y_true: Any,
    y_pred: Any,
    scores: Any = None,
    labels: Any = None,
    positive: Any = None,
    beta: float = 1.0,
    *,
    zero_division: ZeroDivision = 0,
    degenerate: Literal["zero", "limit", "nan"] = "zero",
    averages: Sequence[str] = ("micro", "macro", "weighted"),
    levels: int | Sequence[float] = 11,
) -> ClassificationReport:
    """Per-class precision, recall, F-beta and support (classes: ``labels`` or every label
    present, sorted); their micro/macro/weighted ``averages``; accuracy, balanced accuracy,
    Cohen's kappa, MCC (R_K for more than two classes, ``degenerate`` as in :func:`mcc`) and
    SBA. With ``positive``, that class against the rest: precision, recall, F, specificity,
    NPV, TPR/FPR/TNR/FNR, Jaccard, Fowlkes–Mallows. With ``scores`` (1-D, the score of
    ``positive``: required unless the labels are {0, 1}/{-1, 1}, when it is 1): ROC AUC,
    average precision and interpolated precision at ``levels`` for ``positive`` against the
    rest. ``labels`` selects the classes reported and averaged; every item counts."""
    for a in averages:
        if a not in ("micro", "macro", "weighted"):
            raise MetricError(f"averages must be among 'micro', 'macro', 'weighted', got {a!r}")
    t, p = _check_pair(y_true, y_pred)
    c = _counts(t, p, labels)
    b = float(beta)
    if not (b > 0 and math.isfinite(b)):
        raise MetricError(f"beta must be a positive finite number, got {beta!r}")
    zd = _zero_division_value(zero_division)
    tp, fp, fn, _ = c.ovr()
    support = tp + fn
    pr = _divide(tp, tp + fp, zero_division)
    rc = _divide(tp, tp + fn, zero_division)
    b2 = b * b
    f_num = (1 + b2) * tp.astype(np.float64)
    f_den = f_num + b2 * fn + fp
    fs = _divide(f_num, f_den, zero_division)
    labs = [_py(x) for x in c.labels[c.selected]]
    classes = [
        ClassMetrics(lab, float(pr[i]), float(rc[i]), float(fs[i]), int(support[i]))
        for i, lab in enumerate(labs)
    ]
    avg: dict[str, dict[str, float]] = {}
    for a in averages:
        if a == "micro":
            stp, sfp, sfn = tp.sum(), fp.sum(), fn.sum()
            num = (1 + b2) * float(stp)
            avg[a] = {
                "precision": float(
                    _divide(np.array([stp]), np.array([stp + sfp]), zero_division)[0]
                ),
                "recall": float(_divide(np.array([stp]), np.array([stp + sfn]), zero_division)[0]),
                "f": float(
                    _divide(np.array([num]), np.array([num + b2 * sfn + sfp]), zero_division)[0]
                ),
            }
        else:
            mode: Average = "macro" if a == "macro" else "weighted"
            avg[a] = {
                "precision": float(_average(pr, support, mode)),
                "recall": float(_average(rc, support, mode)),
                "f": float(_average(fs, support, mode)),
            }
    undefined = {
        "precision": int((tp + fp == 0).sum()),
        "recall": int((tp + fn == 0).sum()),
        "f": int((f_den == 0).sum()),
    }
    binary: dict[str, float] = {}
    if positive is not None:
        hits = np.flatnonzero(c.labels == positive)
        if hits.shape[0] != 1:
            raise MetricError(f"positive={positive!r} is not one of the labels")
        i = int(hits[0])
        full = _Counts(c.cm, c.labels, np.array([i]))
        btp, bfp, bfn, btn = (int(x[0]) for x in full.ovr())

        def r(num: float, den: float) -> float:
            return num / den if den else zd

        num = (1 + b2) * btp
        binary = {
            "precision": r(btp, btp + bfp),
            "recall": r(btp, btp + bfn),
            ("f1" if b == 1 else f"f{b:g}"): r(num, num + b2 * bfn + bfp),
            "specificity": r(btn, btn + bfp),
            "npv": r(btn, btn + bfn),
            "tpr": r(btp, btp + bfn),
            "fpr": r(bfp, bfp + btn),
            "tnr": r(btn, btn + bfp),
            "fnr": r(bfn, bfn + btp),
            "jaccard": r(btp, btp + bfp + bfn),
            "fowlkes_mallows": r(btp, math.sqrt((btp + bfp) * (btp + bfn))),
            "tp": btp,
            "fp": bfp,
            "fn": bfn,
            "tn": btn,
        }
    score_vals: dict[str, float] = {}
    interp = None
    pos_for_scores = positive
    if scores is not None:
        if pos_for_scores is None:
            if _kind(t) == "num" and set(np.unique(t).tolist()) <= {-1, 0, 1}:
                pos_for_scores = 1
            else:
                raise MetricError(
                    "positive is required with scores unless the labels are {0, 1} or {-1, 1}"
                )
        y_bin = np.asarray(t == pos_for_scores, dtype=bool)
        score_vals = {
            "roc_auc": roc_auc(y_bin, scores, True),
            "average_precision": average_precision(y_bin, scores, True),
        }
        interp = interpolated_precision(y_bin, scores, levels, True)
    return ClassificationReport(
        labels=labs,
        classes=classes,
        averages=avg,
        accuracy=float(np.trace(c.cm) / c.n),
        balanced_accuracy=balanced_accuracy(t, p),
        cohen_kappa=cohen_kappa(t, p),
        mcc=_mcc_from_matrix(c.cm, degenerate),
        sba=sba(t, p),
        n=c.n,
        beta=b,
        positive=_py(pos_for_scores),
        binary=binary,
        scores=score_vals,
        interpolated=interp,
        undefined=undefined,
        settings={
            "zero_division": zero_division,
            "degenerate": degenerate,
            "beta": b,
            "positive": _py(pos_for_scores),
        },
    )


# ---------------------------------------------------------------- F1 vs MCC


@dataclass(frozen=True)
class F1MCCSimulation:
    """Columns (NumPy arrays, one row per confusion matrix): tp, fp, tn, fn, f1, mcc and
    prevalence (positives / n)."""

    tp: np.ndarray
    fp: np.ndarray
    tn: np.ndarray
    fn: np.ndarray
    f1: np.ndarray
    mcc: np.ndarray
    prevalence: np.ndarray

    def __len__(self) -> int:
        return int(self.tp.shape[0])

    def to_dict(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in ("tp", "fp", "tn", "fn", "f1", "mcc", "prevalence")}


def simulate_f1_mcc(
    n: int = 100,
    seed: int = 0,
    sample: int | None = None,
    *,
    zero_division: ZeroDivision = "nan",
    degenerate: Literal["zero", "limit", "nan"] = "nan",
) -> F1MCCSimulation:
    """Every binary confusion matrix (TP, FP, TN, FN ≥ 0, summing to ``n``: C(n+3, 3) of
    them) with its F1, MCC and prevalence (TP+FN)/n -- the data behind "F1 looks good, MCC
    says otherwise" (Chicco & Jurman 2020). ``sample``: a seeded random subset of that many
    matrices (without replacement, in enumeration order). Undefined values: F1 when
    TP = FP = FN = 0 (``zero_division``, default NaN) and MCC with a zero row or column
    (``degenerate`` as in :func:`mcc`, default NaN)."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise MetricError(f"n must be a positive integer, got {n!r}")
    if degenerate not in ("zero", "limit", "nan"):
        raise MetricError(f"degenerate must be 'zero', 'limit' or 'nan', got {degenerate!r}")
    zd = _zero_division_value(zero_division)
    n = int(n)
    # (tp, fp) pairs with tp + fp <= n, then tn = 0 .. n - tp - fp for each (fn the rest)
    a, b = np.triu_indices(n + 1)  # a <= b
    tp_pairs = a
    fp_pairs = b - a
    lengths = n - b + 1
    tp = np.repeat(tp_pairs, lengths)
    fp = np.repeat(fp_pairs, lengths)
    starts = np.cumsum(lengths) - lengths
    tn = np.arange(tp.shape[0]) - np.repeat(starts, lengths)
    fn = n - tp - fp - tn
    total = tp.shape[0]
    if sample is not None:
        if isinstance(sample, bool) or not isinstance(sample, int | np.integer) or sample < 1:
            raise MetricError(f"sample must be a positive integer, got {sample!r}")
        if sample > total:
            raise MetricError(f"sample={sample} exceeds the {total} confusion matrices for n={n}")
        idx = np.sort(np.random.default_rng(seed).choice(total, size=int(sample), replace=False))
        tp, fp, tn, fn = tp[idx], fp[idx], tn[idx], fn[idx]
    tpf, fpf, tnf, fnf = (x.astype(np.float64) for x in (tp, fp, tn, fn))
    f1_den = 2 * tpf + fpf + fnf
    f1v = np.divide(2 * tpf, f1_den, out=np.full(tpf.shape, zd), where=f1_den > 0)
    den = (tpf + fpf) * (tpf + fnf) * (tnf + fpf) * (tnf + fnf)
    mccv = np.divide(tpf * tnf - fpf * fnf, np.sqrt(den), out=np.zeros_like(tpf), where=den > 0)
    bad = den == 0
    if degenerate == "nan":
        mccv[bad] = np.nan
    elif degenerate == "limit":
        cells = np.stack([tp, fp, tn, fn])
        single = (cells > 0).sum(axis=0) == 1
        mccv[bad & single & ((tp > 0) | (tn > 0))] = 1.0
        mccv[bad & single & ((fp > 0) | (fn > 0))] = -1.0
    return F1MCCSimulation(tp=tp, fp=fp, tn=tn, fn=fn, f1=f1v, mcc=mccv, prevalence=(tpf + fnf) / n)
