"""The confusion matrix of two labellings (:func:`confusion_matrix`, a
:class:`ConfusionMatrix`). The measures computed from it are in
:mod:`assay.classification.measures`, with the conventions (label order, ``labels``,
``zero_division``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._options import ZeroDivision, choice
from .._result import Result, provenance
from ..errors import MetricError
from ..metrics.labels import counts, divide, py
from .options import Normalize

__all__ = ["ConfusionMatrix", "confusion_matrix"]


@dataclass(frozen=True, repr=False, eq=False)
class ConfusionMatrix(Result):
    """A confusion matrix: ``matrix[i, j]`` counts items of true label ``labels[i]`` predicted
    as ``labels[j]`` (rows true, columns predicted). ``np.asarray(cm)`` is the matrix; for two
    labels ``cm.ravel()`` is ``(tn, fp, fn, tp)`` with ``labels[1]`` positive (scikit-learn's
    layout). Normalised matrices hold floats. ``records()``: one row per cell.

    Parameters
    ----------
    matrix
        The K × K counts (or rates, when normalised): rows true labels, columns predicted.
    labels
        The K labels, in the order of the rows and columns.
    normalize
        What the matrix was normalised over (``"true"``, ``"pred"``, ``"all"``) or ``None``.
    provenance
        The settings that produced it.

    Examples
    --------
    >>> from assay.classification import confusion_matrix
    >>> cm = confusion_matrix([0, 1, 1, 1], [0, 1, 0, 1])
    >>> cm.ravel().tolist()
    [1, 0, 1, 2]
    >>> cm.binary(1)
    (1, 0, 1, 2)
    >>> cm.to_dict()
    {0: {0: 1, 1: 0}, 1: {0: 1, 1: 2}}
    """

    matrix: np.ndarray
    labels: np.ndarray
    normalize: Normalize | None = None
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

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
            raise MetricError(
                f"pos_label={pos_label!r} is not one of the labels", option="pos_label"
            )
        i = int(hits[0])
        m = self.matrix
        tp = m[i, i]
        fp = m[:, i].sum() - tp
        fn = m[i, :].sum() - tp
        tn = m.sum() - tp - fp - fn
        return tn.item(), fp.item(), fn.item(), tp.item()

    def to_dict(self) -> dict[Any, dict[Any, Any]]:
        """``{true_label: {predicted_label: value}}``."""
        labs = [py(x) for x in self.labels]
        return {
            a: {b: self.matrix[i, j].item() for j, b in enumerate(labs)} for i, a in enumerate(labs)
        }

    def records(self) -> list[dict[str, Any]]:
        """One row per cell: ``{"true", "pred", "value"}``, row by row."""
        return [
            {"true": a, "pred": b, "value": v}
            for a, row in self.to_dict().items()
            for b, v in row.items()
        ]


def confusion_matrix(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    normalize: Normalize | None = None,
    zero_division: ZeroDivision = 0,
) -> ConfusionMatrix:
    """Confusion matrix, rows = true labels, columns = predicted labels.

    ``labels`` fixes the order and restricts the matrix: items whose true or predicted label is
    not listed are dropped (scikit-learn). ``normalize``: ``"true"`` divides each row by its
    sum (rates given the true class: the diagonal is recall), ``"pred"`` each column (the
    diagonal is precision), ``"all"`` by the total. A zero row/column (a class absent from
    ``y_true``/``y_pred``) normalises to ``zero_division`` (0, as scikit-learn; or 1, "nan").

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    labels
        The labels, in order (others dropped); default: every label present, sorted.
    normalize
        ``None`` (counts), ``"true"``, ``"pred"`` or ``"all"``.
    zero_division
        The value of a normalised zero row or column.

    Returns
    -------
    ConfusionMatrix
        ``matrix`` (rows true, columns predicted) and ``labels``.

    Examples
    --------
    >>> from assay.classification import confusion_matrix
    >>> cm = confusion_matrix(["a", "b", "a", "c"], ["a", "b", "b", "c"])
    >>> cm.labels.tolist(), cm.matrix.tolist()
    (['a', 'b', 'c'], [[1, 1, 0], [0, 1, 0], [0, 0, 1]])
    """
    if normalize is not None:
        normalize = choice(normalize, Normalize, "normalize", error=MetricError)
    zero_division = choice(zero_division, ZeroDivision, "zero_division", error=MetricError)
    c = counts(y_true, y_pred, labels)
    m = c.restricted  # requested labels come first; dropping the rest drops those items
    settings = provenance(normalize=normalize, zero_division=zero_division, n=c.n)
    if normalize is None:
        return ConfusionMatrix(m.copy(), c.labels[: m.shape[0]], None, settings)
    if normalize == "true":
        den = np.broadcast_to(m.sum(axis=1, keepdims=True), m.shape)
    elif normalize == "pred":
        den = np.broadcast_to(m.sum(axis=0, keepdims=True), m.shape)
    else:
        den = np.full(m.shape, m.sum())
    return ConfusionMatrix(
        divide(m, den, zero_division), c.labels[: m.shape[0]], normalize, settings
    )
