"""Reports of the task families: named values (clustering, agreement); classification's
labelled measures are :mod:`assay.classification.document`'s and rank aggregation's consensus
ranking :mod:`assay.fusion.report`'s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .output import Report
from .table import Column, DisplayTable
from .values import short

__all__ = ["values_report"]


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
