"""One call for what ``assay classify`` prints and draws: :func:`evaluate` gives a
:class:`ClassificationEvaluation`, whose :meth:`~ClassificationEvaluation.report` is the
table the CLI prints (every measure, or only the rows of one ``average``, and the confusion
matrix) and whose :meth:`~ClassificationEvaluation.document` is its ``--report`` page
(confusion-matrix heatmap, ROC and precision-recall curves of the positive class's scores,
the F1-vs-MCC scatter)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from numpy.typing import ArrayLike

from .._options import Average, ZeroDivision, choice
from .._result import Result, provenance
from ..errors import MetricError
from ..report.reported import Reported
from .curves import PrecisionRecallCurve, RocCurve, pr_curve, roc_curve
from .matrix import ConfusionMatrix, confusion_matrix
from .measures import Label
from .options import Degenerate
from .summary import ClassificationReport, classification_report, simulate_f1_mcc

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["CONFUSION_SHOWN", "ClassificationEvaluation", "evaluate"]

#: Most classes whose confusion matrix is shown and saved: a table of k x k cells is
#: unreadable well before this, and formatting 4096 x 4096 of them takes minutes.
CONFUSION_SHOWN = 100
#: The F1-vs-MCC scatter of the report page covers every binary confusion matrix of this many
#: items.
SCATTER_ITEMS = 100

_AVERAGE_SUFFIXES = ("_micro", "_macro", "_weighted")


@dataclass(frozen=True, repr=False, eq=False)
class ClassificationEvaluation(Reported, Result):
    """Every classification measure of a labelling (``measures``), its confusion matrix and,
    with scores, the positive class's ROC and precision-recall curves. ``records()`` are the
    rows shown: every row, or with ``average`` only the rows of that average (``"binary"``:
    the positive class's rows) and the rows without an average. ``notes`` are what the CLI
    prints as warnings (a confusion matrix too large to show).

    Parameters
    ----------
    measures
        Every measure (:func:`~assay.classification.classification_report`).
    confusion
        The confusion matrix.
    average
        The average whose rows are shown (``None``: every row).
    pos_label
        The positive class.
    roc, pr
        The ROC and precision-recall curves of the positive class (with scores).
    notes
        Warnings for the CLI to print.
    provenance
        The options.

    Examples
    --------
    >>> from assay import classification
    >>> r = classification.evaluate([1, 0, 1, 1], [1, 0, 0, 1], [0.9, 0.2, 0.4, 0.7], pos_label=1)
    >>> r.confusion.matrix.tolist(), r.roc is not None, r.notes
    ([[1, 0], [1, 2]], True, ())
    """

    measures: ClassificationReport
    confusion: ConfusionMatrix
    average: Average | None = None
    pos_label: Label | None = None
    roc: RocCurve | None = None
    pr: PrecisionRecallCurve | None = None
    notes: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    family = "classification"

    @property
    def confusion_shown(self) -> bool:
        """Whether the confusion matrix is shown (at most :data:`CONFUSION_SHOWN` classes)."""
        return len(self.confusion.labels) <= CONFUSION_SHOWN

    def records(self) -> list[dict[str, Any]]:
        rows = self.measures.records()
        if self.average is None:
            return rows
        out = []
        for r in rows:
            m = str(r["metric"])
            if m.endswith(_AVERAGE_SUFFIXES) and not m.endswith(f"_{self.average}"):
                continue
            if self.average == "binary" and "label" in r and r["label"] != self.pos_label:
                continue
            out.append(r)
        return out

    def report(self) -> Report:
        from .document import confusion_table, labelled_report

        settings = self.measures.settings
        caption = (
            f"n={self.measures.n}  zero_division={settings.get('zero_division')}  "
            f"mcc degenerate={settings.get('degenerate')}"
        )
        shown = labelled_report(self.records(), caption=caption, settings=settings)
        if not self.confusion_shown:
            return shown
        cm = self.confusion
        matrix = {"labels": cm.labels.tolist(), "matrix": cm.matrix.tolist()}
        return replace(
            shown,
            more=[confusion_table(cm.labels.tolist(), cm.matrix)],
            document={**shown.document, "confusion_matrix": matrix},
        )

    def document(self) -> Document:
        from .document import classification_document

        cm = self.confusion
        return classification_document(
            self.report(),
            cm.labels.tolist(),
            cm.matrix,
            roc=self.roc,
            pr=self.pr,
            positive=self.pos_label,
            f1mcc=simulate_f1_mcc(n=SCATTER_ITEMS),
        )

    def __repr__(self) -> str:
        m = self.measures
        macro = m.averages.get("macro", {}).get("f", float("nan"))
        return (
            f"ClassificationEvaluation(n={m.n}, classes={len(self.confusion.labels)}, "
            f"accuracy={m.accuracy:.4g}, {m.f_name}_macro={macro:.4g}, mcc={m.mcc:.4g}, "
            f"cohen_kappa={m.cohen_kappa:.4g}, average={self.average!r}, "
            f"pos_label={self.pos_label!r}, records={len(self.records())})"
        )


def evaluate(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    scores: ArrayLike | None = None,
    *,
    pos_label: Label | None = None,
    average: Average | None = None,
    beta: float = 1.0,
    zero_division: ZeroDivision = 0,
    degenerate: Degenerate = "zero",
) -> ClassificationEvaluation:
    """Every classification measure of ``y_pred`` against ``y_true``, as ``assay classify``
    prints it and draws its ``--report`` page.

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned, the same length).
    scores
        The score of the ``pos_label`` class for each item (optional): adds ROC AUC, average
        precision and interpolated precision, and the ROC and precision-recall curves.
    pos_label
        The positive class: its binary measures (specificity, NPV, rates, ...) and the class
        ``scores`` are for.
    average
        Show only the rows of this average (``"binary"``: only the ``pos_label`` class's
        rows); ``None``: per-class rows and the micro, macro and weighted averages.
    beta, zero_division, degenerate
        As in :func:`~assay.classification.classification_report`.

    Returns
    -------
    ClassificationEvaluation
        ``report()`` the table, ``document()`` and ``html(title=...)`` the report page.

    Examples
    --------
    >>> from assay import classification
    >>> r = classification.evaluate(["a", "b", "a", "b"], ["a", "b", "b", "b"], average="macro")
    >>> [(row["metric"], row["value"]) for row in r.records()][:2]
    [('precision', 1.0), ('recall', 0.5)]
    >>> round(r.measures.accuracy, 2)
    0.75
    """
    if average is not None:
        average = choice(average, Average, "average", error=MetricError)
    if average == "binary" and pos_label is None:
        raise MetricError('average="binary" needs pos_label', option="average")
    measured = classification_report(
        y_true,
        y_pred,
        scores=scores,
        pos_label=pos_label,
        beta=beta,
        zero_division=zero_division,
        degenerate=degenerate,
    )
    cm = confusion_matrix(y_true, y_pred)
    roc = pr = None
    if scores is not None:
        # The positive class against the rest, as the measures take it: with three classes
        # or more the curves refused the labels, with advice only Python could follow.
        is_positive = [label == pos_label for label in _labels(y_true)]
        roc = roc_curve(is_positive, scores, pos_label=True)
        pr = pr_curve(is_positive, scores, pos_label=True)
    notes: tuple[str, ...] = ()
    if len(cm.labels) > CONFUSION_SHOWN:
        notes = (
            f"the confusion matrix of {len(cm.labels)} classes is not shown (more than "
            f"{CONFUSION_SHOWN}); classification.confusion_matrix() gives it",
        )
    settings = provenance(measure="evaluate", average=average, pos_label=pos_label)
    return ClassificationEvaluation(measured, cm, average, pos_label, roc, pr, notes, settings)


def _labels(values: Any) -> list[Any]:
    """The labels as a list (a NumPy array's items as Python values)."""
    return values.tolist() if hasattr(values, "tolist") else list(values)
