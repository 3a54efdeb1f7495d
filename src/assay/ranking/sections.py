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
from typing import TYPE_CHECKING, cast

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

#: A plot of a report document as plain JSON data (``kind``, ``title``, ``caption``,
#: ``panels``, ...), what :func:`assay.report.document.section` takes.
Plot = dict[str, object]
#: A section of a report document (``title``, ``text``, ``items``), as
#: :func:`assay.report.document.section` makes it.
Section = dict[str, object]


def label(metric: str) -> str:
    """A metric's name as plots title it (``NDCG`` for the exponential-gain NDCG)."""
    return metric.replace("ndcg(gain='exp')", "NDCG")


def _shown(metrics: Sequence[str]) -> tuple[list[str], str]:
    """The metrics plotted, and a note when some are left out."""
    if len(metrics) <= MAX_PANELS:
        return list(metrics), ""
    return list(metrics[:MAX_PANELS]), f" (the first {MAX_PANELS} of {len(metrics)} metrics)"


def distributions(results: Results, metrics: Sequence[str]) -> Plot | None:
    """Box plots of every metric's per-query values, one box per run.

    Parameters
    ----------
    results : Results
        The evaluation.
    metrics : sequence of str
        The metrics plotted (the first :data:`MAX_PANELS`), by evaluated name.

    Returns
    -------
    dict or None
        The plot (``kind`` "box", one panel per metric); None with no metric.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:2], ["P@5", "map"])
    >>> from assay.ranking import distributions
    >>> plot = distributions(res, ["AP"])
    >>> plot["kind"], [panel["groups"] for panel in plot["panels"]]
    ('box', [['run1', 'run2']])
    """
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
    """``run`` − ``base`` on the queries both have a value for, largest first.

    Parameters
    ----------
    results : Results
        The evaluation.
    run, base : str
        The run and the run it is compared with.
    metric : str
        An evaluated metric.

    Returns
    -------
    list of float
        The per-query differences (NaN left out), sorted in decreasing order.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:2], ["P@5", "map"])
    >>> from assay.ranking import paired_differences
    >>> [round(d, 4) for d in paired_differences(res, "run2", "run1", "AP")]
    [0.0833, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    """
    a, b = results[run, metric], results[base, metric]
    _, ia, ib = np.intersect1d(a.queries, b.queries, return_indices=True)
    d = np.asarray(a.values, np.float64)[ia] - np.asarray(b.values, np.float64)[ib]
    return sorted(d[np.isfinite(d)].tolist(), reverse=True)


def differences(
    results: Results, base: str, metrics: Sequence[str], higher: Mapping[str, bool]
) -> list[Plot]:
    """Per run other than ``base``: sorted per-query differences, one panel per metric.

    Parameters
    ----------
    results : Results
        The evaluation.
    base : str
        The run the others are compared with (the first :data:`MAX_DIFF_RUNS` others).
    metrics : sequence of str
        The metrics plotted (the first :data:`MAX_PANELS`).
    higher : mapping of str to bool
        Each metric's direction (missing: higher is better).

    Returns
    -------
    list of dict
        One plot per run (``kind`` "diff"), each panel titled with the wins and losses.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:2], ["P@5", "map"])
    >>> from assay.ranking import differences
    >>> [plot["title"] for plot in differences(res, "run1", ["AP"], {"AP": True})]
    ['run2 − run1, per query']
    """
    shown, note = _shown(metrics)
    plots: list[Plot] = []
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


def pr_curves(curves: Results | None) -> Plot | None:
    """Interpolated precision at the recall levels of ``curves``, one line per run.

    Parameters
    ----------
    curves : Results or None
        The runs evaluated with ``iprec_at_recall`` (:meth:`Results.curves
        <assay.results.Results.curves>`).

    Returns
    -------
    dict or None
        The plot (``kind`` "line"); None without curves or without ``iprec`` metrics.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:2], ["P@5", "map"])
    >>> from assay.ranking import pr_curves
    >>> plot = pr_curves(res.curves())
    >>> [(line["name"], len(line["x"])) for line in plot["panels"][0]["series"]]
    [('run1', 11), ('run2', 11)]
    """
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
) -> list[Section]:
    """The per-query sections of a ranking report document: the distributions, the
    differences against ``base`` and the precision-recall curves (the learning-to-rank
    experiment's document shares them).

    Parameters
    ----------
    results : Results
        The evaluation.
    base : str
        The run the others are compared with.
    metrics : sequence of str
        The metrics plotted (at least one).
    higher : mapping of str to bool
        Each metric's direction.
    curves : Results or None
        The precision-recall curves (see :func:`pr_curves`).

    Returns
    -------
    list of dict
        The sections, in order.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:2], ["P@5", "map"])
    >>> from assay.ranking import per_query_sections
    >>> [s["title"] for s in per_query_sections(res, "run1", ["AP"], {"AP": True}, None)]
    ['Per-query distributions', 'Per-query differences against run1', 'Precision-recall']
    """
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
    the first run, and precision-recall curves when ``curves`` are given.

    Parameters
    ----------
    results : Results
        The evaluation.
    curves : Results, optional
        The precision-recall curves (see :func:`pr_curves`).

    Returns
    -------
    Document
        The report document (what :meth:`Results.document <assay.results.Results.document>`
        gives and ``assay evaluate --report`` renders).

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:2], ["P@5", "map"])
    >>> from assay.ranking import results_document
    >>> doc = results_document(res, curves=res.curves())
    >>> [s["title"] for s in doc["sections"]]
    ['Runs × metrics', 'Per-query distributions', 'Per-query differences against run1', 'Precision-recall']
    """
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
    precision-recall curves when ``curves`` are given.

    Parameters
    ----------
    cmp : Comparison
        The comparison.
    curves : Results, optional
        The precision-recall curves (see :func:`pr_curves`).

    Returns
    -------
    Document
        The report document (what ``assay compare --report`` renders).

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> cmp = assay.compare(qrels, list(runs.values())[:2], "P@5", n_resamples=200, baseline="run1")
    >>> from assay.ranking import comparison_document
    >>> [s["title"] for s in comparison_document(cmp)["sections"]]
    ['Runs × metrics', 'Per-query distributions', 'Per-query differences against run1']
    """
    from .reports import comparison_report

    report = comparison_report(cmp)
    base = cmp.baseline or cmp.runs[0]
    sections = [section("Runs × metrics", *report.tables)]
    sections += per_query_sections(cmp.results, base, cmp.metrics, cmp.higher_is_better, curves)
    return document(
        "Comparison", "ranking", sections, records=report.records, provenance=cmp.provenance
    )
