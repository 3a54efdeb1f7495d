"""Report documents of ranking results: an evaluation (:class:`~assay.results.Results`), a
comparison (:class:`~assay.results.Comparison`) and a learning-to-rank experiment
(:class:`~assay.ltr.Experiment`, with its analyses).

Each has the runs x metrics table of the terminal (CIs, ▲/▼ or letters), the per-query
distribution of every metric (box plots), the per-query differences of every run against
the baseline, sorted (the first run when there is none), and, when given, interpolated
precision-recall curves (``curves``: the runs evaluated with ``iprec_at_recall``) and the LTR
analyses (metric against trees, feature importance, effectiveness by query length, ...).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .document import Document, document, section
from .values import short

if TYPE_CHECKING:
    from ..ltr import Experiment
    from ..ltr.analysis import Analysis
    from ..results import Comparison, Results

__all__ = [
    "MAX_DIFF_RUNS",
    "MAX_PANELS",
    "analysis_section",
    "comparison_document",
    "differences",
    "distributions",
    "experiment_document",
    "paired_differences",
    "pr_curves",
    "results_document",
]

#: Most panels a plot of per-metric small multiples shows (the first metrics).
MAX_PANELS = 9
#: Most runs whose differences against the baseline are plotted.
MAX_DIFF_RUNS = 6


def _label(metric: str) -> str:
    return metric.replace("ndcg(gain='exp')", "NDCG")


def _shown(metrics: Sequence[str]) -> tuple[list[str], str]:
    """The metrics plotted, and a note when some are left out."""
    if len(metrics) <= MAX_PANELS:
        return list(metrics), ""
    return list(metrics[:MAX_PANELS]), f" (the first {MAX_PANELS} of {len(metrics)} metrics)"


def distributions(results: Results, metrics: Sequence[str]) -> dict[str, Any] | None:
    """Box plots of every metric's per-query values, one box per run."""
    shown, note = _shown(metrics)
    if not shown:
        return None
    panels = [
        {"title": _label(m), "groups": list(results.runs),
         "values": [_finite(results[r, m].values) for r in results.runs]}
        for m in shown
    ]  # fmt: skip
    return {
        "kind": "box",
        "title": "Per-query values" + note,
        "caption": "Box: quartiles; whiskers: 1.5 IQR; diamond: the mean; one box per run.",
        "panels": panels,
    }


def _finite(values: np.ndarray) -> list[float]:
    v = np.asarray(values, dtype=np.float64)
    return v[np.isfinite(v)].tolist()


def paired_differences(results: Results, run: str, base: str, metric: str) -> list[float]:
    """``run`` − ``base`` on the queries both have a value for, largest first."""
    a, b = results[run, metric], results[base, metric]
    _, ia, ib = np.intersect1d(a.queries, b.queries, return_indices=True)
    d = np.asarray(a.values, np.float64)[ia] - np.asarray(b.values, np.float64)[ib]
    return sorted(d[np.isfinite(d)].tolist(), reverse=True)


def differences(
    results: Results, base: str, metrics: Sequence[str], higher: Mapping[str, bool]
) -> list[dict[str, Any]]:
    """Per run other than ``base``: sorted per-query differences, one panel per metric."""
    shown, note = _shown(metrics)
    plots = []
    others = [r for r in results.runs if r != base][:MAX_DIFF_RUNS]
    for run in others:
        panels = []
        for m in shown:
            d = paired_differences(results, run, base, m)
            up = higher.get(m, True)
            wins = sum((x > 0) == up for x in d if x != 0)
            losses = sum(1 for x in d if x != 0) - wins
            panels.append({
                "title": f"{_label(m)}: {wins} better, {losses} worse",
                "values": d, "lower_is_better": not up, "ylabel": "difference",
            })  # fmt: skip
        plots.append({
            "kind": "diff",
            "title": f"{run} − {base}, per query" + note,
            "caption": f"One bar per query, sorted: green where {run} is better than {base} "
                       "(by the metric's direction), orange where worse.",
            "panels": panels,
        })  # fmt: skip
    return plots


def pr_curves(curves: Results | None) -> dict[str, Any] | None:
    """Interpolated precision at the recall levels of ``curves``, one line per run."""
    if curves is None:
        return None
    levels = []
    for m in curves.metrics:
        if m.spec.name == "iprec":
            levels.append((float(dict(m.params)["recall"]), str(m)))
    if not levels:
        return None
    levels.sort()
    series = [
        {"name": r, "x": [x for x, _ in levels],
         "y": [curves.aggregate(r, m) for _, m in levels]}
        for r in curves.runs
    ]  # fmt: skip
    return {
        "kind": "line",
        "title": "Interpolated precision-recall",
        "caption": "Mean over queries of the interpolated precision at each recall level "
        "(trec_eval's iprec_at_recall).",
        "panels": [
            {
                "series": series,
                "xlabel": "recall",
                "ylabel": "interpolated precision",
                "xlim": [0, 1],
                "ylim": [0, 1.02],
            }
        ],
        "columns": 1,
        "width": 6.0,
        "panel_height": 4.0,
    }


def _higher(results: Results) -> dict[str, bool]:
    return {str(m): bool(m.spec.higher_is_better) for m in results.metrics}


def _per_query_sections(
    results: Results, base: str, metrics: Sequence[str], higher: Mapping[str, bool],
    curves: Results | None,
) -> list[dict[str, Any]]:  # fmt: skip
    n = len({q for r in results.runs for q in results[r, metrics[0]].queries.tolist()})
    return [
        section("Per-query distributions", distributions(results, metrics),
                text=f"{n} queries; every metric's per-query values by run."),
        section(f"Per-query differences against {base}",
                *differences(results, base, metrics, higher), text=_runs_note(results)),
        section("Precision-recall", pr_curves(curves)),
    ]  # fmt: skip


def _runs_note(results: Results) -> str:
    others = len(results.runs) - 1
    if others <= MAX_DIFF_RUNS:
        return ""
    return f"The first {MAX_DIFF_RUNS} of the {others} runs compared with it."


def results_document(results: Results, *, curves: Results | None = None) -> Document:
    """An evaluation: the runs x metrics table, per-query distributions, differences against
    the first run, and precision-recall curves when ``curves`` are given."""
    from .ranking import results_report

    report = results_report(results)
    sections = [section("Runs × metrics", *report.tables)]
    numeric = [str(m) for m in results.metrics if m.spec.value == "number"]  # not relstring
    if results.runs and numeric:
        sections += _per_query_sections(results, results.runs[0], numeric, _higher(results), curves)
    return document("Evaluation", "ranking", sections, records=report.records,
                    provenance=results.provenance)  # fmt: skip


def comparison_document(cmp: Comparison, *, curves: Results | None = None) -> Document:
    """A comparison: means with CIs and marks, the differences table, per-query plots and
    precision-recall curves when ``curves`` are given."""
    from .ranking import comparison_report

    report = comparison_report(cmp)
    base = cmp.baseline or cmp.runs[0]
    sections = [section("Runs × metrics", *report.tables)]
    sections += _per_query_sections(cmp.results, base, cmp.metrics, cmp.higher_is_better, curves)
    return document("Comparison", "ranking", sections, records=report.records,
                    provenance=cmp.provenance)  # fmt: skip


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
