"""The choices of fusion's and rank aggregation's options, as ``Literal`` types (typing
only: importing this module loads nothing else, so a CLI module can use it at module level).
Their validators are :func:`assay._options.choice` and friends.

>>> from typing import get_args
>>> from assay.fusion.options import Partial
>>> get_args(Partial)
('zero', 'average')
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "FUSION_ALIASES",
    "NORMALIZATION_ALIASES",
    "AggregationMethod",
    "FusionMethod",
    "Normalization",
    "Partial",
    "QueryOrder",
    "Search",
]

#: The run fusion methods of :func:`assay.fusion.fuse`.
FusionMethod = Literal[
    "combsum",
    "combmnz",
    "combanz",
    "combmax",
    "combmin",
    "combmed",
    "combgmnz",
    "wsum",
    "rrf",
    "isr",
    "borda",
    "condorcet",
]
#: ranx's and the literature's short names for fusion methods.
FUSION_ALIASES = {
    "sum": "combsum",
    "mnz": "combmnz",
    "anz": "combanz",
    "max": "combmax",
    "min": "combmin",
    "med": "combmed",
    "gmnz": "combgmnz",
    "bordafuse": "borda",
}
#: The per-query score normalisations applied before fusion.
Normalization = Literal["none", "min-max", "max", "sum", "zscore", "rank", "borda"]
#: Other spellings of the normalisations (None: none).
NORMALIZATION_ALIASES = {None: "none", "min_max": "min-max", "minmax": "min-max", "zmuv": "zscore"}
#: How run files list their queries, for fusion block by block (:func:`assay.fusion.fuse_files`).
QueryOrder = Literal["auto", "bytes", "numeric"]
#: The rank aggregation methods of :func:`assay.fusion.aggregate`.
AggregationMethod = Literal["borda", "weighted_borda", "dowdall", "copeland", "kemeny", "mc4"]
#: Points a ranking gives the candidates it omits (:func:`assay.fusion.aggregate`).
Partial = Literal["zero", "average"]
#: How :func:`assay.fusion.optimize_fusion` searches the weights.
Search = Literal["grid", "random"]
