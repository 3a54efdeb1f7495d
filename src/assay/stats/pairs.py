"""One system against the baseline: :class:`PairResult`, the one shape every family's
comparison uses for it (ranking's ``compare``, tagging's, regression's and generation's)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["PairResult"]


@dataclass(frozen=True)
class PairResult:
    """``system`` against ``baseline`` on ``metric``: the difference, its interval and test, and
    the wins, ties and losses over the paired units.

    ``better`` says whether ``system`` scores better by the metric's direction (None when
    equal), ``direction`` is +1 / -1 when significantly better / worse and 0 otherwise, and
    ``run`` is ``system`` (ranking's name for it).

    Parameters
    ----------
    system, baseline : str
        The compared system and the system to beat.
    metric : str
        The metric, e.g. "ndcg@10".
    diff : float
        system − baseline, in the metric's units.
    ci_low, ci_high : float
        Confidence interval of ``diff`` (NaN where the family's test gives none).
    p_value : float
        The test's p-value.
    p_adjusted : float
        The p-value after the multiple-comparison correction.
    significant : bool
        ``p_adjusted < alpha``.
    higher_is_better : bool, default True
        The metric's direction (a loss, an error rate: False).
    effect_size : float, default NaN
        The effect size (NaN where not computed).
    wins, ties, losses : int, default 0
        Paired units on which ``system`` is better, equal, worse by the metric's direction.
    n : int, default 0
        Paired units (queries, sentences, items); 0 where the comparison is of corpus scores.

    Examples
    --------
    >>> from assay.stats import PairResult
    >>> pair = PairResult(system="dense", baseline="bm25", metric="ndcg@10", diff=0.031,
    ...                   ci_low=0.012, ci_high=0.050, p_value=0.004, p_adjusted=0.008,
    ...                   significant=True, wins=31, ties=4, losses=15, n=50)
    >>> pair.better, pair.direction, pair.run
    (True, 1, 'dense')
    >>> error = PairResult(system="b", baseline="a", metric="mae", diff=0.2, ci_low=0.05,
    ...                    ci_high=0.35, p_value=0.01, p_adjusted=0.02, significant=True,
    ...                    higher_is_better=False)
    >>> error.better, error.direction
    (False, -1)
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

    @classmethod
    def from_differences(
        cls,
        system: str,
        baseline: str,
        metric: str,
        d: NDArray[np.float64],
        *,
        ci: tuple[float, float],
        p_value: float,
        p_adjusted: float,
        alpha: float,
        higher_is_better: bool = True,
    ) -> PairResult:
        """The pair of a metric with a value per unit: ``d`` = system − baseline per unit
        gives ``diff`` (its mean), the paired Cohen's d (mean / sd, NaN under 2 units) and
        the wins, ties and losses by the metric's direction.

        Parameters
        ----------
        system, baseline, metric : str
            As the fields.
        d : numpy.ndarray
            The per-unit differences, system − baseline.
        ci : tuple of float
            The interval of the mean difference.
        p_value, p_adjusted : float
            The test's p-value, raw and corrected.
        alpha : float
            ``significant`` is ``p_adjusted < alpha``.
        higher_is_better : bool
            The metric's direction.

        Returns
        -------
        PairResult
            The pair.

        Examples
        --------
        >>> import numpy as np
        >>> from assay.stats import PairResult
        >>> pair = PairResult.from_differences("b", "a", "mae", np.array([-0.1, 0.0, 0.2]),
        ...     ci=(-0.1, 0.2), p_value=0.6, p_adjusted=0.6, alpha=0.05, higher_is_better=False)
        >>> pair.wins, pair.ties, pair.losses, round(pair.diff, 4)
        (1, 1, 1, 0.0333)
        """
        from .paired import cohens_d_paired

        better = d if higher_is_better else -d  # wins and losses follow the metric's direction
        effect = float(cohens_d_paired(d, np.zeros_like(d))) if len(d) > 1 else math.nan
        return cls(
            system=system,
            baseline=baseline,
            metric=metric,
            diff=float(d.mean()) if len(d) else math.nan,
            ci_low=ci[0],
            ci_high=ci[1],
            p_value=p_value,
            p_adjusted=p_adjusted,
            significant=bool(p_adjusted < alpha),
            higher_is_better=higher_is_better,
            effect_size=effect,
            wins=int((better > 0).sum()),
            ties=int((d == 0).sum()),
            losses=int((better < 0).sum()),
            n=len(d),
        )

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
