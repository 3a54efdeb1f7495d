"""The metric catalogue as a report (``assay metrics``), from the rows of
:func:`assay.metrics.catalog.describe`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .output import Report
from .table import Column, DisplayTable

__all__ = ["CATALOG_COLUMNS", "catalog_report", "catalog_table"]

#: The fields of a catalogue record (TSV and CSV columns).
CATALOG_COLUMNS = (
    "name",
    "family",
    "input",
    "aliases",
    "trec_eval",
    "parameters",
    "cutoff",
    "range",
    "better",
    "aggregate",
    "summary",
)


def _record(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "name": row["name"],
        "family": row["family"],
        "input": row["input"],
        "aliases": " ".join(row["aliases"]),
        "trec_eval": " ".join(row["trec_eval"]),
        "parameters": row["params_text"],
        "cutoff": row["cutoff"],
        "range": row["range"],
        "better": "—"
        if row.get("value") == "text"
        else "higher"
        if row["higher_is_better"]
        else "lower",
        "aggregate": row["aggregate"],
        "summary": row["summary"],
    }


def _trec_meanings(row: Mapping[str, Any]) -> str:
    """What each trec_eval name of the metric means (trec_eval's defaults)."""
    return "; ".join(f"{t['name']} = {t['means']}" for t in row.get("trec_eval_names", []))


def catalog_table(
    rows: Sequence[Mapping[str, Any]],  # Any: describe()'s fields are of several types
) -> DisplayTable:
    """The metric catalogue as a display table (``assay metrics``).

    One row per metric: name (never folded, so it survives grep and copy-paste), the other
    names it answers to (aliases, trec_eval names), parameters, cutoff, range, direction and
    summary; a ``family`` column when the rows come from several families (a rule between
    families on the terminal). Prose columns wrap on a narrow terminal.

    Parameters
    ----------
    rows : sequence of mappings
        Described declarations (:func:`assay.metrics.catalog.describe`), in order.

    Returns
    -------
    DisplayTable
        The table.

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import describe
    >>> from assay.report import catalog_table
    >>> table = catalog_table([describe(REGISTRY.lookup("rmse", "regression"))])
    >>> [c.name for c in table.columns]
    ['metric', 'also', 'parameters', '@k', 'range', 'better', 'description']
    >>> list(table.rows[0][:2])
    ['rmse', 'root_mean_squared_error']
    """
    families = list(dict.fromkeys(r["family"] for r in rows))
    several = len(families) > 1
    columns = [Column("metric", style="bold")]
    if several:
        columns.append(Column("family"))
    trec = any(r.get("trec_eval_names") for r in rows)
    columns += [Column(name) for name in ("also", "parameters", "@k", "range", "better")]
    columns.append(Column("description"))
    if trec:  # trec_eval's names and what they mean (trec_eval's defaults)
        columns.append(Column("trec_eval"))
    cells = []
    sections = set()
    for i, r in enumerate(rows):
        rec = _record(r)
        also = " ".join(r["aliases"] if trec else [*r["aliases"], *r["trec_eval"]])
        cells.append(
            [
                rec["name"],
                *([rec["family"]] if several else []),
                also,
                rec["parameters"],
                rec["cutoff"],
                rec["range"],
                rec["better"],
                rec["summary"],
                *([_trec_meanings(r)] if trec else []),
            ]
        )
        if several and i + 1 < len(rows) and rows[i + 1]["family"] != r["family"]:
            sections.add(i)
    return DisplayTable(columns, cells, sections=frozenset(sections), pivot="field", wrap=True)


def catalog_report(
    rows: Sequence[Mapping[str, Any]],  # Any: describe()'s fields are of several types
) -> Report:
    """The metric catalogue in every output format (``assay metrics --format``).

    The table is :func:`catalog_table`'s; the records have the fields of
    :data:`CATALOG_COLUMNS`; JSON keeps each metric's full description (parameters with
    their documentation, the docstring) under ``described``.

    Parameters
    ----------
    rows : sequence of mappings
        Described declarations (:func:`assay.metrics.catalog.describe`), in order.

    Returns
    -------
    Report
        The report.

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> from assay.metrics.catalog import describe
    >>> from assay.report import catalog_report
    >>> report = catalog_report([describe(REGISTRY.lookup("rmse", "regression"))])
    >>> print(report.render("csv").splitlines()[1][:48])
    rmse,regression,values,root_mean_squared_error,,
    """
    return Report(
        table=catalog_table(rows),
        records=[_record(r) for r in rows],
        columns=CATALOG_COLUMNS,
        key="metrics",
        document={"described": [dict(r) for r in rows]},
    )
