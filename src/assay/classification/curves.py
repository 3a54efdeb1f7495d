"""Classification from scores: ROC and precision–recall curves, ROC AUC, average precision and
interpolated precision, for one class (``pos_label``) against the rest.

``y_true`` holds at most two labels; ``pos_label`` defaults to ``True`` for booleans and ``1``
for {0, 1} / {-1, 1} labels (other labels need it). Scores are finite numbers; tied scores
enter the curves together (one point per distinct score).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._options import choice, flag, number
from .._result import Result, provenance
from ..errors import EmptyInputError, InputError, MetricError
from ..metrics.labels import as_labels, kind, py, unique
from ..metrics.registry import FROM_SIGNATURE, Param, Peer, anything, measure
from .measures import Label

__all__ = [
    "InterpolatedPrecision",
    "PrecisionRecallCurve",
    "RocCurve",
    "average_precision",
    "interpolated_precision",
    "pr_curve",
    "roc_auc",
    "roc_curve",
]

#: What a score-based measure is when it is undefined (besides a number in [0, 1]).
Undefined = Literal["nan", "error"]


def _undefined_option(value: Any) -> float | str:
    """``"nan"``, ``"error"`` or a number in [0, 1]."""
    if isinstance(value, str):
        return str(choice(value, Undefined, "undefined", error=MetricError))
    try:
        return number(value, "undefined", low=0, high=1, error=MetricError)
    except MetricError:
        raise MetricError(
            f"undefined must be 'nan', 'error' or a number in [0, 1]; got {value!r}",
            option="undefined",
        ) from None


_POS_LABEL = Param(
    "pos_label",
    None,
    anything,
    "the positive class (default True / 1 for boolean, {0, 1} or {-1, 1} labels)",
)
_UNDEFINED = Param(
    "undefined",
    FROM_SIGNATURE,
    _undefined_option,
    "value when undefined (one class only): 'nan', 'error' (raise) or a number in [0, 1]",
)
_scores_measure = functools.partial(
    measure, family="classification", input="scores", params=(_POS_LABEL, _UNDEFINED)
)


# ---------------------------------------------------------------- input and counts


def _default_pos_label(t: np.ndarray, uniq: np.ndarray) -> Any:
    if t.dtype.kind == "b":
        return True
    if kind(t) == "num" and set(uniq.tolist()) <= {-1, 0, 1}:
        return 1
    raise MetricError(
        "pos_label is required unless y_true holds {0, 1} or {-1, 1}", option="pos_label"
    )


def _scores(scores: ArrayLike, n: int) -> np.ndarray:
    s = np.asarray(scores)
    if s.ndim != 1:
        raise InputError(f"scores must be 1-D, got shape {s.shape}")
    if s.dtype.kind not in "biuf":
        raise InputError(f"scores must be numbers, got {s.dtype}")
    s = s.astype(np.float64)
    if n != s.shape[0]:
        raise InputError(f"y_true has {n} items but scores has {s.shape[0]}")
    if n == 0:
        raise EmptyInputError("no items to evaluate")
    if not np.isfinite(s).all():
        raise InputError(
            f"scores hold NaN or infinite values (item {int(np.flatnonzero(~np.isfinite(s))[0])})"
        )
    return s


def scores_pair(
    y_true: ArrayLike, scores: ArrayLike, pos_label: Any
) -> tuple[np.ndarray, np.ndarray, Any]:
    """(is positive, scores, the positive label) of checked binary labels and scores."""
    t = as_labels(y_true, "y_true")
    s = _scores(scores, t.shape[0])
    uniq, _ = unique(t, "y_true")
    if uniq.shape[0] > 2:
        raise InputError(
            f"y_true holds {uniq.shape[0]} labels; curves need binary labels "
            "(compare one class against the rest: y_true == label)"
        )
    if pos_label is None:
        pos_label = _default_pos_label(t, uniq)
    try:
        y = np.asarray(t == pos_label, dtype=bool)
    except (TypeError, ValueError):  # pragma: no cover
        y = np.zeros(0, dtype=bool)
    if y.shape != t.shape:
        raise MetricError(
            f"pos_label={pos_label!r} cannot be compared with the labels", option="pos_label"
        )
    if uniq.shape[0] == 2 and not y.any():
        raise MetricError(f"pos_label={pos_label!r} is not one of the labels", option="pos_label")
    return y, s, py(pos_label)


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


def _undefined(undefined: float | str, what: str) -> float:
    if undefined == "error":
        raise InputError(what)
    return math.nan if undefined == "nan" else float(undefined)


# ---------------------------------------------------------------- curves


class _Columns(Result):
    """A curve: arrays of equal meaning, unpacked like the tuple it once was."""

    __slots__ = ()
    _columns: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[np.ndarray]:
        return (getattr(self, name) for name in self._columns)

    def __getitem__(self, index: int) -> np.ndarray:
        return tuple(self)[index]

    def __len__(self) -> int:
        return len(self._columns)


@dataclass(frozen=True, repr=False, eq=False)
class RocCurve(_Columns):
    """``fpr``, ``tpr`` and ``thresholds`` (decreasing, the first +inf); unpacks as
    ``fpr, tpr, thresholds = roc_curve(...)``. ``records()``: one row per point.

    Parameters
    ----------
    fpr, tpr
        The false and the true positive rate at each threshold.
    thresholds
        The score thresholds, decreasing (the first +inf: the point (0, 0)).
    provenance
        The settings that produced it.

    Examples
    --------
    >>> from assay.classification import roc_curve
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> thresholds.tolist()
    [inf, 0.8, 0.4, 0.35, 0.1]
    >>> roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).records()[1]
    {'threshold': 0.8, 'fpr': 0.0, 'tpr': 0.5}
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    _columns = ("fpr", "tpr", "thresholds")

    def records(self) -> list[dict[str, Any]]:
        return [
            {"threshold": t, "fpr": f, "tpr": r}
            for t, f, r in zip(
                self.thresholds.tolist(), self.fpr.tolist(), self.tpr.tolist(), strict=True
            )
        ]


@dataclass(frozen=True, repr=False, eq=False)
class PrecisionRecallCurve(_Columns):
    """``precision``, ``recall`` and ``thresholds`` (increasing; the last point, precision 1
    and recall 0, has none); unpacks as ``precision, recall, thresholds = pr_curve(...)``.
    ``records()``: one row per point (``threshold`` None for the last).

    Parameters
    ----------
    precision, recall
        The precision and the recall at each threshold, then the final point (1, 0).
    thresholds
        The score thresholds, increasing (one fewer than the points).
    provenance
        The settings that produced it.

    Examples
    --------
    >>> from assay.classification import pr_curve
    >>> precision, recall, thresholds = pr_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision.round(4).tolist(), thresholds.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [0.1, 0.35, 0.4, 0.8])
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    _columns = ("precision", "recall", "thresholds")

    def records(self) -> list[dict[str, Any]]:
        thresholds = [*self.thresholds.tolist(), None]
        return [
            {"threshold": t, "precision": p, "recall": r}
            for t, p, r in zip(
                thresholds, self.precision.tolist(), self.recall.tolist(), strict=True
            )
        ]


def roc_curve(
    y_true: ArrayLike,
    scores: ArrayLike,
    *,
    pos_label: Label | None = None,
    drop_intermediate: bool = False,
) -> RocCurve:
    """ROC curve: ``fpr, tpr, thresholds`` with thresholds decreasing, the first +inf (the point
    (0, 0)), then one point per distinct score (scikit-learn's ``roc_curve`` with
    ``drop_intermediate=False``; ``drop_intermediate=True`` drops collinear points as
    scikit-learn's default does). ``pos_label`` defaults to 1 for {0, 1} / {-1, 1} labels.
    Without negatives fpr is NaN, without positives tpr is NaN (as scikit-learn).

    Parameters
    ----------
    y_true
        The true label of each item (two classes).
    scores
        The score of the positive class for each item.
    pos_label, drop_intermediate
        The positive class; whether collinear points are dropped.

    Returns
    -------
    RocCurve
        ``fpr``, ``tpr`` and ``thresholds``.

    Examples
    --------
    >>> from assay.classification import roc_curve
    >>> curve = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> curve.fpr.tolist(), curve.tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    drop_intermediate = flag(drop_intermediate, "drop_intermediate", error=MetricError)
    y, s, pos = scores_pair(y_true, scores, pos_label)
    tps, fps, thr = _threshold_counts(y, s)
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    tps = np.r_[0, tps].astype(np.float64)
    fps = np.r_[0, fps].astype(np.float64)
    thr = np.r_[np.inf, thr]
    f = fps / fps[-1] if fps[-1] > 0 else np.full(fps.shape, np.nan)
    t = tps / tps[-1] if tps[-1] > 0 else np.full(tps.shape, np.nan)
    settings = provenance(pos_label=pos, drop_intermediate=drop_intermediate, n=len(y))
    return RocCurve(f, t, thr, settings)


def pr_curve(
    y_true: ArrayLike, scores: ArrayLike, *, pos_label: Label | None = None
) -> PrecisionRecallCurve:
    """Precision–recall curve: ``precision, recall, thresholds`` with thresholds increasing
    (one per distinct score) and a final point precision 1, recall 0 without a threshold
    (scikit-learn's ``precision_recall_curve``, ``drop_intermediate=False``). Without positives
    recall is NaN (scikit-learn sets it to 1).

    Parameters
    ----------
    y_true
        The true label of each item (two classes).
    scores
        The score of the positive class for each item.
    pos_label
        The positive class.

    Returns
    -------
    PrecisionRecallCurve
        ``precision``, ``recall`` and ``thresholds``.

    Examples
    --------
    >>> from assay.classification import pr_curve
    >>> curve = pr_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> curve.recall.tolist()
    [1.0, 1.0, 0.5, 0.5, 0.0]
    """
    y, s, pos = scores_pair(y_true, scores, pos_label)
    tps, fps, thr = _threshold_counts(y, s)
    prec = tps / (tps + fps)
    rec = tps / tps[-1] if tps[-1] > 0 else np.full(tps.shape, np.nan)
    return PrecisionRecallCurve(
        np.r_[prec[::-1], 1.0],
        np.r_[rec[::-1], 0.0],
        thr[::-1].copy(),
        provenance(pos_label=pos, n=len(y)),
    )


# ---------------------------------------------------------------- scalar measures


@_scores_measure(
    aliases=("auc", "roc_auc_score"),
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.roc_auc_score",
            "A single class raises an error there; assay gives NaN by default (undefined='error' "
            "raises).",
        ),
    ),
)
def roc_auc(
    y_true: ArrayLike,
    scores: ArrayLike,
    *,
    pos_label: Label | None = None,
    undefined: float | str = "nan",
) -> float:
    """Area under the ROC curve, computed as the Mann–Whitney U statistic / (P·N): the
    probability that a random positive scores above a random negative, ties counting ½ (equal
    to the trapezoidal area under the full curve, scikit-learn's ``roc_auc_score``). Undefined
    when y_true holds one class only: ``undefined`` = ``"nan"`` (default), ``"error"`` (raise
    InputError, as scikit-learn) or a number in [0, 1].

    Reference: Hanley & McNeil (1982), "The meaning and use of the area under a receiver
    operating characteristic (ROC) curve", Radiology 143(1); Fawcett (2006), "An introduction to
    ROC analysis", Pattern Recognition Letters 27(8).

    Parameters
    ----------
    y_true
        The true label of each item (two classes).
    scores
        The score of the positive class for each item (higher: more likely positive).
    pos_label, undefined
        The positive class; the value when undefined.

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.classification import roc_auc
    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    y, s, _ = scores_pair(y_true, scores, pos_label)
    n_pos = int(y.sum())
    n_neg: int = y.shape[0] - n_pos
    if n_pos == 0 or n_neg == 0:
        return _undefined(undefined, "ROC AUC is undefined: y_true holds one class only")
    _, inv, cnt = np.unique(s, return_inverse=True, return_counts=True)
    upper = np.cumsum(cnt)
    mid_rank = upper - (cnt - 1) / 2.0  # average 1-based rank of each distinct score
    rank_sum = float(mid_rank[inv][y].sum())
    u = rank_sum - n_pos * (n_pos + 1) / 2.0
    return u / (n_pos * n_neg)


@_scores_measure(
    aliases=("ap",),
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.average_precision_score",
            "Without positives it gives 0; assay gives NaN by default (undefined=0 gives 0).",
        ),
    ),
)
def average_precision(
    y_true: ArrayLike,
    scores: ArrayLike,
    *,
    pos_label: Label | None = None,
    undefined: float | str = "nan",
) -> float:
    """Average precision Σ_k (R_k - R_{k-1}) · P_k over the distinct score thresholds (the step
    integral of the PR curve without interpolation, scikit-learn's
    ``average_precision_score``; tied items enter together). Undefined without positives:
    ``undefined`` = ``"nan"`` (default), ``"error"`` or a number in [0, 1] (scikit-learn
    gives 0).

    Reference: Manning, Raghavan & Schütze (2008), Introduction to Information Retrieval, §8.4.

    Parameters
    ----------
    y_true
        The true label of each item (two classes).
    scores
        The score of the positive class for each item.
    pos_label, undefined
        The positive class; the value when undefined.

    Returns
    -------
    float

    Examples
    --------
    >>> from assay.classification import average_precision
    >>> round(average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    y, s, _ = scores_pair(y_true, scores, pos_label)
    tps, fps, _ = _threshold_counts(y, s)
    if tps[-1] == 0:
        return _undefined(undefined, "average precision is undefined: no positive item")
    prec = tps / (tps + fps)
    rec = tps / tps[-1]
    return float(np.sum(np.diff(rec, prepend=0.0) * prec))


# ---------------------------------------------------------------- interpolated precision


@dataclass(frozen=True, repr=False, eq=False)
class InterpolatedPrecision(Result):
    """Interpolated precision at recall ``levels`` and its mean (the 11-point average when
    levels are 0.0, 0.1, ..., 1.0); ``float()`` gives the mean. ``records()``: one row per
    level.

    Parameters
    ----------
    levels
        The recall levels, in [0, 1].
    precision
        The interpolated precision at each level.
    mean
        Their mean.
    provenance
        The settings that produced it.

    Examples
    --------
    >>> from assay.classification import interpolated_precision
    >>> ip = interpolated_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], levels=5)
    >>> ip.records()[0], round(float(ip), 4)
    ({'recall': 0.0, 'precision': 1.0}, 0.8667)
    """

    levels: np.ndarray
    precision: np.ndarray
    mean: float
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __float__(self) -> float:
        return self.mean

    def records(self) -> list[dict[str, Any]]:
        return [
            {"recall": lv, "precision": v}
            for lv, v in zip(self.levels.tolist(), self.precision.tolist(), strict=True)
        ]


def recall_levels(levels: Any) -> np.ndarray:
    """Recall levels: a count >= 2 of equally spaced levels from 0 to 1 (level i is
    i/(levels-1), so that recall 3/10 meets level 0.3 exactly), or levels in [0, 1]."""
    if isinstance(levels, int | np.integer) and not isinstance(levels, bool):
        if levels < 2:
            raise MetricError(f"levels must be >= 2, got {levels}", option="levels")
        return np.arange(int(levels)) / (int(levels) - 1)
    try:
        lv = np.asarray(levels, dtype=np.float64)
    except (TypeError, ValueError):
        lv = np.zeros(0)
    if lv.ndim != 1 or lv.shape[0] == 0 or not ((lv >= 0) & (lv <= 1)).all():
        raise MetricError(
            "levels must be a count >= 2 or a sequence of recall levels in [0, 1]",
            option="levels",
        )
    return lv


def interpolated_precision(
    y_true: ArrayLike,
    scores: ArrayLike,
    *,
    levels: int | Sequence[float] = 11,
    pos_label: Label | None = None,
) -> InterpolatedPrecision:
    """Interpolated precision (Manning, Raghavan & Schütze 2008, §8.4): at recall level r, the
    highest precision at any point of the PR curve whose recall is >= r; 0 if no point reaches
    r (trec_eval). ``levels`` is a number of equally spaced levels from 0 to 1 (11: 0.0, 0.1,
    ..., 1.0; level i is i/(levels-1), computed so that recall 3/10 meets level 0.3 exactly) or
    a sequence of levels in [0, 1]. The curve has one point per distinct score (tied items enter
    together), without scikit-learn's added point (recall 0, precision 1). Without positives
    every value is NaN.

    Parameters
    ----------
    y_true
        The true label of each item (two classes).
    scores
        The score of the positive class for each item.
    levels
        A number (>= 2) of equally spaced recall levels from 0 to 1, or the levels.
    pos_label
        The positive class.

    Returns
    -------
    InterpolatedPrecision
        ``levels``, ``precision`` at each level and their ``mean``.

    Examples
    --------
    >>> from assay.classification import interpolated_precision
    >>> ip = interpolated_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], levels=5)
    >>> ip.levels.tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> ip.precision.round(4).tolist()
    [1.0, 1.0, 1.0, 0.6667, 0.6667]
    >>> round(interpolated_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).mean, 4)
    0.8485
    """
    lv = recall_levels(levels)
    y, s, pos = scores_pair(y_true, scores, pos_label)
    settings = provenance(levels=lv.tolist(), pos_label=pos, n=len(y))
    tps, fps, _ = _threshold_counts(y, s)
    if tps[-1] == 0:
        return InterpolatedPrecision(lv, np.full(lv.shape, np.nan), math.nan, settings)
    prec = tps / (tps + fps)
    rec = tps / tps[-1]  # non-decreasing along the curve
    suffix_max = np.maximum.accumulate(prec[::-1])[::-1]
    idx = np.searchsorted(rec, lv, side="left")
    vals = np.where(idx < rec.shape[0], suffix_max[np.minimum(idx, rec.shape[0] - 1)], 0.0)
    return InterpolatedPrecision(lv, vals, float(vals.mean()), settings)
