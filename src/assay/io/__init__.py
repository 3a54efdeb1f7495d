"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts, the
lines and columns every task file shares (:mod:`assay.io.lines`) and the one task file not in
a family's package (:mod:`assay.io.tasks`: votes, read by rank aggregation). Labels and
scores are read by :mod:`assay.classification`, clusterings by :mod:`assay.clustering`,
ratings by :mod:`assay.agreement` (``assay.io.read_labels``, ``read_scores``,
``read_clustering``, ``Clustering``, ``read_ratings`` and ``Ratings`` still resolve, with a
DeprecationWarning).

The task readers load on first use, so reading a TREC run does not import them.
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY = {"read_votes": "tasks"}

#: Readers moved to their family's package: still resolved here, with a DeprecationWarning.
_MOVED = {
    "Clustering": "assay.clustering",
    "read_clustering": "assay.clustering",
    "read_labels": "assay.classification",
    "read_scores": "assay.classification",
    "Ratings": "assay.agreement",
    "read_ratings": "assay.agreement",
}

_NAMES = LazyNames(__name__, globals(), _LAZY, moved=_MOVED)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
