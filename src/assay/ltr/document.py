"""The HTML report of learning-to-rank results (what ``--report`` draws): an experiment's
models x metrics table, its per-query plots (the ranking core's), the analyses the report
holds (:func:`report_analyses`: the metric against trees and feature importance of the
first LambdaMART, effectiveness by query length) and precision-recall curves
(:func:`report_curves`), and one analysis as a plot and a table (:func:`analysis_section`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..ranking.sections import per_query_sections
from ..report.document import Document, document, section
from ..report.values import short
from .report import analysis_report, experiment_report

if TYPE_CHECKING:
    from ..results import Results
    from .analysis import Analysis
    from .dataset import LetorDataset
    from .experiment import Experiment

__all__ = [
    "analysis_document",
    "analysis_section",
    "experiment_document",
    "report_analyses",
    "report_curves",
]


def _label(metric: str) -> str:
    return metric.replace("ndcg(gain='exp')", "NDCG")


def experiment_document(
    exp: Experiment, *, analyses: Sequence[Analysis] = (), curves: Results | None = None
) -> Document:
    """An LTR experiment: the models x metrics table, per-query plots, and each analysis as
    a plot (trees, importance, length, relevant) and its table."""
    report = experiment_report(exp)
    cmp = exp.comparison
    base = str(cmp.baseline or cmp.runs[0])
    title = report.table.title
    sections = [section("Models × metrics", report.table)]
    sections += per_query_sections(cmp.results, base, cmp.metrics, cmp.higher_is_better, curves)
    sections += [analysis_section(a) for a in analyses]
    if exp.seed_comparisons:
        sections.append(
            section(
                "Scores over seeds",
                *(over.plot() for over in exp.seed_comparisons.values()),
                *(over.report().table for over in exp.seed_comparisons.values()),
            )
        )
    return document(
        f"Learning to rank: {title}",
        "ltr",
        sections,
        records=report.records,
        provenance=exp.provenance,
    )


def report_analyses(exp: Experiment, splits: Mapping[str, LetorDataset]) -> list[Analysis]:
    """The analyses an experiment's report holds, on its evaluation split: the metric
    against trees and feature importance (LightGBM's gain: no permutations) for the first
    LambdaMART, and effectiveness by query length."""
    from . import analysis as an
    from .experiment import evaluate_scores
    from .models import LambdaMART

    target = splits[exp.split]
    first = {name: s[0] for name, s in exp.scores.items()}
    main = an.NDCG10
    analyses = []
    trees = [m[0] for m in exp.models.values() if isinstance(m[0], LambdaMART)]
    if trees:
        curve = {s: d for s, d in splits.items() if s != "train"}
        total = int(trees[0].booster_.current_iteration())
        analyses.append(an.trees_curve(trees[0], curve, metric=main, step=max(1, total // 50)))
        analyses.append(an.feature_importance(trees[0], target, metric=main, permutation=False))
    res = evaluate_scores(target, first, [main], **_conventions(exp))
    analyses.append(an.by_query_length(target, res, main))
    return analyses


def report_curves(exp: Experiment, splits: Mapping[str, LetorDataset]) -> Results:
    """The models' interpolated precision at the recall levels on the evaluation split,
    under the experiment's conventions."""
    from ..evaluation import evaluate

    target = splits[exp.split]
    runs = [target.run(s[0], name) for name, s in exp.scores.items()]
    return evaluate(target.qrels(), runs, ["iprec_at_recall"], missing="error", **_conventions(exp))


def _conventions(exp: Experiment) -> dict[str, Any]:
    conv = exp.results.conventions
    return {"ties": conv.ties, "no_relevant": conv.no_relevant}


def analysis_document(a: Analysis) -> Document:
    """One analysis as a report document: its plot (trees, importance, length, relevant)
    and its table."""
    return document(
        f"Learning to rank: {a.title}",
        "ltr",
        [analysis_section(a)],
        records=a.records(),
        provenance=a.provenance,
    )


#: The heading of each analysis's section (the others: the analysis's title).
HEADINGS = {
    "trees": "Metric against the number of trees",
    "importance": "Feature importance",
    "length": "Effectiveness by query length",
    "relevant": "Effectiveness by relevant documents",
}


def analysis_section(a: Analysis) -> dict[str, Any]:
    """One LTR analysis: its plot (when it has one) and its table."""
    table = analysis_report(a).table
    plots = {
        "trees": _trees_plot,
        "importance": _importance_plot,
        "length": _grouped_plot,
        "relevant": _grouped_plot,
    }
    plot = plots.get(a.kind)
    return section(HEADINGS.get(a.kind, a.title), plot(a) if plot else None, table)


def _metric(a: Analysis) -> str:
    return _label(str(a.provenance.get("metric", "")))


def _trees_plot(a: Analysis) -> dict[str, Any]:
    splits = list(dict.fromkeys(r["split"] for r in a.rows))
    best = a.provenance.get("best_iteration")
    series = [
        {
            "name": s,
            "x": [r["trees"] for r in a.rows if r["split"] == s],
            "y": [r["value"] for r in a.rows if r["split"] == s],
            "best": best or None,
        }
        for s in splits
    ]
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
