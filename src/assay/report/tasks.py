"""Reports of the task families: named values (clustering, agreement) and a consensus ranking
(rank aggregation); classification's labelled measures are
:mod:`assay.classification.document`'s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .output import Report
from .table import Column, DisplayTable
from .values import short

__all__ = ["consensus_report", "values_report"]


def values_report(
    values: Mapping[str, Any], *, caption: str = "", document: Mapping[str, Any] | None = None
) -> Report:
    """``{metric: value}``: rows ``metric, value``; JSON adds ``document``."""
    table = DisplayTable(
        [Column("metric", latex="Metric"), Column("value", align="right", latex="Value")],
        [[m, short(v)] for m, v in values.items()],
        caption=caption,
    )
    return Report(
        table=table,
        records=[{"metric": m, "value": v} for m, v in values.items()],
        columns=("metric", "value"),
        document=document or {},
    )


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
