"""The report of rank aggregation: a consensus ranking (:meth:`assay.fusion.Consensus.report`,
the table ``assay aggregate`` prints)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..report.output import Report
from ..report.table import Column, DisplayTable
from ..report.values import short

__all__ = ["consensus_report"]


def consensus_report(
    order: Sequence[Any],
    scores: Sequence[float],
    *,
    caption: str = "",
    settings: Mapping[str, Any] | None = None,
) -> Report:
    """A consensus ranking: rows ``rank, candidate, score`` (TSV with a header line; the
    table shows scores to 6 significant digits)."""
    rows = [
        {"rank": i, "candidate": c, "score": s}
        for i, (c, s) in enumerate(zip(order, scores, strict=True), start=1)
    ]
    table = DisplayTable(
        [
            Column("rank", align="right", latex="Rank"),
            Column("candidate", latex="Candidate"),
            Column("score", align="right", latex="Score"),
        ],
        [[str(r["rank"]), str(r["candidate"]), short(r["score"], ".6g")] for r in rows],
        caption=caption,
    )
    return Report(
        table=table,
        records=rows,
        columns=("rank", "candidate", "score"),
        document={"settings": dict(settings or {})},
    )
