"""What ``assay classify`` shows of a classification: the table of labelled measures
(:func:`labelled_report`), the confusion matrix as a table (:func:`confusion_table`), and the
report page (:func:`classification_document`: the confusion-matrix heatmap, ROC and
precision-recall curves of the positive class's scores, and the F1-vs-MCC scatter of every
binary confusion matrix, :func:`f1_mcc_scatter`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..report.document import Document, section
from ..report.output import Report
from ..report.sections_tasks import heatmap, tables_document
from ..report.table import Column, DisplayTable
from ..report.values import short
from .measures import Label

if TYPE_CHECKING:
    from .curves import PrecisionRecallCurve, RocCurve
    from .summary import F1MCCSimulation

__all__ = [
    "GRID",
    "classification_document",
    "confusion_table",
    "f1_mcc_scatter",
    "labelled_report",
]

#: The F1-vs-MCC scatter draws one point per cell of a grid this fine (per unit of each axis).
GRID = 200


def labelled_report(
    records: Sequence[Mapping[str, object]],
    *,
    caption: str = "",
    settings: Mapping[str, object] | None = None,
) -> Report:
    """The table of labelled measures: rows ``{metric, value[, label]}`` (a per-class measure
    names its class in ``label``); JSON adds the ``settings``.

    Parameters
    ----------
    records
        The rows, each with ``metric`` and ``value`` (and ``label`` for a per-class value).
    caption
        The table's caption.
    settings
        The options, written with the JSON output.

    Returns
    -------
    assay.report.output.Report
        The table (columns metric, label, value) and the records.

    Examples
    --------
    >>> from assay.classification import labelled_report
    >>> rows = [{"metric": "accuracy", "value": 0.75}]
    >>> rows.append({"metric": "recall", "label": "a", "value": 0.5})
    >>> rep = labelled_report(rows, caption="n=4")
    >>> rep.columns, rep.table.rows
    (('metric', 'label', 'value'), [['accuracy', '', '0.7500'], ['recall', 'a', '0.5000']])
    """
    table = DisplayTable(
        [
            Column("metric", latex="Metric"),
            Column("label", latex="Label"),
            Column("value", align="right", latex="Value"),
        ],
        [[str(r["metric"]), str(r.get("label", "")), short(r["value"])] for r in records],
        caption=caption,
    )
    return Report(
        table=table,
        records=list(records),
        columns=("metric", "label", "value"),
        document={"settings": dict(settings or {})},
    )


def confusion_table(labels: Sequence[Label], matrix: np.ndarray) -> DisplayTable:
    """A confusion matrix as a table: rows the true labels, columns the predicted ones.

    Parameters
    ----------
    labels
        The labels, in the order of the matrix's rows and columns.
    matrix
        The K × K matrix (rows true, columns predicted).

    Returns
    -------
    assay.report.table.DisplayTable
        One row per true label, one column per predicted label.

    Examples
    --------
    >>> from assay.classification import confusion_matrix, confusion_table
    >>> cm = confusion_matrix([1, 0, 1, 1], [1, 0, 0, 1])
    >>> table = confusion_table(cm.labels.tolist(), cm.matrix)
    >>> table.title, table.rows
    ('Confusion matrix', [['0', '1', '0'], ['1', '1', '2']])
    """
    names = [str(label) for label in labels]
    columns = [Column("true \\ predicted", latex="True $\\backslash$ predicted", style="bold")]
    columns += [Column(n, align="right") for n in names]
    rows = [[n, *(short(v) for v in row)] for n, row in zip(names, matrix.tolist(), strict=True)]
    return DisplayTable(columns, rows, title="Confusion matrix", pivot="predicted")


def _curve_plot(
    title: str,
    caption: str,
    series: list[dict[str, Any]],
    xlabel: str,
    ylabel: str,
    diagonal: bool,
) -> dict[str, Any]:
    return {
        "kind": "line",
        "title": title,
        "caption": caption,
        "panels": [
            {
                "series": series,
                "xlabel": xlabel,
                "ylabel": ylabel,
                "diagonal": diagonal,
                "xlim": [0, 1],
                "ylim": [0, 1.02],
            }
        ],
        "columns": 1,
        "width": 5.5,
        "panel_height": 4.5,
    }


def _finite_pairs(x: Any, y: Any) -> tuple[list[float], list[float]]:
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    ok = np.isfinite(x) & np.isfinite(y)
    return x[ok].tolist(), y[ok].tolist()


def f1_mcc_scatter(sim: F1MCCSimulation) -> dict[str, Any]:
    """F1 against MCC for every binary confusion matrix of ``sim`` (:func:`simulate_f1_mcc`),
    those with F1 > 0.95 on data with more than 95% positives highlighted. Matrices falling in
    the same cell of a 1/:data:`GRID` grid are drawn as one point."""
    f1, mcc = np.asarray(sim.f1, np.float64), np.asarray(sim.mcc, np.float64)
    ok = np.isfinite(f1) & np.isfinite(mcc)
    hi = ok & (f1 > 0.95) & (np.asarray(sim.prevalence) > 0.95)
    fx, my = np.where(ok, f1, 0.0), np.where(ok, mcc, 0.0)
    cells = np.round(fx * GRID).astype(np.int64) * (4 * GRID) + np.round(my * GRID).astype(np.int64)
    x: list[float] = []
    y: list[float] = []
    mark: list[bool] = []
    for keep, flag in ((ok & ~hi, False), (hi, True)):
        _, first = np.unique(cells[keep], return_index=True)
        x += np.round(f1[keep][first], 4).tolist()
        y += np.round(mcc[keep][first], 4).tolist()
        mark += [flag] * len(first)
    n = sim.provenance.get("n", "")
    return {
        "kind": "scatter",
        "title": f"F1 against MCC for every confusion matrix of n = {n}",
        "caption": f"All {len(sim)} binary confusion matrices of {n} items ({int(ok.sum())} "
        f"with both defined); highlighted: F1 > 0.95 on data with more than 95% positives "
        f"({int(hi.sum())} matrices), whose MCC ranges from {_range(mcc[hi])}: a high F1 "
        "says little when nearly everything is positive (Chicco & Jurman 2020).",
        "panels": [
            {
                "x": x,
                "y": y,
                "highlight": mark,
                "xlabel": "F1",
                "ylabel": "MCC",
                "labels": ["every matrix", "F1 > 0.95, positives > 95%"],
                "legend": "upper left",
            }
        ],
        "columns": 1,
        "width": 6.0,
        "panel_height": 4.5,
    }


def _range(values: np.ndarray) -> str:
    if not len(values):
        return "nothing"
    return f"{values.min():.2f} to {values.max():.2f}"


def classification_document(
    report: Report,
    labels: Sequence[Label],
    matrix: np.ndarray,
    *,
    roc: RocCurve | None = None,
    pr: PrecisionRecallCurve | None = None,
    positive: Label | None = None,
    f1mcc: F1MCCSimulation | None = None,
) -> Document:
    """The report page of a classification: the measures and the confusion matrix (tables and
    heatmap), ROC and precision-recall curves of the ``positive`` class's scores, and the
    F1-vs-MCC scatter.

    Parameters
    ----------
    report
        The tables (:meth:`ClassificationEvaluation.report
        <assay.classification.ClassificationEvaluation.report>`).
    labels, matrix
        The confusion matrix's labels and its K × K counts (rows true).
    roc, pr, positive
        The curves of the ``positive`` class's scores (drawn when both are given).
    f1mcc
        The F1-vs-MCC simulation to draw (:func:`simulate_f1_mcc`).

    Returns
    -------
    assay.report.document.Document
        The page: its title, records and sections.

    Examples
    --------
    >>> from assay import classification
    >>> r = classification.evaluate([1, 0, 1, 1], [1, 0, 0, 1], [0.9, 0.2, 0.4, 0.7], pos_label=1)
    >>> cm = r.confusion
    >>> page = classification.classification_document(
    ...     r.report(), cm.labels.tolist(), cm.matrix, roc=r.roc, pr=r.pr, positive=1
    ... )
    >>> [s["title"] for s in page["sections"]]
    ['Results', 'Confusion matrix', 'Score curves of 1']
    """
    matrix_plot = heatmap(
        "Confusion matrix",
        labels,
        labels,
        matrix,
        xlabel="predicted",
        ylabel="true",
        caption="Items by true (rows) and predicted (columns) label.",
    )
    sections = [section("Confusion matrix", matrix_plot)]
    if roc is not None and pr is not None:
        sections.append(_score_curves(roc, pr, positive))
    if f1mcc is not None:
        sections.append(section("F1 and MCC", f1_mcc_scatter(f1mcc)))
    return tables_document("Classification", "classification", report, sections=sections)


def _score_curves(
    roc: RocCurve, pr: PrecisionRecallCurve, positive: Label | None
) -> dict[str, Any]:
    fpr, tpr = _finite_pairs(roc.fpr, roc.tpr)
    recall, precision = _finite_pairs(pr.recall, pr.precision)
    roc_plot = _curve_plot(
        "ROC curve",
        f"True against false positive rate of {positive} as the threshold on its score "
        "falls; dashed: chance.",
        [{"name": "", "x": fpr, "y": tpr}],
        "false positive rate",
        "true positive rate",
        True,
    )
    pr_plot = _curve_plot(
        "Precision-recall curve",
        f"Precision against recall of {positive} as the threshold on its score falls.",
        [{"name": "", "x": recall, "y": precision, "drawstyle": "steps-post"}],
        "recall",
        "precision",
        False,
    )
    return section(f"Score curves of {positive}", roc_plot, pr_plot)
