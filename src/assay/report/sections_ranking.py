"""Report documents of a learning-to-rank experiment (:class:`~assay.ltr.Experiment`, with
its analyses: metric against trees, feature importance, effectiveness by query length, ...).
The evaluation and comparison documents moved to :mod:`assay.ranking.sections`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .document import Document, document, section
from .values import short

if TYPE_CHECKING:
    from ..ltr import Experiment
    from ..ltr.analysis import Analysis
    from ..results import Results

__all__ = ["analysis_section", "experiment_document"]


def _label(metric: str) -> str:
    from ..ranking.sections import label

    return label(metric)


def _per_query_sections(*args: Any) -> list[dict[str, Any]]:
    from ..ranking.sections import per_query_sections

    return per_query_sections(*args)


# ---------------------------------------------------------------- learning to rank


def experiment_document(
    exp: Experiment, *, analyses: Sequence[Analysis] = (), curves: Results | None = None
) -> Document:
    """An LTR experiment: the models x metrics table, per-query plots, and each analysis as
    a plot (trees, importance, length, relevant) and its table."""
    from .ltr import experiment_report

    report = experiment_report(exp)
    cmp = exp.comparison
    base = str(cmp.baseline or cmp.runs[0])
    title = report.table.title
    sections = [section("Models × metrics", report.table)]
    sections += _per_query_sections(cmp.results, base, cmp.metrics, cmp.higher_is_better, curves)
    sections += [analysis_section(a) for a in analyses]
    return document(f"Learning to rank: {title}", "ltr", sections, records=report.records,
                    provenance=exp.provenance)  # fmt: skip


def analysis_section(a: Analysis) -> dict[str, Any]:
    """One LTR analysis: its plot (when it has one) and its table."""
    from .ltr import analysis_report

    table = analysis_report(a).table
    plot = {"trees": _trees_plot, "importance": _importance_plot, "length": _grouped_plot,
            "relevant": _grouped_plot}.get(a.kind)  # fmt: skip
    heading = {"trees": "Metric against the number of trees", "importance": "Feature importance",
               "length": "Effectiveness by query length",
               "relevant": "Effectiveness by relevant documents"}.get(a.kind, a.title)  # fmt: skip
    return section(heading, plot(a) if plot else None, table)


def _metric(a: Analysis) -> str:
    return _label(str(a.provenance.get("metric", "")))


def _trees_plot(a: Analysis) -> dict[str, Any]:
    splits = list(dict.fromkeys(r["split"] for r in a.rows))
    best = a.provenance.get("best_iteration")
    series = [
        {"name": s, "x": [r["trees"] for r in a.rows if r["split"] == s],
         "y": [r["value"] for r in a.rows if r["split"] == s], "best": best or None}
        for s in splits
    ]  # fmt: skip
    return {
        "kind": "line",
        "title": a.title,
        "caption": f"{_metric(a)} of the model cut after each number of trees, on each split; "
        f"dotted: the best iteration of early stopping ({best}).",
        "panels": [{"series": series, "xlabel": "trees", "ylabel": _metric(a)}],
        "columns": 1,
        "width": 7.0,
    }


def _importance_plot(a: Analysis) -> dict[str, Any]:
    rows = a.rows[:20]
    permuted = bool(a.provenance.get("permutation", True))
    key = "permutation_drop" if permuted else "gain"
    what = (
        f"Drop in mean {_metric(a)} when the feature's values are shuffled (permutation importance)"
        if permuted
        else "LightGBM's total gain of the splits on the feature"
    )
    more = "; the first 20 features" if len(a.rows) > 20 else ""
    return {
        "kind": "hbar",
        "title": a.title,
        "caption": f"{what}{more}.",
        "panels": [
            {
                "labels": [f"feature {r['feature']}" for r in rows],
                "values": [r[key] for r in rows],
                "xlabel": f"drop in {_metric(a)}" if permuted else "gain",
            }
        ],
        "columns": 1,
        "width": 7.0,
    }


def _grouped_plot(a: Analysis) -> dict[str, Any]:
    key = a.columns[1]
    cats = list(dict.fromkeys(str(r[key]) for r in a.rows))
    models = list(dict.fromkeys(r["model"] for r in a.rows))
    by = {(r["model"], str(r[key])): r["mean"] for r in a.rows}
    series = [{"name": m, "values": [by.get((m, c), math.nan) for c in cats]} for m in models]
    counts = {str(r[key]): r["queries"] for r in a.rows}
    what = key.replace("_", " ")
    return {
        "kind": "bars",
        "title": a.title,
        "caption": f"Mean {_metric(a)} per model in groups of queries by {what} (queries per "
        f"group: {', '.join(f'{c}: {short(counts[c])}' for c in cats)}).",
        "panels": [
            {"categories": cats, "series": series, "xlabel": what, "ylabel": f"mean {_metric(a)}"}
        ],
        "columns": 1,
        "width": 7.0,
    }
