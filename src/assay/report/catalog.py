"""The metric catalogue as a display table (``assay metrics``), from the rows of
:func:`assay.metrics.catalog.describe`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .table import Column, DisplayTable

__all__ = ["catalog_table"]


def catalog_table(rows: Sequence[Mapping[str, Any]]) -> DisplayTable:
    """One row per metric: name (never folded, so it survives grep and copy-paste),
    parameters, cutoff, range, direction, summary. A ``family`` column is added when the
    rows come from more than one family (a rule between families on the terminal)."""
    families = list(dict.fromkeys(r["family"] for r in rows))
    several = len(families) > 1
    columns = [Column("metric")]
    if several:
        columns.append(Column("family"))
    columns += [
        Column(name, no_wrap=False, fold=True)
        for name in ("parameters", "@k", "range", "better", "description")
    ]
    cells = []
    sections = set()
    for i, r in enumerate(rows):
        cells.append(
            [
                r["name"],
                *([r["family"]] if several else []),
                r["params_text"],
                r["cutoff"],
                r["range"],
                "higher" if r["higher_is_better"] else "lower",
                r["summary"],
            ]
        )
        if several and i + 1 < len(rows) and rows[i + 1]["family"] != r["family"]:
            sections.add(i)
    return DisplayTable(columns, cells, sections=frozenset(sections))
