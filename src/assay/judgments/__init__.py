"""Ground truth from people: crowd label aggregation with worker quality, relevance judgments
from crowds, and leaderboards from pairwise comparisons.

Public names load on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY: dict[str, str] = {}

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
