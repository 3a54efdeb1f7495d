"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts, and
the task files of the other families (:mod:`assay.io.tasks`: labels, scores, clusterings,
votes). Ratings are read by :mod:`assay.agreement` (``assay.io.read_ratings`` and
``assay.io.Ratings`` still resolve, with a DeprecationWarning).

The task readers load on first use, so reading a TREC run does not import them.
"""

from __future__ import annotations

from typing import Any

from .._lazy import LazyNames

_LAZY = {
    name: "tasks"
    for name in (
        "Clustering",
        "read_clustering",
        "read_labels",
        "read_scores",
        "read_votes",
    )
}


#: Readers moved to their family's package: still resolved here, with a DeprecationWarning.
_MOVED = {
    "Ratings": "assay.agreement",
    "read_ratings": "assay.agreement",
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
