"""One call for what ``assay cluster`` prints and draws: :func:`evaluate` measures a predicted
clustering against a gold one, choosing the measures that apply, and gives a
:class:`ClusteringEvaluation`, whose :meth:`~ClusteringEvaluation.report` is the table the CLI
prints and whose :meth:`~ClusteringEvaluation.document` is its ``--report`` page (with the
contingency table of two hard clusterings).

A clustering is **hard** when every item is in exactly one cluster with no explicit weight.
When both are hard over the same items, every hard-clustering measure is computed (pair
counts, pairwise P/R/F1, Rand, ARI, Fowlkes–Mallows, purity, inverse purity and their F1, NMI
and AMI (arithmetic mean), B-Cubed P/R/F1) and nmPU / niPU / F1. Otherwise — an overlapping or
weighted clustering, or hard clusterings of different item sets (a note says so) — the
soft-clustering measures: nmPU, niPU and their F1 (normalized weights), and pairwise P/R/F1
over co-membership pairs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .._result import Result, provenance
from ..report.reported import Reported
from ._core import ClusteringReport
from .reader import Clustering

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["ClusteringEvaluation", "evaluate"]


@dataclass(frozen=True, repr=False, eq=False)
class ClusteringEvaluation(Reported, Result):
    """The measures of a predicted clustering against a gold one, with the two clusterings.

    ``records()``: one row ``{"metric", "value"}`` per measure. Built by :func:`evaluate`.

    Parameters
    ----------
    kind : {"hard", "soft"}
        Whether the clusterings were measured as hard or soft ones.
    measures : ClusteringReport
        The measures, by name.
    gold, pred : Clustering
        The gold and the predicted clustering.
    notes : tuple of str
        What the CLI prints as warnings (hard clusterings of different items, measured as
        soft ones).
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.clustering import Clustering, evaluate
    >>> gold = Clustering("gold", "clusters", [{"a": 1.0, "b": 1.0}, {"c": 1.0}], False)
    >>> pred = Clustering("pred", "clusters", [{"a": 1.0, "b": 1.0, "c": 1.0}], False)
    >>> ev = evaluate(gold, pred)
    >>> ev.kind, ev.notes, round(ev.measures["inverse_purity"], 4)
    ('hard', (), 1.0)
    """

    kind: Literal["hard", "soft"]
    measures: ClusteringReport
    gold: Clustering
    pred: Clustering
    notes: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    family = "clustering"

    def records(self) -> list[dict[str, Any]]:
        return self.measures.records()

    def report(self) -> Report:
        from ..report.tasks import values_report

        g, p = self.gold, self.pred
        meta = {
            "kind": self.kind,
            "gold": {"path": g.source, "layout": g.layout, "hard": g.hard},
            "pred": {"path": p.source, "layout": p.layout, "hard": p.hard},
        }
        caption = (
            f"{self.kind} clusterings; gold: {g.source} ({g.layout}), pred: {p.source} ({p.layout})"
        )
        return values_report(dict(self.measures), caption=caption, document=meta)

    def document(self) -> Document:
        from ..report.sections_tasks import tables_document
        from .document import contingency_section

        sections = []
        if self.kind == "hard":
            sections.append(contingency_section(*_aligned(self.gold, self.pred)))
        return tables_document("Clustering", "clustering", self.report(), sections=sections)

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v:.4g}" for k, v in list(self.measures.items())[:8])
        more = len(self.measures) - 8
        tail = f", … {more} more" if more > 0 else ""
        return (
            f"ClusteringEvaluation(kind={self.kind!r}, gold={self.gold!r}, pred={self.pred!r}, "
            f"{shown}{tail})"
        )


def evaluate(gold: Clustering, pred: Clustering) -> ClusteringEvaluation:
    """The measures of ``pred`` against ``gold``: the hard ones when both are hard over the
    same items, else the soft ones (see the module documentation).

    Parameters
    ----------
    gold, pred
        The gold and the predicted clustering (:func:`~assay.clustering.read_clustering`).

    Returns
    -------
    ClusteringEvaluation
        ``report()`` the table ``assay cluster`` prints, ``document()`` and
        ``html(title=...)`` its report page.

    Examples
    --------
    >>> from assay.clustering import Clustering, evaluate
    >>> gold = Clustering("gold", "clusters", [{"a": 1.0, "b": 1.0}, {"c": 1.0}], False)
    >>> pred = Clustering("pred", "clusters", [{"a": 1.0}, {"b": 1.0, "c": 1.0}], False)
    >>> r = evaluate(gold, pred)
    >>> r.kind, round(r.measures["purity"], 4)
    ('hard', 0.6667)
    """
    from .measures import hard_report
    from .soft import soft_report

    notes: list[str] = []
    settings = provenance(measure="evaluate", gold=gold.source, pred=pred.source)
    if gold.hard and pred.hard:
        if gold.items == pred.items:
            measures = hard_report(*_aligned(gold, pred))
            return ClusteringEvaluation("hard", measures, gold, pred, (), settings)
        only_gold, only_pred = len(gold.items - pred.items), len(pred.items - gold.items)
        notes.append(
            f"{only_gold} item(s) only in {gold.source}, {only_pred} only in {pred.source}: "
            "hard-clustering measures need the same items; printing the soft-clustering "
            "measures (nmPU, niPU, pairwise)"
        )
    measures = soft_report(gold.clusters, pred.clusters)
    return ClusteringEvaluation("soft", measures, gold, pred, tuple(notes), settings)


def _aligned(gold: Clustering, pred: Clustering) -> tuple[list[int], list[int]]:
    """The cluster numbers of every item in both hard clusterings, items sorted."""
    g, p = gold.labels(), pred.labels()
    items = sorted(gold.items)
    return [g[i] for i in items], [p[i] for i in items]
