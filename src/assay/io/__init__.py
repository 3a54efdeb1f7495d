"""Readers and writers: TREC text, CSV/TSV, Parquet, JSON Lines, data frames and dicts, and
the task files of the other families (:mod:`assay.io.tasks`: labels, scores, clusterings,
ratings, votes).

The task readers load on first use, so reading a TREC run does not import them.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

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


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'assay.io' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = list(_LAZY)
