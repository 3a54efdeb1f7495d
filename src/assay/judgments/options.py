"""The choices of the judgments family's options, as ``Literal`` types (typing only: importing
this module loads nothing else, so a CLI module can use it at module level). Their
validators are :func:`assay._options.choice` and friends.

>>> from typing import get_args
>>> from assay.judgments.options import Duplicates
>>> get_args(Duplicates)
('error', 'keep')
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "CrowdMethod",
    "DawidSkeneInit",
    "Duplicates",
    "GradeRule",
    "LabelTies",
    "MaceMethod",
    "Outcome",
    "PairwiseMethod",
    "TableFormat",
    "TieModel",
]

#: A worker labelling the same task twice: an error, or two votes (crowd-kit).
Duplicates = Literal["error", "keep"]
#: What a winner value of a comparison means.
Outcome = Literal["left", "right", "tie"]
#: The label aggregation methods (:func:`assay.judgments.aggregate_labels`).
CrowdMethod = Literal[
    "majority_vote", "wawa", "zbs", "dawid_skene", "one_coin_dawid_skene", "glad", "mace"
]
#: The table formats the family reads (comparisons, crowd labels, judgments) and writes
#: (aggregated labels).
TableFormat = Literal["csv", "tsv", "jsonl", "parquet"]
#: How a label is chosen among labels of equal largest posterior: the label first seen in
#: the input rows, the lowest label code (the classes' order), or a seeded uniform draw.
LabelTies = Literal["first_seen", "lowest", "random"]
#: Where Dawid–Skene's EM starts: the majority vote's posteriors (crowd-kit's start).
DawidSkeneInit = Literal["majority_vote"]
#: How MACE's M-step updates its parameters: variational Bayes with priors, or EM with smoothing.
MaceMethod = Literal["vb", "em"]
#: A method that scores items from pairwise comparisons.
PairwiseMethod = Literal[
    "counting", "average_win_rate", "bradley_terry", "newman", "elo", "eigen", "pagerank"
]
#: How Bradley–Terry treats a tie: half a win for each side, or Davidson's (1970) model.
TieModel = Literal["half", "davidson"]
#: How a (query, document)'s aggregated grade is read from its posterior over the grades: the
#: method's own label (the most probable grade, the method's tie rule), or the grade of the
#: scale nearest to the posterior's expected grade (halfway: the higher).
GradeRule = Literal["argmax", "expected"]
