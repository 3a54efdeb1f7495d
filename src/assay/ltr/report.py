"""Reports (the tables every output format renders) of learning-to-rank results, which
their ``report()`` methods return: an experiment (:class:`~assay.ltr.Experiment`), the
statistics of a collection's splits, and any analysis (:class:`~assay.ltr.analysis.Analysis`).

The experiment table has a row per model (mean on the evaluation split, ▲/▼ against the
baseline, the confidence interval on the terminal), a row per difference from the baseline
with its corrected p-value written out (so every format shows it), and, with several seeds,
a row per model with mean ± sd over seeds; the legend states the conventions, including what
trec_eval's ``no_relevant="zero"`` would give.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..ranking.reports import comparison_legend
from ..report.output import Report
from ..report.table import Cell, Column, DisplayTable
from ..report.values import count, short

if TYPE_CHECKING:
    from .analysis import Analysis
    from .experiment import Experiment
    from .stats import DatasetStats

__all__ = ["EXPERIMENT_COLUMNS", "analysis_report", "experiment_report", "stats_report"]

EXPERIMENT_COLUMNS = (
    "model",
    "kind",
    "metric",
    "value",
    "baseline",
    "ci_low",
    "ci_high",
    "p_value",
    "p_adjusted",
    "std",
    "min",
    "max",
    "n",
    "eps_min",
)


def _label(metric: str) -> str:
    """Short column header: ndcg(gain='exp')@10 -> NDCG@10 (the legend says exp gain)."""
    return metric.replace("ndcg(gain='exp')", "NDCG").replace("discordant_pairs", "discordant")


def experiment_report(exp: Experiment) -> Report:
    """The models x metrics table of an experiment (:meth:`Experiment.report`)."""
    cmp = exp.comparison
    columns = [Column("model", latex="Model", style="bold")]
    columns += [Column(_label(m), align="right") for m in cmp.metrics]
    rows: list[list[Cell | str]] = []
    for r in cmp.runs:
        label = f"{r} (baseline)" if r == cmp.baseline else r
        cells: list[Cell | str] = [label]
        for m in cmp.metrics:
            s = cmp.summary(r, m)
            cells.append(
                Cell(
                    short(s.mean),
                    marks=cmp.markers(r, m),
                    note=f"[{short(s.ci_low)}, {short(s.ci_high)}]",
                )
            )
        rows.append(cells)
    sections = {len(rows) - 1}
    base = str(cmp.baseline)
    for r in cmp.runs:
        if r == base:
            continue
        cells = [f"{r} − {base}"]
        for m in cmp.metrics:
            p = cmp.pair(r, base, m)
            cells.append(Cell(f"{p.diff:+.4f} (p={_p(p.p_adjusted)})", strong=p.significant))
        rows.append(cells)
    if len(exp.seeds) > 1:
        sections.add(len(rows) - 1)
        for r in cmp.runs:
            cells = [f"{r} ({len(exp.seeds)} seeds)"]
            for m in cmp.metrics:
                sp = next(x for x in exp.spread if x.model == r and x.metric == m)
                cells.append(
                    Cell(
                        f"{short(sp.mean)} ± {short(sp.std)}",
                        note=f"[{short(sp.minimum)}, {short(sp.maximum)}]",
                    )
                )
            rows.append(cells)
        rows.extend(_aso_rows(exp))
    return Report(
        table=DisplayTable(
            columns, rows, title=_title(exp), legend=_legend(exp), sections=frozenset(sections)
        ),
        records=exp.records(),
        columns=EXPERIMENT_COLUMNS,
        key="records",
        document={"warnings": exp.results.warnings, "provenance": exp.provenance},
    )


def _aso_rows(exp: Experiment) -> list[list[Cell | str]]:
    """Per model but the baseline, ASO's ε_min over the baseline per metric (bold below 0.5:
    almost stochastically better over seeds)."""
    cmp = exp.comparison
    base = str(cmp.baseline)
    rows: list[list[Cell | str]] = []
    for r in cmp.runs:
        if r == base or not exp.seed_comparisons:
            continue
        cells: list[Cell | str] = [f"{r} ≻ {base}: ASO ε_min"]
        for m in cmp.metrics:
            over = exp.seed_comparisons.get(m)
            eps = over.eps_min(r) if over is not None else math.nan
            cells.append(Cell(short(eps, ".3f"), strong=eps < 0.5))
        rows.append(cells)
    return rows


def _p(p: float) -> str:
    return "nan" if math.isnan(p) else (f"{p:.3f}" if p >= 0.001 else f"{p:.1e}")


def _title(exp: Experiment) -> str:
    prov = exp.provenance
    data = prov.get("data", {})
    vali = f", early stopping on {prov['vali']}" if prov.get("vali") else ""
    return (
        f"{data.get('name', exp.split)}: {data.get('queries')} queries, "
        f"{data.get('documents')} documents; trained on {prov.get('train')}{vali}"
    )


def _legend(exp: Experiment) -> str:

    conv = exp.results.conventions
    parts = [
        comparison_legend(exp.comparison),
        f"NDCG with exponential gain 2^g - 1; ties={conv.ties}; no_relevant={conv.no_relevant} "
        f"(LightGBM); short_queries={conv.short_queries}",
    ]
    if exp.no_relevant_queries:
        ndcg = [m for m in exp.trec_zero.metric_names if m.startswith("ndcg")]
        if ndcg:
            m = ndcg[-1]
            values = ", ".join(
                f"{r} {short(exp.trec_zero.aggregate(r, m))}" for r in exp.trec_zero.runs
            )
            parts.append(
                f"{exp.no_relevant_queries} queries have no relevant document; with trec_eval's "
                f"no_relevant=zero, {_label(m)}: {values}"
            )
    if len(exp.seeds) > 1:
        listed = ", ".join(str(s) for s in exp.seeds)
        parts.append(
            f"± sd [min, max] over seeds {listed} (Reimers & Gurevych 2017); ASO ε_min: "
            f"almost stochastic order of the model's seed scores over {exp.comparison.baseline}'s "
            "(Dror et al. 2019; < 0.5: almost stochastically better, 0: dominates; confidence "
            "0.95, Bonferroni over the models)"
        )
    return "; ".join(parts)


# ---------------------------------------------------------------- statistics


def stats_report(stats: Sequence[DatasetStats]) -> Report:
    """One column per split, one row per statistic."""
    records = [r for s in stats for r in s.records()]
    names = [s.name for s in stats]
    order = list(dict.fromkeys(r["statistic"] for r in records))
    by = {(r["data"], r["statistic"]): r["value"] for r in records}
    columns = [Column("statistic")] + [Column(n, align="right") for n in names]
    rows: list[list[Cell | str]] = []
    for key in order:
        rows.append([key] + [_value(by.get((n, key), "")) for n in names])
    return Report(
        table=DisplayTable(columns, rows),
        records=records,
        columns=("data", "statistic", "value"),
        key="statistics",
        document={"provenance": [dict(s.provenance) for s in stats]},
    )


def _value(v: Any) -> str:
    if isinstance(v, bool | str):
        return str(v)
    if isinstance(v, int):
        return str(count(v))
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else short(v)
    return str(v)


# ---------------------------------------------------------------- analyses


def analysis_report(result: Analysis) -> Report:
    """Any analysis: its rows under its columns (numbers to 4 decimals on display)."""
    columns = [Column(c, align="left" if i == 0 else "right") for i, c in enumerate(result.columns)]
    rows: list[list[Cell | str]] = [
        [_value(r.get(c, "")) for c in result.columns] for r in result.rows
    ]
    return Report(
        table=DisplayTable(columns, rows, title=result.title),
        records=result.records(),
        columns=result.columns,
        key="rows",
        document={"analysis": result.kind, "provenance": dict(result.provenance)},
    )
