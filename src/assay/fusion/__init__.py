"""Rank aggregation (:func:`aggregate`) and run fusion (:func:`fuse`, :func:`optimize_fusion`).

**Rank aggregation** (:mod:`assay.fusion.aggregation`) combines lists of candidates (votes,
best first, possibly partial) into a consensus order: Borda, weighted Borda, Dowdall, Copeland
(Condorcet), Kemeny–Young and MC4. :func:`read_votes` (:mod:`assay.fusion.votes`) reads a vote
file, one ranking per line.

**Run fusion** (:mod:`assay.fusion.methods`) combines scored runs query by query: CombSUM,
CombMNZ, CombANZ, CombMAX, CombMIN, CombMED, CombGMNZ, weighted sum, reciprocal rank fusion,
inverse square rank, BordaFuse and Condorcet, after a per-query score normalisation; scores
match ranx's ``fuse`` to rounding. :mod:`assay.fusion.optimize` chooses the run weights or the
RRF constant (``rrf_k``) that maximise a metric on training queries.
:func:`fuse_files` (:mod:`assay.fusion.streaming`) fuses run files block by block, for runs
too large to hold together, with the same output (``stream=None``: block by block only when
a run is as large as the ranking core's :data:`assay.evaluation.STREAM_BYTES`). The options'
``Literal`` types are in :mod:`assay.fusion.options`; public names load on first use.

Options are keyword-only and validated (``method``, ``norm``, ``partial``, ``weights``,
``rrf_k``, ``depth``, ...): a bad one raises :class:`~assay.errors.OptionError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import LazyNames

_LAZY = {
    "AGGREGATE_METHODS": "aggregation",
    "Consensus": "aggregation",
    "aggregate": "aggregation",
    "FUSION_METHODS": "methods",
    "NORMS": "methods",
    "fuse": "methods",
    "FusionOptimum": "optimize",
    "optimize_fusion": "optimize",
    "FusionSummary": "streaming",
    "QueryOrderError": "streaming",
    "fuse_files": "streaming",
    "read_votes": "votes",
}


if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .aggregation import AGGREGATE_METHODS as AGGREGATE_METHODS
    from .aggregation import Consensus as Consensus
    from .aggregation import aggregate as aggregate
    from .methods import FUSION_METHODS as FUSION_METHODS
    from .methods import NORMS as NORMS
    from .methods import fuse as fuse
    from .optimize import FusionOptimum as FusionOptimum
    from .optimize import optimize_fusion as optimize_fusion
    from .streaming import FusionSummary as FusionSummary
    from .streaming import QueryOrderError as QueryOrderError
    from .streaming import fuse_files as fuse_files
    from .votes import read_votes as read_votes

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
