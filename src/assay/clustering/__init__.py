"""Extrinsic evaluation of clusterings against a gold clustering.

The family's package: :mod:`~assay.clustering.measures` (hard clusterings: pair counts,
pairwise P/R/F, Rand, ARI, Fowlkes–Mallows, purity, NMI, AMI, B-Cubed) and
:mod:`~assay.clustering.soft` (overlapping, weighted clusterings: nmPU, niPU, pairwise), where
every scalar measure is declared in the metric registry (``assay metrics``,
``docs/metrics.md``) and the definitions and ill-defined cases are documented;
:mod:`~assay.clustering.reader` (clustering files), :mod:`~assay.clustering.evaluation`
(:func:`evaluate`, hard or soft, what ``assay cluster`` prints and its ``--report`` page) and
:mod:`~assay.clustering.comparison` (:func:`compare`: several clusterings against a
baseline, paired over items) and :mod:`~assay.clustering.options` (the option types). Public names load on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .._lazy import LazyNames

_LAZY = {
    # hard clusterings
    "ClusteringReport": "measures",
    "PRF": "measures",
    "ClusterPairCounts": "measures",
    "adjusted_rand_index": "measures",
    "ami": "measures",
    "bcubed": "measures",
    "fowlkes_mallows": "measures",
    "hard_report": "measures",
    "inverse_purity": "measures",
    "nmi": "measures",
    "pair_counts": "measures",
    "pairwise_f": "measures",
    "pairwise_precision": "measures",
    "pairwise_recall": "measures",
    "purity": "measures",
    "purity_f1": "measures",
    "rand_index": "measures",
    # soft (overlapping, weighted) clusterings
    "labels_to_clusters": "soft",
    "nipu": "soft",
    "nmpu": "soft",
    "nmpu_f1": "soft",
    "soft_pair_counts": "soft",
    "soft_pairwise": "soft",
    "soft_report": "soft",
    # files
    "Clustering": "reader",
    "read_clustering": "reader",
    "read_clusterings": "reader",
    # what `assay cluster` prints and draws
    "ClusteringEvaluation": "evaluation",
    "evaluate": "evaluation",
    # several clusterings against a baseline
    "compare": "comparison",
}

#: Old names still resolved, with a DeprecationWarning: ``PairCounts`` was renamed so that it
#: is not mistaken for :class:`assay.stats.concordance.PairCounts` (concordant pairs).
_RENAMED = {"PairCounts": "assay.clustering.measures:ClusterPairCounts"}

if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .comparison import compare as compare
    from .evaluation import ClusteringEvaluation as ClusteringEvaluation
    from .evaluation import evaluate as evaluate
    from .measures import PRF as PRF
    from .measures import ClusteringReport as ClusteringReport
    from .measures import ClusterPairCounts as ClusterPairCounts
    from .measures import adjusted_rand_index as adjusted_rand_index
    from .measures import ami as ami
    from .measures import bcubed as bcubed
    from .measures import fowlkes_mallows as fowlkes_mallows
    from .measures import hard_report as hard_report
    from .measures import inverse_purity as inverse_purity
    from .measures import nmi as nmi
    from .measures import pair_counts as pair_counts
    from .measures import pairwise_f as pairwise_f
    from .measures import pairwise_precision as pairwise_precision
    from .measures import pairwise_recall as pairwise_recall
    from .measures import purity as purity
    from .measures import purity_f1 as purity_f1
    from .measures import rand_index as rand_index
    from .reader import Clustering as Clustering
    from .reader import read_clustering as read_clustering
    from .reader import read_clusterings as read_clusterings
    from .soft import labels_to_clusters as labels_to_clusters
    from .soft import nipu as nipu
    from .soft import nmpu as nmpu
    from .soft import nmpu_f1 as nmpu_f1
    from .soft import soft_pair_counts as soft_pair_counts
    from .soft import soft_pairwise as soft_pairwise
    from .soft import soft_report as soft_report

_NAMES = LazyNames(__name__, globals(), _LAZY, moved=_RENAMED)


def __getattr__(name: str) -> Any:
    # The measures module first, whatever name is asked for: it declares the family's metrics
    # (and imports the soft ones) in their documented order.
    import_module(f"{__name__}.measures")
    return _NAMES.get(name)


__dir__ = _NAMES.listing


__all__ = list(_LAZY)
