"""Report documents of the other families: any result's tables (:func:`tables_document`:
tagging's per-type table, generation, regression, ...) and the heatmap drawer
(:func:`heatmap`: classification's confusion matrix, clustering's contingency table,
agreement's coincidence matrix). The families' own sections are in their packages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .document import Document, document, section

if TYPE_CHECKING:
    from .._result import ResultLike
    from .output import Report
    from .reported import Reported

__all__ = [
    "MAX_LABELS",
    "any_document",
    "heatmap",
    "tables_document",
]

#: Most labels a heatmap shows on an axis (a larger matrix is left to its table).
MAX_LABELS = 40


def tables_document(
    title: str,
    family: str,
    report: Report,
    *,
    sections: Sequence[Mapping[str, object]] = (),
) -> Document:
    """A result's report as a document: its tables as one section, then ``sections``.

    What :meth:`Reported.document <assay.report.Reported.document>` returns by default; the
    report's records and provenance (and the rest of its JSON ``document``) are kept.

    Parameters
    ----------
    title : str
        The document's title.
    family : str
        The family it belongs to (``"clustering"``, ``"regression"``, ...).
    report : Report
        The result's report.
    sections : sequence of mappings
        More sections after the tables (:func:`assay.report.document.section`: plots).

    Returns
    -------
    dict
        The document, plain JSON data (:mod:`assay.report.document`).

    Examples
    --------
    >>> from assay.report import tables_document, values_report
    >>> report = values_report({"nmi": 0.5}, document={"provenance": {"seed": 0}})
    >>> doc = tables_document("Clustering", "clustering", report)
    >>> doc["title"], [s["title"] for s in doc["sections"]], doc["provenance"]
    ('Clustering', ['Results'], {'seed': 0})
    """
    provenance = report.document.get("provenance", {})
    if not isinstance(provenance, Mapping):
        provenance = {"provenance": provenance}
    return document(
        title,
        family,
        [section("Results", *report.tables), *sections],
        records=report.records,
        provenance={
            **provenance,
            **{k: v for k, v in report.document.items() if k != "provenance"},
        },
    )


def any_document(result: ResultLike | Reported, *, title: str | None = None) -> Document:
    """The report document of any assay result.

    A result that builds its own report gives its own document
    (:meth:`~assay.report.Reported.document`: a ranking evaluation or comparison with its
    plots, an LTR experiment, a family's result); any other gives its records as a table
    (every result has ``records()``).

    Parameters
    ----------
    result : assay result
        The result.
    title : str, optional
        The document's title (default: the result's own).

    Returns
    -------
    dict
        The document, plain JSON data (:mod:`assay.report.document`), which
        :func:`~assay.report.to_html` renders.

    Examples
    --------
    >>> import assay
    >>> from assay.report import any_document
    >>> res = assay.evaluate({"q1": {"d1": 1}}, {"bm25": {"q1": {"d1": 0.9}}}, ["P@1"])
    >>> doc = any_document(res, title="BM25")
    >>> doc["title"], doc["family"], doc["records"][0]["value"]
    ('BM25', 'ranking', 1.0)
    """
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
    title: str,
    rows: Sequence[Any],
    cols: Sequence[Any],
    matrix: Any,
    *,
    xlabel: str,
    ylabel: str,
    caption: str = "",
) -> dict[str, Any] | None:
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
