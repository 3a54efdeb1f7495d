"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts, the
lines and columns every task file shares (:mod:`assay.io.lines`) and the task files not yet
in a family's package (:mod:`assay.io.tasks`: ratings, votes). Labels and scores are read by
:mod:`assay.classification`, clusterings by :mod:`assay.clustering` (``assay.io.read_labels``,
``read_scores``, ``read_clustering`` and ``Clustering`` still resolve, with a
DeprecationWarning).

The task readers load on first use, so reading a TREC run does not import them.
"""

from __future__ import annotations

from typing import Any

from .._lazy import LazyNames

_LAZY = {
    name: "tasks"
    for name in (
        "Ratings",
        "read_ratings",
        "read_votes",
    )
}

#: Readers moved to their family's package: still resolved here, with a DeprecationWarning.
_MOVED = {
    "Clustering": "assay.clustering",
    "read_clustering": "assay.clustering",
    "read_labels": "assay.classification",
    "read_scores": "assay.classification",
}


_NAMES = LazyNames(__name__, globals(), _LAZY)


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        import warnings
        from importlib import import_module

        home = _MOVED[name]
        warnings.warn(f"assay.io.{name} moved to {home}.{name}", DeprecationWarning, stacklevel=2)
        return getattr(import_module(home), name)
    return _NAMES.get(name)


__dir__ = _NAMES.listing


__all__ = list(_LAZY)
