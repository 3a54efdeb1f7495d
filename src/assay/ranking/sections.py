"""Report documents of ranking results: an evaluation (:class:`~assay.results.Results`) and
a comparison (:class:`~assay.results.Comparison`); the learning-to-rank experiment's document
builds on :func:`per_query_sections`.

Each has the runs x metrics table of the terminal (CIs, ▲/▼ or letters), the per-query
distribution of every metric (box plots), the per-query differences of every run against
the baseline, sorted (the first run when there is none), and, when given, interpolated
precision-recall curves (``curves``: the runs evaluated with ``iprec_at_recall``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..report.document import Document, document, section

if TYPE_CHECKING:
    from ..results import Comparison, Results

__all__ = [
    "MAX_DIFF_RUNS",
    "MAX_PANELS",
    "comparison_document",
    "differences",
    "distributions",
    "label",
    "paired_differences",
    "per_query_sections",
    "pr_curves",
    "results_document",
]

#: Most panels a plot of per-metric small multiples shows (the first metrics).
MAX_PANELS = 9
#: Most runs whose differences against the baseline are plotted.
MAX_DIFF_RUNS = 6


def label(metric: str) -> str:
    """A metric's name as plots title it (``NDCG`` for the exponential-gain NDCG)."""
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
        {
            "title": label(m),
            "groups": list(results.runs),
            "values": [_finite(results[r, m].values) for r in results.runs],
        }
        for m in shown
    ]
    return {
        "kind": "box",
        "title": "Per-query values" + note,
        "caption": "Box: quartiles; whiskers: 1.5 IQR; diamond: the mean; one box per run.",
        "panels": panels,
    }


def _finite(values: np.ndarray) -> list[float]:
    v = np.asarray(values, dtype=np.float64)
    return cast(list[float], v[np.isfinite(v)].tolist())


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
            panels.append(
                {
                    "title": f"{label(m)}: {wins} better, {losses} worse",
                    "values": d,
                    "lower_is_better": not up,
                    "ylabel": "difference",
                }
            )
        plots.append(
            {
                "kind": "diff",
                "title": f"{run} − {base}, per query" + note,
                "caption": f"One bar per query, sorted: green where {run} is better than {base} "
                "(by the metric's direction), orange where worse.",
                "panels": panels,
            }
        )
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
        {"name": r, "x": [x for x, _ in levels], "y": [curves.aggregate(r, m) for _, m in levels]}
        for r in curves.runs
    ]
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


def per_query_sections(
    results: Results,
    base: str,
    metrics: Sequence[str],
    higher: Mapping[str, bool],
    curves: Results | None,
) -> list[dict[str, Any]]:
    n = len({q for r in results.runs for q in results[r, metrics[0]].queries.tolist()})
    return [
        section(
            "Per-query distributions",
            distributions(results, metrics),
            text=f"{n} queries; every metric's per-query values by run.",
        ),
        section(
            f"Per-query differences against {base}",
            *differences(results, base, metrics, higher),
            text=_runs_note(results),
        ),
        section("Precision-recall", pr_curves(curves)),
    ]


def _runs_note(results: Results) -> str:
    others = len(results.runs) - 1
    if others <= MAX_DIFF_RUNS:
        return ""
    return f"The first {MAX_DIFF_RUNS} of the {others} runs compared with it."


def results_document(results: Results, *, curves: Results | None = None) -> Document:
    """An evaluation: the runs x metrics table, per-query distributions, differences against
    the first run, and precision-recall curves when ``curves`` are given."""
    from .reports import results_report

    report = results_report(results)
    sections = [section("Runs × metrics", *report.tables)]
    numeric = [str(m) for m in results.metrics if m.spec.value == "number"]  # not relstring
    if results.runs and numeric:
        sections += per_query_sections(results, results.runs[0], numeric, _higher(results), curves)
    return document(
        "Evaluation", "ranking", sections, records=report.records, provenance=results.provenance
    )


def comparison_document(cmp: Comparison, *, curves: Results | None = None) -> Document:
    """A comparison: means with CIs and marks, the differences table, per-query plots and
    precision-recall curves when ``curves`` are given."""
    from .reports import comparison_report

    report = comparison_report(cmp)
    base = cmp.baseline or cmp.runs[0]
    sections = [section("Runs × metrics", *report.tables)]
    sections += per_query_sections(cmp.results, base, cmp.metrics, cmp.higher_is_better, curves)
    return document(
        "Comparison", "ranking", sections, records=report.records, provenance=cmp.provenance
    )
