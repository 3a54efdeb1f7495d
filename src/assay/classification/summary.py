"""The classification report (every classification measure at once) and the F1-versus-MCC
simulation over every binary confusion matrix."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np
from numpy.typing import ArrayLike

from .._options import ZeroDivision, choice, integer, number
from .._result import Result, provenance
from ..agreement import cohen_kappa
from ..errors import MetricError
from ..metrics.label_sets import catch_label_warning, quiet
from ..metrics.labels import Counts, average_values, check_pair, counts, divide, kind, py
from ..metrics.labels import zero_division_value as _zd
from .curves import (
    InterpolatedPrecision,
    average_precision,
    interpolated_precision,
    recall_levels,
    roc_auc,
)
from .measures import Label
from .options import Degenerate
from .overall import balanced_accuracy, mcc_from_matrix, sba

__all__ = [
    "ClassMetrics",
    "ClassificationReport",
    "F1MCCSimulation",
    "classification_report",
    "simulate_f1_mcc",
]

#: The averages a report can hold.
ReportAverage = Literal["micro", "macro", "weighted"]


@dataclass(frozen=True)
class ClassMetrics:
    """Per-class values: precision, recall, F-beta and support (number of true items).

    Parameters
    ----------
    label
        The class.
    precision, recall, f
        Its precision, recall and F-beta.
    support
        The number of items whose true label is the class.

    Examples
    --------
    >>> from assay.classification import classification_report
    >>> classification_report(["a", "b", "a", "c"], ["a", "b", "b", "c"])["a"]
    ClassMetrics(label='a', precision=1.0, recall=0.5, f=0.6666666666666666, support=2)
    """

    label: Label
    precision: float
    recall: float
    f: float
    support: int


@dataclass(frozen=True, repr=False, eq=False)
class ClassificationReport(Result):
    """Everything :func:`classification_report` computes. ``averages[name]`` maps
    ``"micro"``, ``"macro"``, ``"weighted"`` to {"precision", "recall", "f"}; ``binary`` holds
    the measures of the ``pos_label`` class against the rest (when given); ``scores`` AUC, AP
    and interpolated precision (when scores were given); ``undefined`` counts the per-class
    values replaced by ``zero_division``; ``warnings`` the label-set warning issued (the two
    label sequences share no label, or differ only in spelling); ``provenance`` the
    options. ``report[label]`` is the :class:`ClassMetrics` of a class.

    Parameters
    ----------
    labels, classes
        The classes reported, and their :class:`ClassMetrics`.
    averages
        ``{average: {"precision", "recall", "f"}}``.
    accuracy, balanced_accuracy, cohen_kappa, mcc, sba
        The measures of the whole labelling.
    n
        The number of items.
    beta
        The β of the F-score.
    pos_label, binary
        The positive class, and its measures against the rest (empty without one).
    scores, interpolated
        ROC AUC and AP, and interpolated precision, of the positive class (with scores).
    undefined
        How many per-class precision, recall and F values were replaced by ``zero_division``.
    warnings
        The label-set warnings issued.
    provenance
        The options.

    Examples
    --------
    >>> from assay.classification import classification_report
    >>> rep = classification_report([1, 0, 1, 1], [1, 0, 0, 1], [0.9, 0.2, 0.4, 0.7], pos_label=1)
    >>> rep.labels, rep.binary["specificity"], rep.scores
    ([0, 1], 1.0, {'roc_auc': 1.0, 'average_precision': 1.0})
    """

    labels: list[Label]
    classes: list[ClassMetrics]
    averages: dict[str, dict[str, float]]
    accuracy: float
    balanced_accuracy: float
    cohen_kappa: float
    mcc: float
    sba: float
    n: int
    beta: float = 1.0
    pos_label: Label | None = None
    binary: dict[str, float] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    interpolated: InterpolatedPrecision | None = None
    undefined: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @property
    def settings(self) -> Mapping[str, Any]:
        """The provenance (the name :class:`~assay.results.Comparison` also keeps)."""
        return self.provenance

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
        return [
            *self._class_rows(),
            *self._average_rows(),
            *self._overall_rows(),
            *self._positive_rows(),
        ]

    def _class_rows(self) -> list[dict[str, Any]]:
        out = []
        for c in self.classes:
            out.append({"metric": "precision", "label": c.label, "value": c.precision})
            out.append({"metric": "recall", "label": c.label, "value": c.recall})
            out.append({"metric": self.f_name, "label": c.label, "value": c.f})
            out.append({"metric": "support", "label": c.label, "value": c.support})
        return out

    def _average_rows(self) -> list[dict[str, Any]]:
        out = []
        for avg, vals in self.averages.items():
            out.append({"metric": f"precision_{avg}", "value": vals["precision"]})
            out.append({"metric": f"recall_{avg}", "value": vals["recall"]})
            out.append({"metric": f"{self.f_name}_{avg}", "value": vals["f"]})
        return out

    def _overall_rows(self) -> list[dict[str, Any]]:
        names = ("accuracy", "balanced_accuracy", "cohen_kappa", "mcc", "sba")
        return [
            *({"metric": name, "value": getattr(self, name)} for name in names),
            {"metric": "n", "value": self.n},
        ]

    def _positive_rows(self) -> list[dict[str, Any]]:
        pos = self.pos_label
        out = [{"metric": k, "label": pos, "value": v} for k, v in self.binary.items()]
        out += [{"metric": k, "label": pos, "value": v} for k, v in self.scores.items()]
        if self.interpolated is not None:
            ip = self.interpolated
            for lv, v in zip(ip.levels, ip.precision, strict=True):
                out.append({"metric": f"iprec_at_recall_{lv:.2f}", "label": pos, "value": float(v)})
            out.append({"metric": "iprec_mean", "label": pos, "value": ip.mean})
        return out


# ---------------------------------------------------------------- the report, step by step


@dataclass(frozen=True)
class _PerClass:
    """Per-class precision, recall and F-beta of the selected classes, with their counts."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f: np.ndarray
    f_den: np.ndarray

    @property
    def support(self) -> np.ndarray:
        return cast(np.ndarray, self.tp + self.fn)


def _per_class(c: Counts, b2: float, zero_division: ZeroDivision) -> _PerClass:
    tp, fp, fn, _ = c.ovr()
    f_num = (1 + b2) * tp.astype(np.float64)
    f_den = f_num + b2 * fn + fp
    return _PerClass(
        tp,
        fp,
        fn,
        divide(tp, tp + fp, zero_division),
        divide(tp, tp + fn, zero_division),
        divide(f_num, f_den, zero_division),
        f_den,
    )


def _averages(
    pc: _PerClass, averages: Sequence[ReportAverage], b2: float, zero_division: ZeroDivision
) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for a in averages:
        if a == "micro":
            stp, sfp, sfn = pc.tp.sum(), pc.fp.sum(), pc.fn.sum()
            num = (1 + b2) * float(stp)

            def ratio(x: float, y: float) -> float:
                return float(divide(np.array([x]), np.array([y]), zero_division)[0])

            out[a] = {
                "precision": ratio(stp, stp + sfp),
                "recall": ratio(stp, stp + sfn),
                "f": ratio(num, num + b2 * sfn + sfp),
            }
        else:
            out[a] = {
                "precision": float(average_values(pc.precision, pc.support, a)),
                "recall": float(average_values(pc.recall, pc.support, a)),
                "f": float(average_values(pc.f, pc.support, a)),
            }
    return out


def _binary(c: Counts, pos_label: Any, b: float, zero_division: ZeroDivision) -> dict[str, float]:
    """The measures of ``pos_label`` against every other class, from the full matrix."""
    hits = np.flatnonzero(c.labels == pos_label)
    if hits.shape[0] != 1:
        raise MetricError(f"pos_label={pos_label!r} is not one of the labels", option="pos_label")
    full = Counts(c.cm, c.labels, np.array([int(hits[0])]))
    tp, fp, fn, tn = (int(x[0]) for x in full.ovr())
    zd = _zd(zero_division)

    def r(num: float, den: float) -> float:
        return num / den if den else zd

    b2 = b * b
    num = (1 + b2) * tp
    return {
        "precision": r(tp, tp + fp),
        "recall": r(tp, tp + fn),
        ("f1" if b == 1 else f"f{b:g}"): r(num, num + b2 * fn + fp),
        "specificity": r(tn, tn + fp),
        "npv": r(tn, tn + fn),
        "tpr": r(tp, tp + fn),
        "fpr": r(fp, fp + tn),
        "tnr": r(tn, tn + fp),
        "fnr": r(fn, fn + tp),
        "jaccard": r(tp, tp + fp + fn),
        "fowlkes_mallows": r(tp, math.sqrt((tp + fp) * (tp + fn))),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
    }


def _score_pos_label(t: np.ndarray, pos_label: Any) -> Any:
    if pos_label is not None:
        return pos_label
    if kind(t) == "num" and set(np.unique(t).tolist()) <= {-1, 0, 1}:
        return 1
    raise MetricError(
        "pos_label is required with scores unless the labels are {0, 1} or {-1, 1}",
        option="pos_label",
    )


def _scored(
    t: np.ndarray, scores: ArrayLike, pos_label: Any, levels: Any
) -> tuple[dict[str, float], InterpolatedPrecision]:
    """ROC AUC, AP and interpolated precision of ``pos_label`` against the rest."""
    y_bin = np.asarray(t == pos_label, dtype=bool)
    values = {
        "roc_auc": roc_auc(y_bin, scores, pos_label=True),
        "average_precision": average_precision(y_bin, scores, pos_label=True),
    }
    return values, interpolated_precision(y_bin, scores, levels=levels, pos_label=True)


def _report_options(
    averages: Sequence[str], beta: Any, zero_division: Any, degenerate: Any, levels: Any
) -> tuple[tuple[ReportAverage, ...], float, ZeroDivision, Degenerate]:
    if isinstance(averages, str):
        averages = (averages,)
    chosen = tuple(choice(a, ReportAverage, "averages", error=MetricError) for a in averages)
    # At most 1e150: past it β² overflows and every F_β is NaN with a NumPy RuntimeWarning.
    b = number(beta, "beta", low=0, low_open=True, high=1e150, error=MetricError)
    zd = choice(zero_division, ZeroDivision, "zero_division", error=MetricError)
    dg = choice(degenerate, Degenerate, "degenerate", error=MetricError)
    recall_levels(levels)
    return chosen, b, zd, dg


def classification_report(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    scores: ArrayLike | None = None,
    *,
    labels: ArrayLike | None = None,
    pos_label: Label | None = None,
    beta: float = 1.0,
    zero_division: ZeroDivision = 0,
    degenerate: Degenerate = "zero",
    averages: Sequence[ReportAverage] = ("micro", "macro", "weighted"),
    levels: int | Sequence[float] = 11,
) -> ClassificationReport:
    """Per-class precision, recall, F-beta and support (classes: ``labels`` or every label
    present, sorted); their micro/macro/weighted ``averages``; accuracy, balanced accuracy,
    Cohen's kappa, MCC (R_K for more than two classes, ``degenerate`` as in
    :func:`~assay.classification.measures.mcc`) and SBA. With ``pos_label``, that class against
    the rest: precision, recall, F, specificity, NPV, TPR/FPR/TNR/FNR, Jaccard, Fowlkes–Mallows.
    With ``scores`` (1-D, the score of ``pos_label``: required unless the labels are {0, 1} /
    {-1, 1}, when it is 1): ROC AUC, average precision and interpolated precision at ``levels``
    for ``pos_label`` against the rest. ``labels`` selects the classes reported and averaged;
    every item counts.

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    scores
        The score of ``pos_label`` for each item (optional).
    labels, pos_label, beta, zero_division, degenerate
        As in the single measures (:mod:`assay.classification.measures`).
    averages
        The averages reported.
    levels
        The recall levels of interpolated precision (a count, or the levels).

    Returns
    -------
    ClassificationReport
        Every value; ``records()`` as rows ``{metric, value[, label]}``.

    Examples
    --------
    >>> from assay.classification import classification_report
    >>> rep = classification_report(["a", "b", "a", "c"], ["a", "b", "b", "c"])
    >>> rep.accuracy, round(rep.averages["macro"]["f"], 4), rep["a"].recall
    (0.75, 0.7778, 0.5)
    """
    chosen, b, zd, dg = _report_options(averages, beta, zero_division, degenerate, levels)
    t, p = check_pair(y_true, y_pred)
    with catch_label_warning() as said:
        c = counts(t, p, labels)
    with quiet():  # the measures below recount the same labels: one warning is enough
        return _report(t, p, c, scores, pos_label, b, zd, dg, chosen, levels, said)


def _report(
    t: np.ndarray,
    p: np.ndarray,
    c: Counts,
    scores: ArrayLike | None,
    pos_label: Any,
    b: float,
    zd: ZeroDivision,
    dg: Degenerate,
    chosen: tuple[ReportAverage, ...],
    levels: Any,
    said: list[str],
) -> ClassificationReport:
    pc = _per_class(c, b * b, zd)
    labs = [py(x) for x in c.labels[c.selected]]
    binary = {} if pos_label is None else _binary(c, pos_label, b, zd)
    score_values: dict[str, float] = {}
    interpolated = None
    if scores is not None:
        pos_label = _score_pos_label(t, pos_label)
        score_values, interpolated = _scored(t, scores, pos_label, levels)
    settings = provenance(zero_division=zd, degenerate=dg, beta=b, pos_label=py(pos_label))
    return ClassificationReport(
        labels=labs,
        classes=[
            ClassMetrics(lab, float(pc.precision[i]), float(pc.recall[i]), float(pc.f[i]), int(s))
            for i, (lab, s) in enumerate(zip(labs, pc.support, strict=True))
        ],
        averages=_averages(pc, chosen, b * b, zd),
        accuracy=float(np.trace(c.cm) / c.n),
        balanced_accuracy=balanced_accuracy(t, p),
        cohen_kappa=float(cohen_kappa(t, p)),
        mcc=mcc_from_matrix(c.cm, dg),
        sba=sba(t, p),
        n=c.n,
        beta=b,
        pos_label=py(pos_label),
        binary=binary,
        scores=score_values,
        interpolated=interpolated,
        undefined={
            "precision": int((pc.tp + pc.fp == 0).sum()),
            "recall": int((pc.tp + pc.fn == 0).sum()),
            "f": int((pc.f_den == 0).sum()),
        },
        warnings=tuple(said),
        provenance=settings,
    )


# ---------------------------------------------------------------- F1 vs MCC


@dataclass(frozen=True, repr=False, eq=False)
class F1MCCSimulation(Result):
    """Columns (NumPy arrays, one row per confusion matrix): tp, fp, tn, fn, f1, mcc and
    prevalence (positives / n). ``records()``: one row per matrix.

    Parameters
    ----------
    tp, fp, tn, fn
        The four counts of each matrix.
    f1, mcc
        Its F1 and MCC (NaN where undefined, by default).
    prevalence
        Its share of positive items, (TP + FN) / n.
    provenance
        The options.

    Examples
    --------
    >>> from assay.classification import simulate_f1_mcc
    >>> sim = simulate_f1_mcc(n=4)
    >>> len(sim), sim.records()[-1]
    (35, {'tp': 4, 'fp': 0, 'tn': 0, 'fn': 0, 'f1': 1.0, 'mcc': nan, 'prevalence': 1.0})
    """

    tp: np.ndarray
    fp: np.ndarray
    tn: np.ndarray
    fn: np.ndarray
    f1: np.ndarray
    mcc: np.ndarray
    prevalence: np.ndarray
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __len__(self) -> int:
        return int(self.tp.shape[0])

    def to_dict(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in ("tp", "fp", "tn", "fn", "f1", "mcc", "prevalence")}

    def records(self) -> list[dict[str, Any]]:
        columns = {k: v.tolist() for k, v in self.to_dict().items()}
        return [dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)]


def _every_matrix(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(tp, fp, tn, fn) of every binary confusion matrix of ``n`` items, in a fixed order:
    (tp, fp) pairs with tp + fp <= n, then tn = 0 .. n - tp - fp for each (fn the rest)."""
    a, b = np.triu_indices(n + 1)  # a <= b
    lengths = n - b + 1
    tp = np.repeat(a, lengths)
    fp = np.repeat(b - a, lengths)
    starts = np.cumsum(lengths) - lengths
    tn = np.arange(tp.shape[0]) - np.repeat(starts, lengths)
    return tp, fp, tn, n - tp - fp - tn


def _f1_mcc(
    tp: np.ndarray, fp: np.ndarray, tn: np.ndarray, fn: np.ndarray, zd: float, degenerate: str
) -> tuple[np.ndarray, np.ndarray]:
    tpf, fpf, tnf, fnf = (x.astype(np.float64) for x in (tp, fp, tn, fn))
    f1_den = 2 * tpf + fpf + fnf
    f1v = np.divide(2 * tpf, f1_den, out=np.full(tpf.shape, zd), where=f1_den > 0)
    den = (tpf + fpf) * (tpf + fnf) * (tnf + fpf) * (tnf + fnf)
    mccv = np.divide(tpf * tnf - fpf * fnf, np.sqrt(den), out=np.zeros_like(tpf), where=den > 0)
    bad = den == 0
    if degenerate == "nan":
        mccv[bad] = np.nan
    elif degenerate == "limit":
        single = (np.stack([tp, fp, tn, fn]) > 0).sum(axis=0) == 1
        mccv[bad & single & ((tp > 0) | (tn > 0))] = 1.0
        mccv[bad & single & ((fp > 0) | (fn > 0))] = -1.0
    return f1v, mccv


def simulate_f1_mcc(
    *,
    n: int = 100,
    seed: int = 0,
    sample: int | None = None,
    zero_division: ZeroDivision = "nan",
    degenerate: Degenerate = "nan",
) -> F1MCCSimulation:
    """Every binary confusion matrix (TP, FP, TN, FN ≥ 0, summing to ``n``: C(n+3, 3) of
    them) with its F1, MCC and prevalence (TP+FN)/n -- the data behind "F1 looks good, MCC
    says otherwise" (Chicco & Jurman 2020). ``sample``: a seeded random subset of that many
    matrices (without replacement, in enumeration order). Undefined values: F1 when
    TP = FP = FN = 0 (``zero_division``, default NaN) and MCC with a zero row or column
    (``degenerate`` as in :func:`~assay.classification.measures.mcc`, default NaN).

    Parameters
    ----------
    n
        The number of items of every matrix (>= 1).
    seed
        The seed of ``sample``.
    sample
        Keep a random subset of this many matrices; ``None``: every matrix.
    zero_division
        F1 when TP = FP = FN = 0: ``0``, ``1`` or ``"nan"``.
    degenerate
        MCC with a zero denominator: ``"zero"``, ``"limit"`` or ``"nan"``.

    Returns
    -------
    F1MCCSimulation
        One row per matrix: the counts, F1, MCC and prevalence.

    Examples
    --------
    >>> from assay.classification import simulate_f1_mcc
    >>> sim = simulate_f1_mcc(n=10, sample=3, seed=1)
    >>> sim.tp.tolist(), sim.f1.round(4).tolist(), sim.mcc.round(4).tolist()
    ([2, 2, 4], [0.5, 0.3333, 0.5714], [0.2182, -0.6547, -0.4082])
    """
    n = integer(n, "n", minimum=1, error=MetricError)
    seed = integer(seed, "seed", minimum=0, error=MetricError)
    zero_division = choice(zero_division, ZeroDivision, "zero_division", error=MetricError)
    degenerate = choice(degenerate, Degenerate, "degenerate", error=MetricError)
    tp, fp, tn, fn = _every_matrix(n)
    total = tp.shape[0]
    if sample is not None:
        sample = integer(sample, "sample", minimum=1, error=MetricError)
        if sample > total:
            raise MetricError(
                f"sample={sample} exceeds the {total} confusion matrices for n={n}",
                option="sample",
            )
        idx = np.sort(np.random.default_rng(seed).choice(total, size=sample, replace=False))
        tp, fp, tn, fn = tp[idx], fp[idx], tn[idx], fn[idx]
    f1v, mccv = _f1_mcc(tp, fp, tn, fn, _zd(zero_division), degenerate)
    settings = provenance(
        n=n, seed=seed, sample=sample, zero_division=zero_division, degenerate=degenerate
    )
    prevalence = (tp + fn).astype(np.float64) / n
    return F1MCCSimulation(tp, fp, tn, fn, f1v, mccv, prevalence, settings)
