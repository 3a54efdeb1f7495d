"""Ground truth from people: crowd label aggregation with worker quality, relevance judgments
from crowds, and leaderboards from pairwise comparisons.

Public names load on first use (:mod:`assay._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import LazyNames

_LAZY = {
    # the inputs
    "WINNERS": "comparisons",
    "Comparisons": "comparisons",
    "read_comparisons": "comparisons",
    "CrowdLabels": "labels",
    "read_crowd_labels": "labels",
    # label aggregation: the declared methods, any of them by name, the result
    "majority_vote": "aggregation",
    "wawa": "aggregation",
    "zbs": "aggregation",
    "dawid_skene": "aggregation",
    "one_coin_dawid_skene": "aggregation",
    "glad": "aggregation",
    "mace": "aggregation",
    "aggregate_labels": "aggregation",
    "LabelAggregation": "crowd_result",
    # pairwise comparisons: one score per item, and the leaderboard with intervals
    "ItemScores": "pairwise",
    "counting": "pairwise",
    "average_win_rate": "pairwise",
    "bradley_terry": "pairwise",
    "newman": "pairwise",
    "elo": "pairwise",
    "eigen": "pairwise",
    "pagerank": "pairwise",
    "Leaderboard": "board",
    "leaderboard": "board",
    # relevance judgments from crowds
    "CrowdQrels": "crowd_qrels_result",
    "crowd_qrels": "relevance",
}


if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .aggregation import aggregate_labels as aggregate_labels
    from .aggregation import dawid_skene as dawid_skene
    from .aggregation import glad as glad
    from .aggregation import mace as mace
    from .aggregation import majority_vote as majority_vote
    from .aggregation import one_coin_dawid_skene as one_coin_dawid_skene
    from .aggregation import wawa as wawa
    from .aggregation import zbs as zbs
    from .board import Leaderboard as Leaderboard
    from .board import leaderboard as leaderboard
    from .comparisons import WINNERS as WINNERS
    from .comparisons import Comparisons as Comparisons
    from .comparisons import read_comparisons as read_comparisons
    from .crowd_qrels_result import CrowdQrels as CrowdQrels
    from .crowd_result import LabelAggregation as LabelAggregation
    from .labels import CrowdLabels as CrowdLabels
    from .labels import read_crowd_labels as read_crowd_labels
    from .pairwise import ItemScores as ItemScores
    from .pairwise import average_win_rate as average_win_rate
    from .pairwise import bradley_terry as bradley_terry
    from .pairwise import counting as counting
    from .pairwise import eigen as eigen
    from .pairwise import elo as elo
    from .pairwise import newman as newman
    from .pairwise import pagerank as pagerank
    from .relevance import crowd_qrels as crowd_qrels

_NAMES = LazyNames(__name__, globals(), _LAZY)


__getattr__ = _NAMES.get
__dir__ = _NAMES.listing


__all__ = list(_LAZY)
