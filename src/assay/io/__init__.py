"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts, and
the lines and columns every task file shares (:mod:`assay.io.lines`). The task files are read
by their family's package: labels and scores by :mod:`assay.classification`, clusterings by
:mod:`assay.clustering`, ratings by :mod:`assay.agreement` and votes by :mod:`assay.fusion`
(``assay.io.read_labels``, ``read_scores``, ``read_clustering``, ``Clustering``,
``read_ratings``, ``Ratings`` and ``read_votes`` still resolve, with a DeprecationWarning).
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY: dict[str, str] = {}

#: Readers moved to their family's package: still resolved here, with a DeprecationWarning.
_MOVED = {
    "Clustering": "assay.clustering",
    "read_clustering": "assay.clustering",
    "read_labels": "assay.classification",
    "read_scores": "assay.classification",
    "Ratings": "assay.agreement",
    "read_ratings": "assay.agreement",
    "read_votes": "assay.fusion",
}

_NAMES = LazyNames(__name__, globals(), _LAZY, moved=_MOVED)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
