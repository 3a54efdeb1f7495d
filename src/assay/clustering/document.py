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


#: Most clusters on either side the page shows the contingency table of (a larger table is
#: too large to read, and its cells would grow with the square of the clusters).
MAX_CLUSTERS = 60


def contingency_section(gold: Sequence[Any], pred: Sequence[Any]) -> dict[str, Any]:
    """The contingency table of two hard clusterings (items aligned): heatmap and table; for
    more than :data:`MAX_CLUSTERS` clusters on a side, a sentence saying how many there are."""
    n_gold, n_pred = len(_codes(gold)[0]), len(_codes(pred)[0])
    if max(n_gold, n_pred) > MAX_CLUSTERS:
        return section(
            "Contingency table",
            text=f"{n_gold} gold and {n_pred} predicted clusters: the contingency table is not "
            f"shown beyond {MAX_CLUSTERS} clusters on a side (the measures above use all of it).",
        )
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
