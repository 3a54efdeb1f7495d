"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts, and
the task files of the other families (:mod:`assay.io.tasks`: labels, scores, clusterings,
ratings, votes).

The task readers load on first use, so reading a TREC run does not import them.
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY = {
    name: "tasks"
    for name in (
        "Clustering",
        "Ratings",
        "read_clustering",
        "read_labels",
        "read_ratings",
        "read_scores",
        "read_votes",
    )
}


_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
