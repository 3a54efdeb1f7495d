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

__all__ = ["Duplicates", "MaceMethod", "Outcome", "PairwiseMethod", "TieModel"]

#: A worker labelling the same task twice: an error, or two votes (crowd-kit).
Duplicates = Literal["error", "keep"]
#: What a winner value of a comparison means.
Outcome = Literal["left", "right", "tie"]
#: A method that scores items from pairwise comparisons.
PairwiseMethod = Literal[
    "counting", "average_win_rate", "bradley_terry", "newman", "elo", "eigen", "pagerank"
]
#: How Bradley–Terry treats a tie: half a win for each side, or Davidson's (1970) model.
TieModel = Literal["half", "davidson"]
#: How MACE's M-step updates its parameters: variational Bayes with priors, or EM with smoothing.
MaceMethod = Literal["vb", "em"]
