"""The tables and the page of a :class:`~assay.report.systems.PairedComparison`, laid out as
ranking's comparison is (:mod:`assay.ranking.reports`): scores with intervals and ▲/▼, then
the differences, then the omnibus tests."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .output import Report
from .table import Cell, Column, DisplayTable
from .values import short

if TYPE_CHECKING:
    from ..stats.pairs import PairResult
    from .document import Document
    from .paired import PairedComparison

__all__ = [
    "difference_cells",
    "p_text",
    "paired_comparison_document",
    "paired_comparison_report",
]

#: Differences the forest plot draws (the first ones, in table order).
PLOT_PAIRS = 40


def paired_comparison_report(cmp: PairedComparison) -> Report:
    """The scores table, the differences table, the omnibus table (when there is a test of
    all systems) and the records.

    Parameters
    ----------
    cmp : PairedComparison
        The comparison.

    Returns
    -------
    Report
        Its tables and records; JSON adds the settings, notes and provenance.
    """
    from .paired import PAIRED_COMPARISON_FIELDS

    more = [_differences_table(cmp)]
    if cmp.omnibus:
        more.append(_omnibus_table(cmp))
    return Report(
        table=_scores_table(cmp),
        more=more,
        records=cmp.records(),
        columns=PAIRED_COMPARISON_FIELDS,
        key="records",
        document={
            "settings": {
                "baseline": cmp.baseline,
                "test": cmp.test,
                "correction": cmp.correction,
                "alpha": cmp.alpha,
                "confidence": cmp.confidence,
                "unit": cmp.unit,
                "n": cmp.n,
            },
            "omnibus": {name: res.records() for name, res in cmp.omnibus.items()},
            "notes": list(cmp.notes),
            "provenance": dict(cmp.provenance),
        },
    )


def paired_comparison_document(cmp: PairedComparison) -> Document:
    """The report's tables as one section, then a forest plot of the differences.

    Parameters
    ----------
    cmp : PairedComparison
        The comparison.

    Returns
    -------
    dict
        The document (:mod:`assay.report.document`).
    """
    from .document import section
    from .sections_tasks import tables_document

    title = f"{cmp.family.capitalize()}: systems against {cmp.baseline}"
    forest = _forest(cmp)
    extra = [section("Differences against the baseline", forest)] if forest else []
    return tables_document(title, cmp.family, cmp.report(), sections=extra)


def _scores_table(cmp: PairedComparison) -> DisplayTable:
    columns = [Column("system", latex="System", style="bold")]
    columns += [Column(m, align="right") for m in cmp.metrics]
    rows: list[list[Cell | str]] = []
    for system in cmp.systems:
        cells: list[Cell | str] = [system]
        for m in cmp.metrics:
            low, high = cmp.intervals.get(m, {}).get(system, (math.nan, math.nan))
            note = "" if math.isnan(low) and math.isnan(high) else f"[{short(low)}, {short(high)}]"
            cells.append(
                Cell(short(cmp.scores[m][system]), marks=cmp.markers(system, m), note=note)
            )
        rows.append(cells)
    caption = f"score over {cmp.n} {cmp.unit} [{100 * cmp.confidence:g}% CI]"
    legend = (
        f"▲/▼: significantly better/worse than {cmp.baseline} ({cmp.test} test, "
        f"{cmp.correction} correction per metric, alpha={cmp.alpha})"
    )
    if cmp.notes:
        legend += "; " + "; ".join(cmp.notes)
    return DisplayTable(columns, rows, caption=caption, legend=legend, pivot="metric")


def _differences_table(cmp: PairedComparison) -> DisplayTable:
    columns = [
        Column("metric", latex="Metric"),
        Column("system", latex="System"),
        Column("diff [CI]", align="right", latex="$\\Delta$ [CI]"),
        Column("p (adj.)", align="right", latex="$p$ ($p_{adj}$)"),
        Column("effect", align="right"),
        Column("W/T/L", align="right"),
    ]
    rows: list[list[Cell | str]] = []
    for p in cmp.pairs:
        rows.append(
            [
                p.metric,
                p.system,
                *difference_cells(p),
                f"{p.wins}/{p.ties}/{p.losses}" if p.n else "",
            ]
        )
    caption = (
        f"diff: system - {cmp.baseline}, * significant; p (adj.): raw and corrected p-values; "
        f"effect: paired Cohen's d where the metric has a value per unit; W/T/L: {cmp.unit} "
        "where the system is better/equal/worse"
    )
    return DisplayTable(columns, rows, title="Differences", caption=caption, keys=2)


def _omnibus_table(cmp: PairedComparison) -> DisplayTable:
    columns = [
        Column("test", latex="Test"),
        Column("statistic", align="right"),
        Column("df", align="right"),
        Column("p", align="right", latex="$p$"),
    ]
    rows: list[list[Cell | str]] = []
    for name, res in cmp.omnibus.items():
        df = res.details.get("df")
        rows.append(
            [name, short(res.statistic), "" if df is None else short(df, "g"), p_text(res.pvalue)]
        )
    caption = "tests of all systems at once (no baseline)"
    return DisplayTable(columns, rows, title="All systems", caption=caption, keys=1)


def _forest(cmp: PairedComparison) -> dict[str, Any] | None:
    shown = list(cmp.pairs)[:PLOT_PAIRS]
    if not shown:
        return None

    def finite(x: float) -> float | None:
        return float(x) if math.isfinite(x) else None

    return {
        "kind": "interval",
        "title": f"Differences against {cmp.baseline}",
        "caption": f"system - {cmp.baseline} with its {100 * cmp.confidence:g}% interval",
        "columns": 1,
        "width": 8.0,
        "panels": [
            {
                "labels": [f"{p.system} ({p.metric})" for p in shown],
                "values": [finite(p.diff) for p in shown],
                "low": [finite(p.ci_low) for p in shown],
                "high": [finite(p.ci_high) for p in shown],
                "xlabel": "difference",
            }
        ],
    }


def difference_cells(pair: PairResult) -> list[Cell | str]:
    """A pair's cells of a differences table, as every comparison shows them: the difference
    (``*`` when significant) with its interval, the raw and corrected p-values, the effect
    size.

    Parameters
    ----------
    pair : PairResult
        One system against the baseline.

    Returns
    -------
    list
        The three cells.
    """
    interval = f"[{short(pair.ci_low)}, {short(pair.ci_high)}]"
    return [
        Cell(short(pair.diff), marks="*" if pair.significant else "", note=interval),
        f"{p_text(pair.p_value)} ({p_text(pair.p_adjusted)})",
        short(pair.effect_size, ".2f"),
    ]


def p_text(value: float) -> str:
    """A p-value as tables show it: 4 decimals, ``<0.0001`` below, ``nan`` when undefined.

    Parameters
    ----------
    value : float
        The p-value.

    Returns
    -------
    str
        Its text.
    """
    if math.isnan(value):
        return "nan"
    return "<0.0001" if value < 1e-4 else short(value)
