"""Label handling shared by the classification and agreement families: checking label
sequences, factorising them to integer codes once and counting a confusion matrix with one
``np.bincount``.

Labels may be ints, bools, floats or strings (any 1-D sequence or array); int and string
labels cannot be mixed. NaN labels, length mismatches and mixed label types raise
:class:`~assay.errors.InputError`; empty input :class:`~assay.errors.EmptyInputError`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from .._arrays import same_length
from .._options import Average, ZeroDivision, flag
from ..errors import InputError, MetricError
from ..io.limits import MAX_CLASSES, limit
from .label_sets import check_label_sets
from .registry import FROM_SIGNATURE, Param, anything, one_of, optional

__all__ = [
    "AVERAGE",
    "LABELS",
    "POS_LABEL",
    "ZERO_DIVISION",
    "Counts",
    "as_labels",
    "average_values",
    "boolean",
    "check_pair",
    "counts",
    "divide",
    "kind",
    "kind_name",
    "py",
    "unique",
    "zero_division_value",
]


def as_labels(y: Any, name: str) -> np.ndarray:
    """``y`` as a 1-D array of labels (no NaN, a supported dtype)."""
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


def kind(arr: np.ndarray) -> str:
    """``"num"``, ``"str"`` or ``"obj"``: the kind of labels an array holds."""
    k = arr.dtype.kind
    return "num" if k in "biuf" else "str" if k in "US" else "obj"


def kind_name(k: str) -> str:
    return {"num": "numeric", "str": "string", "obj": "object"}[k]


def check_pair(y_true: Any, y_pred: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two aligned, non-empty label arrays of the same kind."""
    t = as_labels(y_true, "y_true")
    p = as_labels(y_pred, "y_pred")
    same_length(("y_true", t), ("y_pred", p), what="items")
    kt, kp = kind(t), kind(p)
    if "obj" not in (kt, kp) and kt != kp:
        raise InputError(f"y_true holds {kind_name(kt)} labels but y_pred holds {kind_name(kp)}")
    return t, p


def unique(values: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values and the inverse codes."""
    try:
        return np.unique(values, return_inverse=True)
    except TypeError as exc:
        raise InputError(f"{what} mix label types that cannot be compared ({exc})") from None


def py(x: Any) -> Any:
    """A NumPy scalar as a plain Python value."""
    return x.item() if isinstance(x, np.generic) else x


@dataclass(frozen=True)
class Counts:
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
        return cast(np.ndarray, self.cm.sum(axis=1))

    @property
    def pred_sum(self) -> np.ndarray:
        return cast(np.ndarray, self.cm.sum(axis=0))

    def ovr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One-vs-rest (tp, fp, fn, tn) of the selected classes."""
        tp = self.tp[self.selected]
        fp = self.pred_sum[self.selected] - tp
        fn = self.true_sum[self.selected] - tp
        tn = self.n - tp - fp - fn
        return tp, fp, fn, tn

    @property
    def restricted(self) -> np.ndarray:
        """The matrix over the requested labels only (items with another label dropped)."""
        k = self.selected.shape[0]
        return self.cm[:k, :k]


def _requested(labels: Any, t: np.ndarray) -> np.ndarray:
    requested = as_labels(labels, "labels")
    if requested.shape[0] == 0:
        raise MetricError("labels must not be empty", option="labels")
    kr, kd = kind(requested), kind(t)
    if "obj" not in (kr, kd) and kr != kd:
        raise InputError(f"labels are {kind_name(kr)} but the data holds {kind_name(kd)} labels")
    return requested


def _order(inv: np.ndarray, n: int, k_all: int, n_requested: int) -> tuple[np.ndarray, np.ndarray]:
    """Class order (requested codes first, then the other present codes) and the selection."""
    if not n_requested:
        order = np.arange(k_all)
        return order, order
    req_codes = inv[2 * n :]
    if np.unique(req_codes).shape[0] != req_codes.shape[0]:
        raise MetricError("labels holds duplicates", option="labels")
    present = np.zeros(k_all, dtype=bool)
    present[inv[: 2 * n]] = True
    present[req_codes] = False
    return np.concatenate([req_codes, np.flatnonzero(present)]), np.arange(req_codes.shape[0])


def counts(
    y_true: Any, y_pred: Any, labels: Any = None, names: tuple[str, str] = ("y_true", "y_pred")
) -> Counts:
    """The confusion counts of two label sequences; ``labels`` puts those classes first and
    selects them. Warns when the sequences share no label or differ only in spelling
    (:func:`~assay.metrics.label_sets.check_label_sets`; ``names`` are theirs)."""
    t, p = check_pair(y_true, y_pred)
    n = t.shape[0]
    requested = None if labels is None else _requested(labels, t)
    pieces = [t, p] if requested is None else [t, p, requested]
    try:
        allv = np.concatenate(pieces)
    except (TypeError, ValueError) as exc:  # pragma: no cover - numpy promotes almost anything
        raise InputError(f"labels of incompatible types: {exc}") from None
    uniq, inv = unique(allv, "y_true, y_pred and labels")
    check_label_sets(uniq, inv, n, names)
    order, selected = _order(inv, n, uniq.shape[0], 0 if requested is None else len(requested))
    k = order.shape[0]
    _check_classes(k)
    perm = np.full(uniq.shape[0], -1, dtype=np.int64)
    perm[order] = np.arange(k)
    ct = perm[inv[:n]]
    cp = perm[inv[n : 2 * n]]
    cm = np.bincount(ct * k + cp, minlength=k * k).reshape(k, k).astype(np.int64)
    return Counts(cm=cm, labels=uniq[order], selected=selected)


def _check_classes(k: int) -> None:
    """Refuse more classes than ASSAY_MAX_CLASSES before the k x k matrix is counted: a
    file of 100 KB with a new label on each line would ask for gigabytes."""
    cap = limit("ASSAY_MAX_CLASSES", MAX_CLASSES)
    if k > cap:
        raise InputError(
            f"{k} distinct labels: a {k} x {k} confusion matrix is more than the {cap} classes "
            "allowed (set ASSAY_MAX_CLASSES to allow more)"
        )


def zero_division_value(zero_division: ZeroDivision) -> float:
    """The float a validated ``zero_division`` stands for."""
    return math.nan if zero_division == "nan" else float(zero_division)


def divide(num: Any, den: Any, zero_division: ZeroDivision) -> np.ndarray:
    """num / den elementwise, ``zero_division`` where den == 0."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out: np.ndarray = np.divide(num, den, out=np.zeros_like(num), where=den != 0)
    out[den == 0] = zero_division_value(zero_division)
    return out


def average_values(
    values: np.ndarray, support: np.ndarray, average: Average | None
) -> float | np.ndarray:
    """Per-class ``values`` combined by ``average`` (NaN values left out of macro/weighted)."""
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


# ---------------------------------------------------------------- shared option declarations


def boolean(what: str) -> Any:
    """True or False (a flag option)."""
    return functools.partial(flag, name=what, error=MetricError)


LABELS = Param(
    "labels",
    None,
    anything,
    "the classes reported or averaged, in this order (every item still counts)",
)
POS_LABEL = Param(
    "pos_label",
    None,
    anything,
    "the positive class of average='binary' (default 1 for numeric labels)",
)
AVERAGE = Param(
    "average",
    FROM_SIGNATURE,
    optional(one_of("average", Average)),
    "binary (the pos_label class), micro (counts summed first), macro (unweighted mean over "
    "classes), weighted (by support), None (one value per class)",
)
ZERO_DIVISION = Param(
    "zero_division",
    FROM_SIGNATURE,
    one_of("zero_division", ZeroDivision),
    "value of a ratio whose denominator is 0: 0, 1 or 'nan'",
)
