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
    trec = any(r.get("trec_eval_names") for r in rows)
    columns += [
        Column(name, no_wrap=False, fold=True)
        for name in ("parameters", "@k", "range", "better", "description")
    ]
    if trec:  # trec_eval's names and what they mean (trec_eval's defaults)
        columns.append(Column("trec_eval", no_wrap=False, fold=True))
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
                "—" if r.get("value") == "text" else "higher" if r["higher_is_better"] else "lower",
                r["summary"],
                *(
                    ["; ".join(f"{t['name']} = {t['means']}" for t in r["trec_eval_names"])]
                    if trec
                    else []
                ),
            ]
        )
        if several and i + 1 < len(rows) and rows[i + 1]["family"] != r["family"]:
            sections.add(i)
    return DisplayTable(columns, cells, sections=frozenset(sections))
