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

# ruff: noqa: F401  (the TYPE_CHECKING imports are the names __all__ lists, for mypy)
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .._lazy import LazyNames

if TYPE_CHECKING:  # the names mypy and editors see; at run time they load on first use
    from .evaluation import ClusteringEvaluation
    from .evaluation import evaluate as evaluate  # re-exported for mypy --strict
    from .measures import (
        PRF,
        ClusteringReport,
        ClusterPairCounts,
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
    from .reader import (
        Clustering,
        read_clustering,
    )
    from .reader import read_clusterings as read_clusterings  # re-exported for mypy --strict
    from .soft import (
        labels_to_clusters,
        nipu,
        nmpu,
        nmpu_f1,
        soft_pair_counts,
        soft_pairwise,
        soft_report,
    )


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
}

#: Old names still resolved, with a DeprecationWarning: ``PairCounts`` was renamed so that it
#: is not mistaken for :class:`assay.stats.concordance.PairCounts` (concordant pairs).
_RENAMED = {"PairCounts": "ClusterPairCounts"}

_NAMES = LazyNames(__name__, globals(), _LAZY)


def __getattr__(name: str) -> Any:
    # The measures module first, whatever name is asked for: it declares the family's metrics
    # (and imports the soft ones) in their documented order.
    import_module(f"{__name__}.measures")
    if name in _RENAMED:
        import warnings

        new = _RENAMED[name]
        warnings.warn(
            f"assay.clustering.{name} is now assay.clustering.{new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return _NAMES.get(new)
    return _NAMES.get(name)


__dir__ = _NAMES.listing


__all__ = list(_LAZY)
