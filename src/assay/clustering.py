"""Extrinsic evaluation of clusterings against a gold clustering.

The public face of the clustering family; the code lives in :mod:`assay.metrics`
(:mod:`~assay.metrics.clustering` for hard clusterings, :mod:`~assay.metrics.clustering_soft`
for overlapping, weighted ones), where every scalar measure is declared in the metric registry
(``assay metrics``, ``docs/metrics.md``) and the definitions and ill-defined cases are
documented.
"""

from __future__ import annotations

from .metrics.clustering import (
    PRF,
    ClusteringReport,
    PairCounts,
    adjusted_rand_index,
    ami,
    bcubed,
    fowlkes_mallows,
    hard_report,
    inverse_purity,
    nmi,
    pair_counts,
    pairwise_f,
    pairwise_precision,
    pairwise_recall,
    purity,
    purity_f1,
    rand_index,
)
from .metrics.clustering_soft import (
    labels_to_clusters,
    nipu,
    nmpu,
    nmpu_f1,
    soft_pair_counts,
    soft_pairwise,
    soft_report,
)

__all__ = [
    "PRF",
    "ClusteringReport",
    "PairCounts",
    "adjusted_rand_index",
    "ami",
    "bcubed",
    "fowlkes_mallows",
    "hard_report",
    "inverse_purity",
    "labels_to_clusters",
    "nipu",
    "nmi",
    "nmpu",
    "nmpu_f1",
    "pair_counts",
    "pairwise_f",
    "pairwise_precision",
    "pairwise_recall",
    "purity",
    "purity_f1",
    "rand_index",
    "soft_pair_counts",
    "soft_pairwise",
    "soft_report",
]
