"""One system against the baseline: :class:`PairResult`, the one shape every family's
comparison uses for it (ranking's ``compare``, tagging's, regression's and generation's)."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["PairResult"]


@dataclass(frozen=True)
class PairResult:
    """``system`` against ``baseline`` on ``metric``: ``diff`` = system − baseline in the
    metric's units, its confidence interval (``ci_low``, ``ci_high``; NaN where the family's
    test gives none), the test's ``p_value`` and the ``p_adjusted`` of the correction, the
    ``effect_size`` (NaN where not computed), and over the ``n`` paired units (queries,
    sentences, items; 0 where the comparison is of corpus scores) the ``wins``, ``ties`` and
    ``losses`` of ``system`` by the metric's direction. ``significant``: ``p_adjusted <
    alpha``; ``higher_is_better``: the metric's direction (a loss, an error rate: False).
    """

    system: str
    baseline: str
    metric: str
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    p_adjusted: float
    significant: bool
    higher_is_better: bool = True
    effect_size: float = math.nan
    wins: int = 0
    ties: int = 0
    losses: int = 0
    n: int = 0

    @property
    def run(self) -> str:
        """``system`` (ranking's name for it)."""
        return self.system

    @property
    def better(self) -> bool | None:
        """Whether ``system`` scores better than ``baseline`` by the metric's direction
        (``None`` when equal), significant or not."""
        if self.diff == 0 or math.isnan(self.diff):
            return None
        return (self.diff > 0) == self.higher_is_better

    @property
    def direction(self) -> int:
        """+1 if ``system`` is significantly better than ``baseline``, -1 if significantly
        worse, 0 otherwise."""
        better = self.better
        if not self.significant or better is None:
            return 0
        return 1 if better else -1
