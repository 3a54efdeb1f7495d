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

__all__ = ["CrowdMethod", "Duplicates", "GradeRule", "Outcome"]

#: A worker labelling the same task twice: an error, or two votes (crowd-kit).
Duplicates = Literal["error", "keep"]
#: What a winner value of a comparison means.
Outcome = Literal["left", "right", "tie"]
#: How a (query, document)'s aggregated grade is read from its posterior over the grades: the
#: method's own label (the most probable grade, the method's tie rule), or the posterior's
#: expected grade rounded to the nearest grade value (halves up).
GradeRule = Literal["argmax", "expected"]
#: The label aggregation methods (:func:`assay.judgments.aggregate_labels`).
CrowdMethod = Literal[
    "majority_vote", "wawa", "zbs", "dawid_skene", "one_coin_dawid_skene", "glad", "mace"
]
