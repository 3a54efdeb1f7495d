"""The family's label measures on many confusion matrices at once: what the comparison's
bootstrap and randomisation tests recompute on every resample of the items
(:mod:`assay.classification.comparison`).

Labels are coded once over one label space (the gold labels, every system's predictions and
the labels the measures name); a block of resamples of (true, predicted) codes becomes a
(resamples × K × K) stack of confusion matrices with one ``np.bincount``, and each measure is
computed from the stack with array operations, following the definitions of
:mod:`assay.classification.measures` and :mod:`assay.classification.overall` exactly (the
classes a measure averages over are those present in the resample, in its ``y_true`` or its
``y_pred``, as the measure itself would see them; ``labels=`` selects fixed classes).
``tests/unit/test_classification_resampled.py`` checks every measure against the family's
own functions on resampled labels.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import MetricError
from ..metrics.labels import zero_division_value
from ..metrics.registry import Metric

__all__ = [
    "LabelSpace",
    "MatrixMeasure",
    "cell_matrices",
    "check_measure",
    "matrices",
    "matrix_measure",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: Most confusion-matrix cells counted by one ``bincount`` (resamples × K × K): a block of
#: resamples of many classes is counted in slices under this.
_CELLS = 1 << 22

#: The measures that take per-class counts, with their numerator and denominator terms.
_RATIOS: dict[str, tuple[str, tuple[str, ...]]] = {
    "precision": ("tp", ("tp", "fp")),
    "recall": ("tp", ("tp", "fn")),
    "specificity": ("tn", ("tn", "fp")),
    "npv": ("tn", ("tn", "fn")),
    "fpr": ("fp", ("fp", "tn")),
    "fnr": ("fn", ("fn", "tp")),
    "jaccard": ("tp", ("tp", "fp", "fn")),
}
_PER_CLASS = (*_RATIOS, "f_score", "f1", "fowlkes_mallows")
#: Every measure the comparison can resample.
SUPPORTED = ("accuracy", *_PER_CLASS, "balanced_accuracy", "mcc", "sba")


@dataclass(frozen=True)
class LabelSpace:
    """The labels of a comparison, sorted, and the code of each (its index)."""

    labels: NDArray[Any]  # Any: the labels' own dtype (numbers or strings)

    @property
    def k(self) -> int:
        return int(self.labels.shape[0])

    def code(self, label: Any) -> int:
        """The index of ``label`` (a MetricError when it is not one of them)."""
        hits = np.flatnonzero(self.labels == label)
        if hits.shape[0] != 1:
            raise MetricError(f"{label!r} is not one of the labels", option="labels")
        return int(hits[0])


def matrices(true: NDArray[Any], pred: NDArray[Any], k: int) -> IntArray:
    """Confusion matrices (rows true, columns predicted) of every row of the codes.

    Parameters
    ----------
    true, pred : numpy.ndarray
        Integer codes in [0, k) of one shape (..., n): the last axis holds the items.
    k : int
        The number of labels.

    Returns
    -------
    numpy.ndarray
        (..., k, k) counts.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.classification.resampled import matrices
    >>> matrices(np.array([[0, 1, 1]]), np.array([[0, 1, 0]]), 2).tolist()
    [[[1, 0], [1, 1]]]
    """
    t = np.asarray(true, dtype=np.int64)
    return cell_matrices(t * k + np.asarray(pred, dtype=np.int64), k)


def cell_matrices(cells: NDArray[Any], k: int) -> IntArray:
    """Confusion matrices of every row of cell codes (true · k + predicted): the records the
    comparison resamples, one integer per item.

    Parameters
    ----------
    cells : numpy.ndarray
        Integer (or integral float) codes in [0, k²) of shape (..., n): items last.
    k : int
        The number of labels.

    Returns
    -------
    numpy.ndarray
        (..., k, k) counts.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.classification.resampled import cell_matrices
    >>> cell_matrices(np.array([0, 3, 2]), 2).tolist()
    [[1, 0], [1, 1]]
    """
    c = np.asarray(cells)
    lead = c.shape[:-1]
    rows = int(np.prod(lead)) if lead else 1
    flat_cells = c.reshape(rows, -1)
    size = k * k
    out = np.empty((rows, size), dtype=np.int64)
    step = max(1, _CELLS // size)
    for start in range(0, rows, step):
        stop = min(rows, start + step)
        offset = np.arange(stop - start, dtype=np.int64)[:, None] * size
        flat = (np.asarray(flat_cells[start:stop], dtype=np.int64) + offset).ravel()
        out[start:stop] = np.bincount(flat, minlength=(stop - start) * size).reshape(-1, size)
    return out.reshape((*lead, k, k))


#: A measure of a (B × K × K) stack of confusion matrices: one value per matrix.
MatrixMeasure = Callable[[IntArray], FloatArray]


def matrix_measure(metric: Metric, space: LabelSpace) -> MatrixMeasure:
    """The function computing ``metric`` from a stack of confusion matrices over ``space``.

    Parameters
    ----------
    metric : Metric
        A label measure of the classification family, with its parameters bound (one value:
        ``average=None`` is refused).
    space : LabelSpace
        The labels the matrices are over.

    Returns
    -------
    callable
        (B, K, K) counts → B values.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.metrics import parse
    >>> from assay.classification.resampled import LabelSpace, matrix_measure
    >>> f1 = matrix_measure(parse("f1(average='macro')", family="classification")[0],
    ...                     LabelSpace(np.array(["a", "b"])))
    >>> f1(np.array([[[2, 1], [0, 1]]])).round(4).tolist()
    [0.7333]
    """
    check_measure(metric)
    name = metric.name
    params = metric.kwargs()
    if name == "accuracy":
        return _accuracy
    if name == "balanced_accuracy":
        return lambda cm: _balanced_accuracy(cm, bool(params["adjusted"]))
    if name == "mcc":
        return lambda cm: _mcc(cm, str(params["degenerate"]))
    if name == "sba":
        return lambda cm: _sba(cm, str(params["absent"]))
    return _per_class_measure(metric, params, space)


def check_measure(metric: Metric) -> None:
    """A MetricError unless ``metric`` is one :func:`matrix_measure` computes: a label measure
    of the family giving one value.

    Parameters
    ----------
    metric : Metric
        The measure with its parameters.

    Examples
    --------
    >>> from assay.metrics import parse
    >>> from assay.classification.resampled import check_measure
    >>> check_measure(parse("mcc", family="classification")[0])
    """
    if metric.name not in SUPPORTED:
        raise MetricError(
            f"{metric} cannot be compared by resampling items (the measures that can: "
            f"{', '.join(SUPPORTED)})",
            option="metrics",
        )
    if metric.name in _PER_CLASS and metric.kwargs().get("average") is None:
        raise MetricError(
            f"{metric} gives one value per class; compare one average "
            "(average='macro', 'micro', 'weighted' or 'binary')",
            option="metrics",
        )


# ---------------------------------------------------------------- measures of the whole table


def _accuracy(cm: IntArray) -> FloatArray:
    right = np.trace(cm, axis1=-2, axis2=-1).astype(np.float64)
    return np.asarray(right / cm.sum(axis=(-2, -1)), dtype=np.float64)


def _balanced_accuracy(cm: IntArray, adjusted: bool) -> FloatArray:
    true_sum = cm.sum(axis=-1).astype(np.float64)
    tp = np.diagonal(cm, axis1=-2, axis2=-1)
    keep = true_sum > 0
    recall = np.where(keep, tp / np.where(keep, true_sum, 1.0), 0.0)
    k = keep.sum(axis=-1).astype(np.float64)
    score: FloatArray = recall.sum(axis=-1) / k
    if not adjusted:
        return score
    chance = 1.0 / k
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(k == 1, math.nan, (score - chance) / (1.0 - chance))


def _mcc(cm: IntArray, degenerate: str) -> FloatArray:
    m = cm.astype(np.float64)
    t = m.sum(axis=-1)
    p = m.sum(axis=-2)
    n = m.sum(axis=(-2, -1))
    cov_tp = np.trace(m, axis1=-2, axis2=-1) * n - np.sum(t * p, axis=-1)
    cov_tt = n * n - np.sum(t * t, axis=-1)
    cov_pp = n * n - np.sum(p * p, axis=-1)
    den = cov_tt * cov_pp
    value = cov_tp / np.sqrt(np.where(den == 0, 1.0, den))
    if degenerate == "nan":
        fallback = np.full(den.shape, math.nan)
    elif degenerate == "limit":
        # one non-zero cell: +1 on the diagonal (all right), -1 off it (all wrong)
        single = np.count_nonzero(cm, axis=(-2, -1)) == 1
        on_diagonal = np.count_nonzero(np.diagonal(cm, axis1=-2, axis2=-1), axis=-1) == 1
        fallback = np.where(single, np.where(on_diagonal, 1.0, -1.0), 0.0)
    else:
        fallback = np.zeros(den.shape)
    return np.where(den == 0, fallback, value)


def _sba(cm: IntArray, absent: str) -> FloatArray:
    a = cm.sum(axis=-1).astype(np.float64)
    b = cm.sum(axis=-2).astype(np.float64)
    d = np.diagonal(cm, axis1=-2, axis2=-1).astype(np.float64)
    n = a.sum(axis=-1, keepdims=True)
    present = (a > 0) | (b > 0)
    m = present.sum(axis=-1)
    term_a = np.where(a > 0, d / np.where(a > 0, a, 1.0), b / n)
    term_b = np.where(b > 0, d / np.where(b > 0, b, 1.0), a / n)
    value = np.sum(np.where(present, term_a + term_b, 0.0), axis=-1) / (2.0 * m)
    one_sided = np.any(present & ((a == 0) | (b == 0)), axis=-1)
    if absent == "nan":
        return np.where(one_sided, math.nan, value)
    return np.where(one_sided & (d.sum(axis=-1) == 0), 0.0, value)


# ---------------------------------------------------------------- per-class measures, averaged


def _per_class_measure(metric: Metric, params: dict[str, Any], space: LabelSpace) -> MatrixMeasure:
    average = params["average"]
    zero = zero_division_value(params["zero_division"])
    selected: IntArray | None = None
    if average == "binary":
        pos = params.get("pos_label")
        # the family's default positive class of numeric labels (string labels need one:
        # the measure itself refused them before this is built)
        selected = np.array([space.code(1 if pos is None else pos)], dtype=np.int64)
    elif params.get("labels") is not None:
        selected = np.array([space.code(x) for x in params["labels"]], dtype=np.int64)
    terms = _terms(metric.name, params)

    def measure(cm: IntArray) -> FloatArray:
        tp = np.diagonal(cm, axis1=-2, axis2=-1).astype(np.float64)
        true_sum = cm.sum(axis=-1).astype(np.float64)
        pred_sum = cm.sum(axis=-2).astype(np.float64)
        n = true_sum.sum(axis=-1, keepdims=True)
        counts = {"tp": tp, "fp": pred_sum - tp, "fn": true_sum - tp}
        counts["tn"] = n - tp - counts["fp"] - counts["fn"]
        if selected is None:
            mask = (true_sum + pred_sum) > 0
        else:
            mask = np.zeros(tp.shape, dtype=bool)
            mask[..., selected] = True
        num, den = terms(counts)
        if average in ("binary", "micro"):
            num = np.sum(np.where(mask, num, 0.0), axis=-1)
            den = np.sum(np.where(mask, den, 0.0), axis=-1)
            if metric.name == "fowlkes_mallows":  # √(Σ(TP+FP) · Σ(TP+FN)) of the classes
                den = np.sqrt(
                    np.sum(np.where(mask, counts["tp"] + counts["fp"], 0.0), axis=-1)
                    * np.sum(np.where(mask, counts["tp"] + counts["fn"], 0.0), axis=-1)
                )
            return _divide(num, den, zero)
        values = _divide(num, den, zero)
        valid = mask & ~np.isnan(values)
        count = valid.sum(axis=-1)
        mean = np.sum(np.where(valid, values, 0.0), axis=-1) / np.where(count > 0, count, 1)
        if average == "weighted":
            w = np.where(valid, true_sum, 0.0)
            total = w.sum(axis=-1)
            weighted = np.sum(np.where(valid, values, 0.0) * w, axis=-1) / np.where(
                total > 0, total, 1.0
            )
            mean = np.where(total > 0, weighted, mean)
        return np.where(count > 0, mean, math.nan)

    return measure


Terms = Callable[[dict[str, FloatArray]], tuple[FloatArray, FloatArray]]


def _terms(name: str, params: dict[str, Any]) -> Terms:
    """The per-class numerator and denominator of a measure (before ``zero_division``)."""
    if name in _RATIOS:
        top, bottom = _RATIOS[name]
        return lambda c: (c[top], np.sum([c[x] for x in bottom], axis=0))
    if name == "fowlkes_mallows":
        return lambda c: (c["tp"], np.sqrt((c["tp"] + c["fp"]) * (c["tp"] + c["fn"])))
    beta = 1.0 if name == "f1" else float(params["beta"])
    if beta == 0:
        return _terms("precision", params)
    if math.isinf(beta):
        return _terms("recall", params)
    b2 = beta * beta

    def f_terms(c: dict[str, FloatArray]) -> tuple[FloatArray, FloatArray]:
        num = (1 + b2) * c["tp"]
        return num, num + b2 * c["fn"] + c["fp"]

    return f_terms


def _divide(num: FloatArray, den: FloatArray, zero: float) -> FloatArray:
    return np.where(den != 0, num / np.where(den != 0, den, 1.0), zero)
