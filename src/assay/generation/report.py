"""The report of a generation comparison (:class:`~assay.generation.SystemComparison`):
each system is a row, each metric a column; a cell shows the corpus score with its bootstrap
interval and, against the baseline, the corrected p-value and a ▲/▼ mark; the legend says
how the intervals and tests were made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..report.output import Report
from ..report.table import Cell, Column, DisplayTable
from ..report.values import short

if TYPE_CHECKING:
    from ._significance import SystemComparison

__all__ = ["GENERATION_COLUMNS", "generation_report", "records_report"]

GENERATION_COLUMNS = (
    "system",
    "metric",
    "baseline",
    "score",
    "mean",
    "ci_low",
    "ci_high",
    "pvalue",
    "p_adjusted",
    "significant",
)


def generation_report(cmp: SystemComparison) -> Report:
    """Systems x metrics: corpus score [bootstrap interval], p against the baseline, marks
    (what ``assay generation`` prints; also ``cmp.report()``).

    Parameters
    ----------
    cmp
        A comparison of :func:`~assay.generation.compare_systems`.

    Returns
    -------
    Report
        The table (every display format) and the records (TSV, CSV, JSON).

    Examples
    --------
    >>> from assay.generation import compare_systems, generation_report
    >>> cmp = compare_systems(references=["a b c d"], systems={"s": ["a b c d"]}, metrics=["ter"])
    >>> print(generation_report(cmp).render("csv"), end="")
    system,metric,baseline,score,mean,ci_low,ci_high,pvalue,p_adjusted,significant
    s,ter,True,0.0,0.0,0.0,0.0,nan,nan,False
    """
    columns = [Column("system", latex="System", style="bold")]
    columns += [Column(m, align="right") for m in cmp.metrics]
    rows: list[list[Cell | str]] = []
    several = len(cmp.systems) > 1
    for s in cmp.systems:
        label = f"{s} (baseline)" if several and s == cmp.baseline else s
        cells: list[Cell | str] = [label]
        for m in cmp.metrics:
            row = cmp[s, m]
            spec = ".4f" if m.startswith("rouge") else ".2f"
            text = short(row.score, spec)
            interval = f"[{short(row.ci_low, spec)}, {short(row.ci_high, spec)}]"
            if row.p_adjusted is not None:
                interval += f" p={short(row.p_adjusted)}"
            cells.append(Cell(text, marks=cmp.marker(s, m), note=interval))
        rows.append(cells)
    return Report(
        table=DisplayTable(columns, rows, legend=_legend(cmp), pivot="metric"),
        records=cmp.records(),
        columns=GENERATION_COLUMNS,
        key="records",
        document={"provenance": cmp.provenance, "signatures": dict(cmp.signatures)},
    )


def _legend(cmp: SystemComparison) -> str:
    prov = cmp.provenance
    conf = round(100 * float(prov["confidence"]))
    notes = [f"score [{conf}% bootstrap interval, {prov['ci_resamples']} resamples]"]
    if len(cmp.systems) > 1:
        notes.append(
            f"p: paired {cmp.test} test against {cmp.baseline} ({prov['n_resamples']} "
            f"resamples, seed {prov['seed']}), {cmp.correction} correction per metric; "
            f"▲/▼ significantly better/worse at alpha={cmp.alpha}"
        )
    notes += [f"{m}: {sig}" for m, sig in cmp.signatures.items()]
    return "; ".join(notes)


def records_report(
    records: Sequence[Mapping[str, Any]], provenance: Mapping[str, Any], *, caption: str = ""
) -> Report:
    """A one-system score's report: its records as a table (numbers right-aligned, shown
    by :func:`~assay.report.values.short`), with the provenance in the document."""
    columns = list(dict.fromkeys(k for r in records for k in r))
    numeric = {c for c in columns if all(isinstance(r.get(c), int | float) for r in records)}
    table = DisplayTable(
        [Column(c, align="right" if c in numeric else "left") for c in columns],
        [[short(r.get(c, "")) for c in columns] for r in records],
        caption=caption,
        keys=0,
    )
    return Report(table, list(records), columns, document={"provenance": dict(provenance)})
