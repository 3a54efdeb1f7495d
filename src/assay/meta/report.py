"""Reports (the tables every output format renders) of the meta-evaluation family
(:mod:`assay.meta`), which the results' ``report()`` methods return: discriminative power,
topic-set size design, rank-biased overlap, reproducibility, assessor agreement, two-way
ANOVA and replicability across datasets.

Each report's records are the result's own ``records()`` (one flat row per figure, the
columns below); the display table puts the figures people compare side by side (metrics ×
tests, metrics × minimum differences, ...) and its legend says how they were computed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..report.output import Report
from ..report.table import Cell, Column, DisplayTable
from ..report.values import short

if TYPE_CHECKING:
    from .across_datasets import Replicability
    from .assessors import AssessorAgreement
    from .discpower import DiscriminativePower
    from .overlap import RBORuns
    from .repro import Reproducibility
    from .topicsize import TopicSetSize
    from .twoway import Anova

__all__ = [
    "anova_report",
    "assessors_report",
    "discpower_report",
    "rbo_report",
    "replicability_report",
    "repro_report",
    "topicsize_report",
]


def _table(
    columns: Sequence[str],
    rows: Sequence[Mapping[str, Any]],
    *,
    caption: str = "",
    legend: str = "",
) -> DisplayTable:
    """A plain table of ``rows``: text columns left, numbers right (4 decimals)."""
    numeric = {
        c
        for c in columns
        if any(isinstance(r.get(c), int | float) and not isinstance(r.get(c), bool) for r in rows)
    }
    cols = [Column(c, align="right" if c in numeric else "left") for c in columns]
    body: list[list[Cell | str]] = [
        [short(r.get(c)) if c in numeric else _text(r.get(c)) for c in columns] for r in rows
    ]
    return DisplayTable(cols, body, caption=caption, legend=legend)


def _text(value: Any) -> str:
    """A text cell: a missing value (the id of an aggregate row) is empty, not "None"."""
    return "" if value is None else str(value)


def _report(
    table: DisplayTable, records: list[dict[str, Any]], provenance: Mapping[str, Any], **extra: Any
) -> Report:
    columns = list(dict.fromkeys(k for r in records for k in r))
    return Report(
        table=table,
        records=records,
        columns=columns,
        key="records",
        document={"provenance": dict(provenance), **extra},
    )


def discpower_report(dp: DiscriminativePower, *, pairs: bool = False) -> Report:
    """Metrics × tests: discriminative power (significant pairs / pairs) and the estimated
    difference required; with ``pairs``, every pair's difference and ASL instead."""
    prov = dp.provenance
    legend = (
        f"alpha={dp.alpha}; {prov['n_resamples']} resamples, seed {prov['seed']}; "
        f"{dp.n_topics} topics, {len(dp.runs)} runs, {len(dp.pairs)} pairs; bootstrap: Sakai's "
        "studentised paired bootstrap (ASL = count/B), diff = Sakai's estimated difference "
        "required; tukey: randomised Tukey HSD, diff = smallest significant difference"
    )
    if pairs:
        recs = dp.pair_records()
        table = _table(
            ["test", "metric", "run_a", "run_b", "diff", "asl", "significant"], recs, legend=legend
        )
        return _report(table, recs, prov)
    columns = [Column("metric", latex="Metric", style="bold")]
    for t in dp.tests:
        columns += [Column(f"{t} power", align="right"), Column(f"{t} diff", align="right")]
    rows: list[list[Cell | str]] = []
    for m in dp.metrics:
        cells: list[Cell | str] = [m]
        for t in dp.tests:
            cells.append(
                Cell(
                    short(dp.power[(t, m)]),
                    note=f"{dp.n_significant[(t, m)]}/{len(dp.pairs)}",
                )
            )
            cells.append(short(dp.diff_required[(t, m)]))
        rows.append(cells)
    return _report(DisplayTable(columns, rows, legend=legend), dp.records(), prov)


def topicsize_report(ts: TopicSetSize) -> Report:
    """One row per metric × minimum difference: σ̂², topics needed by the paired t-test and
    by one-way ANOVA, and the power of the current topic set."""
    cols = [
        "metric",
        "min_diff",
        "variance",
        "n_ttest",
        "power_ttest",
        "n_systems_anova",
        "n_anova",
        "power_anova",
        "n_topics",
    ]
    legend = (
        f"alpha={ts.alpha}, beta={ts.beta} (power {1 - ts.beta:g}); variance: residual V_E of "
        "two-way ANOVA without replication; t-test variance 2·V_E; power: current topic set "
        f"({ts.power_method} noncentral distributions)"
    )
    recs = ts.records()
    return _report(_table(cols, recs, legend=legend), recs, ts.provenance)


def rbo_report(res: RBORuns, *, per_query: bool = False) -> Report:
    """RBO_min, RBO_res and RBO_ext of two runs: the means (``per_query``: every query too)."""
    recs = res.records()
    shown = recs if per_query else recs[-1:]
    legend = (
        f"p={res.p}; RBO_ext extrapolated, RBO_min + RBO_res the upper bound (Webber et al. 2010)"
    )
    table = _table(
        ["run_a", "run_b", "query", "aggregate", "rbo_min", "rbo_res", "rbo_ext"],
        shown,
        legend=legend,
    )
    return _report(table, shown, res.provenance, warnings=list(res.warnings))


def repro_report(rep: Reproducibility) -> Report:
    """Measures × runs: KTU, RBO, RMSE, p-values per metric, then ER and ΔRI."""
    recs = rep.records()
    legend = (
        f"{rep.kind}; KTU, RBO (p={rep.provenance['p']}, depth {rep.provenance['rbo_depth']}), "
        "RMSE, ER, ΔRI and t-test p-values as repro_eval 0.5 (Breuer et al. 2020); "
        + ", ".join(f"{k}: {o} → {r}" for k, (o, r) in rep.runs.items())
    )
    table = _table(["measure", "run", "metric", "value"], recs, legend=legend)
    return _report(table, recs, rep.provenance, warnings=list(rep.warnings))


def assessors_report(agr: AssessorAgreement) -> Report:
    """Per-topic overlap, κ and α, the pooled row, then the system-ranking correlations."""
    recs = agr.records()
    topic_cols = [
        "topic",
        "aggregate",
        "n_docs",
        "n_relevant_a",
        "n_relevant_b",
        "overlap",
        "kappa",
        "alpha",
    ]
    topics = [r for r in recs if r["kind"] == "topic"]
    table = _table(topic_cols, topics, legend=_assessor_legend(agr))
    return _report(table, recs, agr.provenance, warnings=list(agr.warnings))


def _assessor_legend(agr: AssessorAgreement) -> str:
    prov = agr.provenance
    notes = [
        f"overlap |A∩B|/|A∪B| of relevant sets (grade >= {prov['rel']}); Cohen's kappa "
        f"(weights={prov['weights']}); Krippendorff's alpha ({prov['level']}); mean overlap "
        f"{short(agr.overall['mean_overlap'])}"
    ]
    for r in agr.rankings:
        notes.append(
            f"{r['metric']}: Kendall tau {short(r['kendall_tau'])}, tau_AP {short(r['tau_ap'])}, "
            f"RBO_ext {short(r['rbo_ext'])} over {r['n_runs']} runs"
        )
    return "; ".join(notes)


def anova_report(res: Anova) -> Report:
    """The ANOVA table of every metric; then the run means with their margins of error, and
    the effect sizes of every ordered pair of runs."""
    recs = res.records()
    level = round(100 * res.confidence, 2)
    legend = (
        f"two-way ANOVA without replication over {res.n_topics} topics and {len(res.runs)} "
        "runs (Sakai 2018); F = MS/V_E, V_E the residual mean square"
    )
    anova_rows = [r for r in recs if r["kind"] == "anova"]
    table = _table(["metric", "source", "ss", "df", "ms", "f", "p"], anova_rows, legend=legend)
    means = _table(
        ["metric", "run", "mean", "moe", "ci_low", "ci_high"],
        [r for r in recs if r["kind"] == "mean"],
        caption=f"Run means with {level:g}% intervals: mean ± MOE, MOE = t(φ_E)·√(V_E/n)",
    )
    effects = _table(
        ["metric", "run", "baseline", "diff", "effect_residual", "hedges_g", "glass_delta"],
        [r for r in recs if r["kind"] == "effect"],
        caption=(
            "Effect sizes of run over baseline: effect_residual = diff/√V_E (Sakai's ES_E), "
            "hedges_g = diff/√((s_run² + s_baseline²)/2), glass_delta = diff/s_baseline"
        ),
    )
    return Report(
        table=table,
        records=recs,
        columns=list(dict.fromkeys(k for r in recs for k in r)),
        key="records",
        document={"provenance": dict(res.provenance)},
        more=(means, effects),
    )


def replicability_report(res: Replicability) -> Report:
    """The datasets (p-value, whether Holm's procedure names it), then the partial
    conjunction p-values p^(u/N) for u = 1..N; the legend gives the count k̂."""
    recs = res.records()
    a = res.analysis
    named = ", ".join(a.identified) if a.identified else "none"
    legend = (
        f"{a.method} partial conjunction (Dror et al. 2017), alpha={a.alpha}: the effect holds "
        f"in at least {a.count} of {len(a.datasets)} datasets; datasets named by Holm's "
        f"procedure: {named}"
    )
    datasets = [r for r in recs if r["kind"] == "dataset"]
    columns = ["dataset", "system", "baseline", "metric", "diff", "p_value", "identified"]
    shown = [c for c in columns if any(r.get(c) is not None for r in datasets)]
    table = _table(shown, datasets, legend=legend)
    steps = _table(
        ["u", "p_sorted", "p_partial", "p_adjusted", "holds"],
        [r for r in recs if r["kind"] == "u"],
        caption=(
            "u: 'the effect holds in at least u datasets'; p_partial = p^(u/N), p_adjusted its "
            "running maximum, holds = p_adjusted <= alpha"
        ),
    )
    return Report(
        table=table,
        records=recs,
        columns=list(dict.fromkeys(k for r in recs for k in r)),
        key="records",
        document={"provenance": dict(res.provenance)},
        more=(steps,),
    )
