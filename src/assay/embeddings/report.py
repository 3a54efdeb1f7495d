"""Reports of embedding retrieval (:class:`~assay.embeddings.RetrievalMetrics`), with the
areas of the error-vs-reject curves when per-query confidences are given
(:class:`~assay.embeddings.ErrorRejectCurve`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..report.output import Report
from ..report.table import Column, DisplayTable
from ..report.values import short
from .options import EmbeddingView

if TYPE_CHECKING:
    from .confidence import ErrorRejectCurve
    from .result import RecordLevel, RetrievalMetrics

__all__ = ["embedding_report", "error_reject_plot"]

_SUMMARY = ("metric", "mean", "class_mean", "n_queries", "n_lone")
_AREAS = ("aurc", "oracle_aurc", "random_aurc", "e_aurc")
_COLUMNS: dict[str, tuple[str, ...]] = {
    "class": ("metric", "class", "value", "n_queries"),
    "query": ("metric", "query", "label", "value"),
    "curve": ("metric", "rejected", "error", "oracle_error"),
}
_HEADERS = {
    "mean": "mean",
    "class_mean": "class mean",
    "n_queries": "queries",
    "n_lone": "lone",
    "aurc": "AURC",
    "oracle_aurc": "oracle AURC",
    "random_aurc": "random AURC",
    "e_aurc": "E-AURC",
}


def embedding_report(
    result: RetrievalMetrics,
    *,
    view: EmbeddingView = "summary",
    curves: Mapping[str, ErrorRejectCurve] | None = None,
) -> Report:
    """``view``: ``"summary"`` (per metric: mean over queries, mean of class means, queries
    evaluated and left out; with ``curves``, the error-vs-reject areas), ``"class"``,
    ``"query"`` or ``"curve"`` (the error-vs-reject points of every curve)."""
    records, columns = _records(result, view, curves)
    numeric = {c for c in columns if c not in ("metric", "class", "label")}
    table = DisplayTable(
        [Column(_HEADERS.get(c, c), align="right" if c in numeric else "left") for c in columns],
        [[_cell(r.get(c), c) for c in columns] for r in records],
        caption=_caption(result),
        legend=_legend(result, curves),
    )
    document = {"provenance": dict(result.provenance), "warnings": list(result.warnings)}
    return Report(
        table=table,
        records=records,
        columns=columns,
        key="records",
        document=document,
    )


def _records(
    result: RetrievalMetrics, view: str, curves: Mapping[str, ErrorRejectCurve] | None
) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    if view == "summary":
        rows = result.records("summary")
        if not curves:
            return rows, _SUMMARY
        for row in rows:
            summary = curves[row["metric"]].summary()
            row.update({key: summary[key] for key in _AREAS})
        return rows, _SUMMARY + _AREAS
    if view == "curve":
        if not curves:
            from ..errors import OptionError

            raise OptionError(
                "the error-vs-reject curve needs per-query confidences", option="view"
            )
        return [row for curve in curves.values() for row in curve.records()], _COLUMNS["curve"]
    return result.records(cast("RecordLevel", view)), _COLUMNS[view]  # "class" or "query"


def _cell(value: Any, column: str) -> str:
    if value is None:
        return ""
    if column in ("class", "label", "metric"):
        return str(value)
    return short(value)


def _caption(result: RetrievalMetrics) -> str:
    prov = result.provenance
    source = prov.get("backend", prov.get("source", ""))
    parts = [
        f"{result.n_queries} queries",
        f"k={result.k}",
        f"{result.n_neighbours} neighbours",
        f"exclude_self={prov.get('exclude_self')}",
    ]
    if "distance" in prov:
        parts.append(f"distance={prov['distance']}")
    return "  ".join([*parts, f"({source})"])


def _legend(result: RetrievalMetrics, curves: Mapping[str, ErrorRejectCurve] | None) -> str:
    notes = ["mean: over queries; class mean: mean of per-class means (avg_of_avgs)"]
    if result.n_lone:
        notes.append(f"{result.n_lone} queries without another reference of their class left out")
    if curves:
        notes.append("AURC: mean error (1 - metric) rejecting the least confident first")
    return "; ".join(notes)


def error_reject_plot(curves: Mapping[str, Any]) -> dict[str, Any] | None:
    """Error against the share of queries rejected (least confident first), one panel per
    metric, with the oracle's curve (worst first) for reference."""
    if not curves:
        return None
    panels = []
    for metric, c in list(curves.items())[:9]:
        x = np.asarray(c.rejected, np.float64).tolist()
        title = (
            f"{metric}: AURC {c.area:.4f} (oracle {c.oracle_area:.4f}, random {c.random_area:.4f})"
        )
        by_confidence = {"name": "by confidence", "x": x, "y": np.asarray(c.error).tolist()}
        oracle = {"name": "oracle", "x": x, "y": np.asarray(c.oracle_error).tolist(), "color": 5}
        panels.append(
            {
                "title": title,
                "series": [by_confidence, oracle],
                "xlabel": "share of queries rejected",
                "ylabel": f"1 − {metric}",
            }
        )
    return {
        "kind": "line",
        "title": "Error against rejection",
        "caption": "Error (1 − the mean metric) of the queries kept after rejecting the least "
        "confident; oracle: rejecting the worst queries first. A lower area (AURC) is better.",
        "panels": panels,
        "columns": min(len(panels), 2),
        "width": 11.0 if len(panels) > 1 else 6.5,
        "panel_height": 3.6,
    }
