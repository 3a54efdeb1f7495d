"""Report documents of the other families: any result's tables (:func:`tables_document`:
tagging's per-type table, generation, regression, ...), and the plots of classification (the
confusion-matrix heatmap, ROC and precision-recall curves, the F1-vs-MCC scatter of every
confusion matrix), clustering (the contingency table) and agreement (the coincidence matrix)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .document import Document, document, section

if TYPE_CHECKING:
    from .output import Report

__all__ = [
    "GRID",
    "MAX_LABELS",
    "any_document",
    "classification_document",
    "contingency_section",
    "crosstab",
    "f1_mcc_scatter",
    "heatmap",
    "tables_document",
]

#: Most labels a heatmap shows on an axis (a larger matrix is left to its table).
MAX_LABELS = 40
#: The F1-vs-MCC scatter draws one point per cell of a grid this fine (per unit of each axis).
GRID = 200


def tables_document(
    title: str, family: str, report: Report, *, sections: Sequence[Mapping[str, Any]] = ()
) -> Document:
    """A result's tables as one section (its records and provenance kept), then ``sections``."""
    provenance = report.document.get("provenance", {})
    if not isinstance(provenance, Mapping):
        provenance = {"provenance": provenance}
    return document(
        title,
        family,
        [section("Results", *report.tables), *sections],
        records=report.records,
        provenance={**provenance, **{k: v for k, v in report.document.items()
                                     if k != "provenance"}},
    )  # fmt: skip


def any_document(result: Any, *, title: str | None = None) -> Document:
    """The document of any assay result: its own (:meth:`~assay.report.Reported.document`:
    a ranking evaluation or comparison with its plots, an LTR experiment, a family's result);
    otherwise its records as a table (every result has ``records()``)."""
    from .reported import Reported

    if isinstance(result, Reported):
        doc = result.document()
    else:
        doc = tables_document(type(result).__name__, "result", _records_report(result))
    return {**doc, "title": title} if title else doc


def _records_report(result: Any) -> Report:
    from .output import Report
    from .table import Column, DisplayTable
    from .values import short

    rows = result.records()
    columns = list(dict.fromkeys(k for r in rows for k in r))
    numeric = {c for c in columns if all(isinstance(r.get(c), int | float) for r in rows)}
    table = DisplayTable(
        [Column(c, align="right" if c in numeric else "left") for c in columns],
        [[short(r.get(c, "")) for c in columns] for r in rows],
        keys=0,
    )
    provenance = dict(getattr(result, "provenance", {}) or {})
    return Report(table, rows, columns, document={"provenance": provenance})


def heatmap(
    title: str, rows: Sequence[Any], cols: Sequence[Any], matrix: Any, *,
    xlabel: str, ylabel: str, caption: str = "",
) -> dict[str, Any] | None:  # fmt: skip
    """A heatmap specification (None when an axis has more than :data:`MAX_LABELS` labels)."""
    if max(len(rows), len(cols)) > MAX_LABELS or not len(rows) or not len(cols):
        return None
    dense = matrix.toarray() if hasattr(matrix, "toarray") else np.asarray(matrix)
    size = max(3.0, min(8.0, 0.45 * max(len(rows), len(cols)) + 2.0))
    return {
        "kind": "heatmap",
        "title": title,
        "caption": caption,
        "panels": [
            {
                "rows": [str(r) for r in rows],
                "cols": [str(c) for c in cols],
                "matrix": np.asarray(dense, dtype=np.float64).tolist(),
                "xlabel": xlabel,
                "ylabel": ylabel,
            }
        ],
        "columns": 1,
        "width": size + 1.5,
        "panel_height": size,
    }


def contingency_section(gold: Sequence[Any], pred: Sequence[Any]) -> dict[str, Any]:
    """The contingency table of two hard clusterings (items aligned): heatmap and table."""
    from .table import Cell, Column, DisplayTable

    rows, cols, counts = crosstab(gold, pred)
    table = DisplayTable(
        [Column("gold \\ pred"), *(Column(c, align="right") for c in cols)],
        [[Cell(r), *(Cell(str(int(v))) for v in counts[i])] for i, r in enumerate(rows)],
        title="Contingency table",
        caption="Items in each gold cluster (rows) and predicted cluster (columns); clusters "
        "are numbered from 0 in the order they first appear in their file.",
    )
    plot = heatmap("Contingency table", rows, cols, counts, xlabel="predicted cluster",
                   ylabel="gold cluster")  # fmt: skip
    return section("Contingency table", plot, table)


def crosstab(gold: Sequence[Any], pred: Sequence[Any]) -> tuple[list[str], list[str], Any]:
    """(gold labels, predicted labels, counts): the contingency table of two labellings."""
    g_names, g = _codes(gold)
    p_names, p = _codes(pred)
    counts = np.zeros((len(g_names), len(p_names)), dtype=np.int64)
    np.add.at(counts, (g, p), 1)
    return g_names, p_names, counts


def _codes(labels: Sequence[Any]) -> tuple[list[str], np.ndarray]:
    """Sorted distinct labels (numbers in numeric order) and each item's index among them."""
    values = np.asarray(labels)
    if values.dtype.kind not in "iuf":
        values = np.asarray([str(x) for x in labels])
    names, codes = np.unique(values, return_inverse=True)
    return [str(n) for n in names.tolist()], codes


# ---------------------------------------------------------------- classification


def _curve_plot(title: str, caption: str, series: list[dict[str, Any]], xlabel: str,
                ylabel: str, diagonal: bool) -> dict[str, Any]:  # fmt: skip
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


def f1_mcc_scatter(sim: Any) -> dict[str, Any]:
    """F1 against MCC for every binary confusion matrix of ``sim`` (:func:`simulate_f1_mcc`),
    those with F1 > 0.95 on data with more than 95% positives highlighted. Matrices falling in
    the same cell of a 1/:data:`GRID` grid are drawn as one point."""
    f1, mcc = np.asarray(sim.f1, np.float64), np.asarray(sim.mcc, np.float64)
    ok = np.isfinite(f1) & np.isfinite(mcc)
    hi = ok & (f1 > 0.95) & (np.asarray(sim.prevalence) > 0.95)
    fx, my = np.where(ok, f1, 0.0), np.where(ok, mcc, 0.0)
    cells = np.round(fx * GRID).astype(np.int64) * (4 * GRID) + np.round(my * GRID).astype(np.int64)
    x, y, mark = [], [], []
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
    report: Report, labels: Sequence[Any], matrix: Any, *, roc: Any = None, pr: Any = None,
    positive: Any = None, f1mcc: Any = None,
) -> Document:  # fmt: skip
    """Classification: the measures and the confusion matrix (tables and heatmap), ROC and
    precision-recall curves of the ``positive`` class's scores, and the F1-vs-MCC scatter."""
    sections = [
        section("Confusion matrix", heatmap(
            "Confusion matrix", labels, labels, matrix, xlabel="predicted", ylabel="true",
            caption="Items by true (rows) and predicted (columns) label."))
    ]  # fmt: skip
    if roc is not None and pr is not None:
        fpr, tpr = _finite_pairs(roc.fpr, roc.tpr)
        recall, precision = _finite_pairs(pr.recall, pr.precision)
        sections.append(section(
            f"Score curves of {positive}",
            _curve_plot("ROC curve", f"True against false positive rate of {positive} as the "
                        "threshold on its score falls; dashed: chance.",
                        [{"name": "", "x": fpr, "y": tpr}], "false positive rate",
                        "true positive rate", True),
            _curve_plot("Precision-recall curve", f"Precision against recall of {positive} as "
                        "the threshold on its score falls.",
                        [{"name": "", "x": recall, "y": precision, "drawstyle": "steps-post"}],
                        "recall", "precision", False),
        ))  # fmt: skip
    if f1mcc is not None:
        sections.append(section("F1 and MCC", f1_mcc_scatter(f1mcc)))
    return tables_document("Classification", "classification", report, sections=sections)
