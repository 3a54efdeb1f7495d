"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts, and
the task files of the other families (:mod:`assay.io.tasks`: labels, scores, clusterings,
ratings, votes).

The task readers load on first use, so reading a TREC run does not import them.
"""

from __future__ import annotations

from typing import Any

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


_NAMES = LazyNames(__name__, globals(), {n: f"{__name__}.{m}" for n, m in _LAZY.items()})


def __getattr__(name: str) -> Any:
    return _NAMES.get(name)


def __dir__() -> list[str]:
    return _NAMES.listing()


__all__ = list(_LAZY)
