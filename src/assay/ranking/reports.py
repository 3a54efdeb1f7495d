"""Reports of ranking evaluation (:class:`~assay.results.Results`) and comparison
(:class:`~assay.results.Comparison`).

Tables show 4 decimals; counts (integer metrics) print as integers in every format; with
several runs the best aggregate of each metric is emphasised (direction from the metric's
declaration; not for counts). A comparison shows each run's mean per metric, with its
confidence interval on the terminal, and the significance marks explained in the legend.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..report.output import Report
from ..report.paired_render import difference_cells, p_text
from ..report.table import Cell, Column, DisplayTable
from ..report.values import count, short

if TYPE_CHECKING:
    from ..results import Comparison, Results

__all__ = ["RESULTS_COLUMNS", "comparison_legend", "comparison_report", "results_report"]

#: The record columns of an evaluation. ``aggregate`` (last, so that ``value`` stays the
#: fourth column) names the rule of an aggregate row, whose ``query`` is empty: no query id,
#: "all" included, can be mistaken for an aggregate.
RESULTS_COLUMNS = ("run", "metric", "query", "value", "aggregate")


# ---------------------------------------------------------------- evaluation


def results_report(results: Results, *, per_query: bool = False) -> Report:
    """Aggregates of every run x metric (with ``per_query``, each run's per-query values
    first); JSON adds the warnings and the provenance.

    Parameters
    ----------
    results : Results
        The evaluation.
    per_query : bool
        Also each run's per-query values (``assay evaluate -q``).

    Returns
    -------
    Report
        The table every output format renders and the records (:data:`RESULTS_COLUMNS`).

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:2], ["P@5", "map"])
    >>> from assay.ranking import results_report
    >>> [(row["run"], row["metric"], row["value"]) for row in results_report(res).records]
    [('run1', 'P@5', 0.35), ('run1', 'map', 0.8645833333333333), ('run2', 'P@5', 0.35), ('run2', 'map', 0.875)]
    """
    integer = {str(m): m.spec.integer for m in results.metrics}
    records = [
        {**x, "value": count(x["value"]) if integer[x["metric"]] else x["value"]}
        for x in results.records(per_query=per_query)
    ]
    return Report(
        table=_results_table(results, per_query, integer),
        records=records,
        columns=RESULTS_COLUMNS,
        document={"warnings": results.warnings, "provenance": results.provenance},
    )


def _results_table(results: Results, per_query: bool, integer: dict[str, bool]) -> DisplayTable:
    names = results.metric_names
    best = _best(results)
    columns = [Column("run", latex="Run", style="bold")]
    if per_query:
        columns.append(Column("query", latex="Query"))
    columns += [Column(m, align="right") for m in names]
    rows: list[list[Cell | str]] = []
    sections = set()
    for run, query, vals in _rows(results, per_query):
        cells: list[Cell | str] = [run, *([query or "all"] if per_query else [])]
        for m in names:
            text = short(count(vals[m]) if integer[m] else vals[m]) if m in vals else ""
            strong = query is None and m in best and vals.get(m) == best[m]
            cells.append(Cell(text, strong=strong))
        if per_query and query is None:
            sections.add(len(rows))
        rows.append(cells)
    conv = results.conventions
    caption = (
        f"ties={conv.ties}  missing={conv.missing}  no_relevant={conv.no_relevant}  "
        f"judged_only={conv.judged_only}  short_queries={conv.short_queries}"
    )
    return DisplayTable(
        columns,
        rows,
        caption=caption,
        sections=frozenset(sections),
        keys=2 if per_query else 1,
        pivot="metric",
    )


def _best(results: Results) -> dict[str, float]:
    """Best aggregate per metric across runs (direction from the metric's declaration)."""
    out = {}
    for m in results.metrics:
        vals = [results.data[(r, str(m))].aggregate for r in results.runs]
        vals = [v for v in vals if not math.isnan(v)]
        if vals and len(results.runs) > 1 and not m.spec.integer:
            out[str(m)] = max(vals) if m.spec.higher_is_better else min(vals)
    return out


def _rows(results: Results, per_query: bool) -> list[tuple[str, str | None, dict[str, float]]]:
    """(run, query, {metric: value}) rows; per-query rows first, then the aggregates (query
    None: shown as "all" below a rule, and only they are emphasised)."""
    rows: list[tuple[str, str | None, dict[str, float]]] = []
    names = results.metric_names
    for r in results.runs:
        if per_query:
            per: dict[str, dict[str, float]] = {}
            for m in names:
                for q, v in results.data[(r, m)].as_dict().items():
                    per.setdefault(q, {})[m] = v
            rows.extend((r, q, vals) for q, vals in per.items())
        rows.append((r, None, {m: results.data[(r, m)].aggregate for m in names}))
    return rows


# ---------------------------------------------------------------- comparison


def comparison_report(cmp: Comparison) -> Report:
    """Every part of a comparison in every format: the means (CIs on the terminal) with
    significance marks, then the differences (interval, raw and corrected p, effect size,
    wins/ties/losses); records carry all of it (:data:`~assay.results.COMPARISON_FIELDS`);
    JSON adds the settings, warnings and provenance.

    Parameters
    ----------
    cmp : Comparison
        The comparison.

    Returns
    -------
    Report
        The means table, the differences table and the records.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> cmp = assay.compare(qrels, list(runs.values())[:2], "P@5", n_resamples=200, baseline="run1")
    >>> from assay.ranking import comparison_report
    >>> [row["kind"] for row in comparison_report(cmp).records]
    ['mean', 'mean', 'difference']
    """
    from ..results import COMPARISON_FIELDS, RISK_FIELDS

    more = [_differences_table(cmp)] + ([_risk_table(cmp)] if cmp.risks else [])
    return Report(
        table=_means_table(cmp),
        more=more,
        records=list(cmp.records()),
        columns=COMPARISON_FIELDS + (RISK_FIELDS if cmp.risks else ()),
        key="records",
        document={
            "settings": cmp.settings,
            "warnings": cmp.results.warnings,
            "provenance": cmp.results.provenance,
        },
    )


def _means_table(cmp: Comparison) -> DisplayTable:
    letters = cmp.letters()
    columns = [Column("run", latex="Run", style="bold")]
    columns += [Column(m, align="right") for m in cmp.metrics]
    rows: list[list[Cell | str]] = []
    for r in cmp.runs:
        label = r if cmp.baseline is not None else f"({letters[r]}) {r}"
        cells: list[Cell | str] = [label]
        for m in cmp.metrics:
            s = cmp.summary(r, m)
            note = f"[{short(s.ci_low)}, {short(s.ci_high)}]"
            cells.append(Cell(short(s.mean), marks=cmp.markers(r, m), note=note))
        rows.append(cells)
    conf = cmp.settings.get("confidence", 0.95)
    caption = f"mean over queries [{_percent(conf)} {cmp.settings.get('ci_method', '')} CI]"
    return DisplayTable(
        columns, rows, caption=caption, legend=comparison_legend(cmp), pivot="metric"
    )


def _differences_table(cmp: Comparison) -> DisplayTable:
    against = cmp.baseline is None
    columns = [Column("metric", latex="Metric"), Column("run", latex="Run")]
    if against:
        columns.append(Column("vs", latex="vs."))
    columns += [
        Column("diff [CI]", align="right", latex="$\\Delta$ [CI]"),
        Column("p (adj.)", align="right", latex="$p$ ($p_{adj}$)"),
        Column("d", align="right", latex="$d$"),
        Column("W/T/L", align="right"),
    ]
    rows: list[list[Cell | str]] = []
    for p in cmp.pairs:
        rows.append(
            [
                p.metric,
                p.run,
                *([p.baseline] if against else []),
                *difference_cells(p),
                f"{p.wins}/{p.ties}/{p.losses}",
            ]
        )
    vs = "vs" if against else cmp.baseline
    caption = (
        f"diff: mean of run - {vs} over the queries both have, * significant; "
        "p (adj.): raw and corrected p-values; d: paired Cohen's d; "
        "W/T/L: queries where run is better/equal/worse by the metric's direction"
    )
    return DisplayTable(
        columns, rows, title="Differences", caption=caption, keys=3 if against else 2
    )


def _risk_table(cmp: Comparison) -> DisplayTable:
    columns = [
        Column("metric", latex="Metric"),
        Column("run", latex="Run"),
        Column("URisk [CI]", align="right", latex="URisk [CI]"),
        Column("TRisk", align="right", latex="TRisk"),
        Column("p", align="right", latex="$p$"),
        Column("W/T/L", align="right"),
    ]
    rows: list[list[Cell | str]] = []
    for r in cmp.risks:
        interval = f"[{short(r.ci_low)}, {short(r.ci_high)}]"
        rows.append(
            [
                r.metric,
                r.run,
                Cell(short(r.urisk), marks="*" if r.significant(cmp.alpha) else "", note=interval),
                short(r.trisk, ".2f"),
                p_text(r.p_value),
                f"{r.wins}/{r.ties}/{r.losses}",
            ]
        )
    alpha = cmp.risks[0].risk_alpha
    caption = (
        f"URisk: mean of run - {cmp.baseline} with losses weighted 1+{alpha:g} "
        "(Collins-Thompson et al. 2014); TRisk: URisk / its standard error (Dinçer et al. "
        f"2014), beyond ±2 a significant gain or risk of loss; * p < {cmp.alpha}"
    )
    return DisplayTable(columns, rows, title="Risk against the baseline", caption=caption, keys=2)


def _percent(confidence: float) -> str:
    return f"{100 * float(confidence):g}%"


def comparison_legend(cmp: Comparison) -> str:
    """What the marks of a comparison table mean, and how the tests were made.

    Parameters
    ----------
    cmp : Comparison
        The comparison.

    Returns
    -------
    str
        The legend: ▲/▼ against a baseline, or the letters of the runs over all pairs.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> cmp = assay.compare(qrels, list(runs.values())[:2], "P@5", n_resamples=200, baseline="run1")
    >>> from assay.ranking import comparison_legend
    >>> print(comparison_legend(cmp))
    ▲/▼: significantly better/worse than run1 (randomization test, holm correction per metric, alpha=0.05); *: significant
    """
    if cmp.test == "tukey":
        how = (
            f"randomised Tukey HSD over all pairs (family-wise, no further correction), "
            f"alpha={cmp.alpha}"
        )
    else:
        how = f"{cmp.test} test, {cmp.correction} correction per metric, alpha={cmp.alpha}"
    if cmp.baseline is not None:
        return f"▲/▼: significantly better/worse than {cmp.baseline} ({how}); *: significant"
    letters = ", ".join(f"{v}={k}" for k, v in cmp.letters().items())
    return f"letters: significantly better than that run ({letters}; {how}); *: significant"
