"""Reports of the task families: named values (clustering, agreement); classification's
labelled measures are :mod:`assay.classification.document`'s and rank aggregation's consensus
ranking :mod:`assay.fusion.report`'s."""

from __future__ import annotations

from collections.abc import Mapping

from .output import Report
from .table import Column, DisplayTable
from .values import short

__all__ = ["values_report"]


def values_report(
    values: Mapping[str, float],
    *,
    caption: str = "",
    document: Mapping[str, object] | None = None,
) -> Report:
    """Named values as a report: rows ``metric, value`` (clustering, agreement).

    Parameters
    ----------
    values : mapping of str to float
        ``{metric: value}``, in order.
    caption : str
        Shown after the table.
    document : mapping, optional
        More JSON data written next to the records (JSON only): provenance, settings.

    Returns
    -------
    Report
        The report (values shown to 4 decimals, at full precision in the machine formats).

    Examples
    --------
    >>> from assay.report import values_report
    >>> report = values_report({"nmi": 0.5, "ari": 0.25})
    >>> print(report.render("markdown"), end="")
    | metric | value |
    |---|---:|
    | nmi | 0.5000 |
    | ari | 0.2500 |
    >>> print(report.render("tsv").splitlines()[1:])
    ['nmi\\t0.5', 'ari\\t0.25']
    """
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
