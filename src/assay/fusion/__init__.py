"""Rank aggregation (:func:`aggregate`) and run fusion (:func:`fuse`, :func:`optimize_fusion`).

**Rank aggregation** (:mod:`assay.fusion.aggregation`) combines lists of candidates (votes,
best first, possibly partial) into a consensus order: Borda, weighted Borda, Dowdall, Copeland
(Condorcet), Kemeny–Young and MC4.

**Run fusion** (:mod:`assay.fusion.methods`) combines scored runs query by query: CombSUM,
CombMNZ, CombANZ, CombMAX, CombMIN, CombMED, CombGMNZ, weighted sum, reciprocal rank fusion,
inverse square rank, BordaFuse and Condorcet, after a per-query score normalisation; scores
match ranx's ``fuse`` to rounding. :mod:`assay.fusion.optimize` chooses the run weights or the
RRF constant (``rrf_k``) that maximise a metric on training queries.
:func:`fuse_files` (:mod:`assay.fusion.streaming`) fuses run files block by block, for runs
too large to hold together, with the same output.

Options are keyword-only and validated (``method``, ``norm``, ``partial``, ``weights``,
``rrf_k``, ``depth``, ...): a bad one raises :class:`~assay.errors.OptionError`.
"""

from __future__ import annotations

from .aggregation import AGGREGATE_METHODS, Consensus, aggregate
from .methods import FUSION_METHODS, NORMS, fuse
from .optimize import FusionOptimum, optimize_fusion
from .streaming import FusionSummary, QueryOrderError, fuse_files

__all__ = [
    "AGGREGATE_METHODS",
    "FUSION_METHODS",
    "NORMS",
    "Consensus",
    "FusionOptimum",
    "FusionSummary",
    "QueryOrderError",
    "aggregate",
    "fuse",
    "fuse_files",
    "optimize_fusion",
]
