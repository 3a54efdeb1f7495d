"""The report page's section of two hard clusterings: their contingency table (a table and a
heatmap, :func:`contingency_section`), counted by :func:`crosstab`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..report.document import section
from ..report.sections_tasks import heatmap
from ..report.table import Cell, Column, DisplayTable

__all__ = ["contingency_section", "crosstab"]


def contingency_section(gold: Sequence[Any], pred: Sequence[Any]) -> dict[str, Any]:
    """The contingency table of two hard clusterings (items aligned): heatmap and table."""
    rows, cols, counts = crosstab(gold, pred)
    table = DisplayTable(
        [Column("gold \\ pred"), *(Column(c, align="right") for c in cols)],
        [[Cell(r), *(Cell(str(int(v))) for v in counts[i])] for i, r in enumerate(rows)],
        title="Contingency table",
        caption="Items in each gold cluster (rows) and predicted cluster (columns); clusters "
        "are numbered from 0 in the order they first appear in their file.",
    )
    plot = heatmap(
        "Contingency table", rows, cols, counts, xlabel="predicted cluster", ylabel="gold cluster"
    )
    return section("Contingency table", plot, table)


def crosstab(gold: Sequence[Any], pred: Sequence[Any]) -> tuple[list[str], list[str], Any]:
    """(gold labels, predicted labels, counts): the contingency table of two labellings."""
    g_names, g = _codes(gold)
    p_names, p = _codes(pred)
    counts = np.zeros((len(g_names), len(p_names)), dtype=np.int64)
    np.add.at(counts, (g, p), 1)
    return g_names, p_names, counts


def _codes(labels: Sequence[Any]) -> tuple[list[str], np.ndarray]:
    """Sorted distinct labels (numbers in numeric order) and each item's index among them."""
    values = np.asarray(labels)
    if values.dtype.kind not in "iuf":
        values = np.asarray([str(x) for x in labels])
    names, codes = np.unique(values, return_inverse=True)
    return [str(n) for n in names.tolist()], codes
