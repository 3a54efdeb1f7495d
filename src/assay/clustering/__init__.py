"""Extrinsic evaluation of clusterings against a gold clustering.

The family's package: :mod:`~assay.clustering.measures` (hard clusterings: pair counts,
pairwise P/R/F, Rand, ARI, Fowlkes–Mallows, purity, NMI, AMI, B-Cubed) and
:mod:`~assay.clustering.soft` (overlapping, weighted clusterings: nmPU, niPU, pairwise), where
every scalar measure is declared in the metric registry (``assay metrics``,
``docs/metrics.md``) and the definitions and ill-defined cases are documented;
:mod:`~assay.clustering.reader` (clustering files), :mod:`~assay.clustering.evaluation`
(:func:`evaluate`, hard or soft, what ``assay cluster`` prints and its ``--report`` page) and
:mod:`~assay.clustering.options` (the option types). Public names load on first use.
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY = {
    # hard clusterings
    "ClusteringReport": "measures",
    "PRF": "measures",
    "PairCounts": "measures",
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
}

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
