"""Several systems against a baseline over the same paired units — the comparison result of
the families whose systems are scored on items or queries (classification, clustering,
embedding retrieval): :class:`PairedComparison`.

It holds what ranking's :class:`~assay.ranking.comparison_result.Comparison` shows, in the
same two tables: each system's score per metric with its interval and ▲/▼ against the
baseline, then one :class:`~assay.stats.PairResult` per system and metric (difference with its
interval, raw and corrected p-value, effect size, wins/ties/losses over the units), and an
omnibus test over all systems where the family has one (Cochran's Q for classifiers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._result import REPR_LIMIT, Result, short
from .reported import Reported

if TYPE_CHECKING:
    from ..stats.pairs import PairResult
    from ..stats.result import StatResult
    from .document import Document
    from .output import Report

__all__ = ["PAIRED_COMPARISON_FIELDS", "PairedComparison"]

#: The columns of the records (TSV, CSV): a ``score`` row per system and metric, then a
#: ``difference`` row per pair.
PAIRED_COMPARISON_FIELDS = (
    "kind",
    "system",
    "baseline",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "pvalue",
    "p_adjusted",
    "significant",
    "effect_size",
    "wins",
    "ties",
    "losses",
    "n",
)

#: Systems and pairs a ``repr()`` names before "… n more".
_SHOWN = 6


@dataclass(frozen=True, eq=False, repr=False)
class PairedComparison(Reported, Result):
    """Systems scored on the same units, every one against ``baseline`` on each metric.

    ``scores[metric][system]`` is the system's score, ``intervals[metric][system]`` its
    confidence interval; ``pairs`` holds one :class:`~assay.stats.PairResult` per system but
    the baseline and metric (``diff`` = system − baseline; p-values corrected together within
    each metric); ``omnibus`` names tests over all systems at once (e.g. ``"cochran_q"``).
    :meth:`report` is what the family's CLI prints with ``--baseline``, :meth:`document`
    its ``--report`` page (the tables and a forest plot of the differences).

    Parameters
    ----------
    family : str
        The family the systems belong to (``"classification"``, ``"clustering"``, ...).
    unit : str
        What the paired units are (``"items"``, ``"queries"``).
    systems : tuple of str
        The systems, in the order given (the baseline among them).
    baseline : str
        The system every other is compared with.
    metrics : tuple of str
        The metrics compared.
    scores : mapping of str to mapping of str to float
        ``scores[metric][system]``.
    intervals : mapping of str to mapping of str to tuple of float
        ``intervals[metric][system]``: the confidence interval of the score (NaN ends where
        none was computed).
    pairs : tuple of PairResult
        Every system but the baseline against it, per metric.
    test : str
        The paired test.
    correction : str
        The multiple-comparison correction, within each metric.
    alpha : float
        The significance level of ``significant``.
    confidence : float
        The level of the intervals.
    n : int
        The paired units.
    higher_is_better : mapping of str to bool
        Each metric's direction.
    omnibus : mapping of str to StatResult
        Tests of all systems at once (empty when none applies).
    notes : tuple of str
        What the reader should know (a test replaced, units left out).
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.report import PairedComparison
    >>> from assay.stats import PairResult
    >>> pair = PairResult(system="b", baseline="a", metric="accuracy", diff=0.1,
    ...                   ci_low=0.02, ci_high=0.18, p_value=0.01, p_adjusted=0.01,
    ...                   significant=True, wins=12, ties=80, losses=2, n=94)
    >>> cmp = PairedComparison(family="classification", unit="items", systems=("a", "b"),
    ...     baseline="a", metrics=("accuracy",), scores={"accuracy": {"a": 0.8, "b": 0.9}},
    ...     intervals={"accuracy": {"a": (0.72, 0.87), "b": (0.83, 0.95)}}, pairs=(pair,),
    ...     test="mcnemar", correction="holm", alpha=0.05, confidence=0.95, n=94,
    ...     higher_is_better={"accuracy": True})
    >>> cmp.pair("b").diff, cmp.markers("b", "accuracy")
    (0.1, '▲')
    >>> [r["kind"] for r in cmp.records()]
    ['score', 'score', 'difference']
    """

    # Reported's class attribute, here given per instance (field(): required, no default).
    family: str = field()
    unit: str
    systems: tuple[str, ...]
    baseline: str
    metrics: tuple[str, ...]
    scores: Mapping[str, Mapping[str, float]]
    intervals: Mapping[str, Mapping[str, tuple[float, float]]]
    pairs: tuple[PairResult, ...]
    test: str
    correction: str
    alpha: float
    confidence: float
    n: int
    higher_is_better: Mapping[str, bool]
    omnibus: Mapping[str, StatResult] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def pair(self, system: str, metric: str | None = None) -> PairResult:
        """``system`` against the baseline on ``metric`` (default: the first metric).

        Parameters
        ----------
        system : str
            A system other than the baseline.
        metric : str, optional
            One of :attr:`metrics` (default: the first).

        Returns
        -------
        PairResult
            The comparison (``KeyError`` for the baseline or an unknown name).
        """
        wanted = self.metrics[0] if metric is None else metric
        for p in self.pairs:
            if p.system == system and p.metric == wanted:
                return p
        raise KeyError((system, wanted))

    def markers(self, system: str, metric: str) -> str:
        """``▲`` when ``system`` is significantly better than the baseline on ``metric``,
        ``▼`` when significantly worse, else empty.

        Parameters
        ----------
        system, metric : str
            The system and the metric.

        Returns
        -------
        str
            The marker.
        """
        for p in self.pairs:
            if p.system == system and p.metric == metric and p.significant:
                return {1: "▲", -1: "▼"}.get(p.direction, "")
        return ""

    def records(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for metric in self.metrics:
            for system in self.systems:
                low, high = self.intervals.get(metric, {}).get(system, (math.nan, math.nan))
                rows.append(
                    {
                        "kind": "score",
                        "system": system,
                        "baseline": None,
                        "metric": metric,
                        "value": float(self.scores[metric][system]),
                        "ci_low": low,
                        "ci_high": high,
                        "n": self.n,
                    }
                )
        for p in self.pairs:
            rows.append(
                {
                    "kind": "difference",
                    "system": p.system,
                    "baseline": p.baseline,
                    "metric": p.metric,
                    "value": p.diff,
                    "ci_low": p.ci_low,
                    "ci_high": p.ci_high,
                    "pvalue": p.p_value,
                    "p_adjusted": p.p_adjusted,
                    "significant": p.significant,
                    "effect_size": p.effect_size,
                    "wins": p.wins,
                    "ties": p.ties,
                    "losses": p.losses,
                    "n": p.n,
                }
            )
        return rows

    def report(self) -> Report:
        """The scores table (▲/▼ against the baseline), the differences table and, with an
        omnibus test, its table; the records hold all of it.

        Returns
        -------
        Report
            The tables and the records (:data:`PAIRED_COMPARISON_FIELDS`).
        """
        from .paired_render import paired_comparison_report

        return paired_comparison_report(self)

    def document(self) -> Document:
        """The ``--report`` page's content: the tables, then a forest plot of every
        difference with its interval.

        Returns
        -------
        dict
            The document (:mod:`assay.report.document`).
        """
        from .paired_render import paired_comparison_document

        return paired_comparison_document(self)

    def __repr__(self) -> str:
        metric = self.metrics[0]
        scores = ", ".join(
            f"{short(s, 40)}: {self.scores[metric][s]:.4g}" for s in self.systems[:_SHOWN]
        )
        pairs = ", ".join(
            f"{short(p.system, 40)}: diff={p.diff:+.4g} p_adjusted={p.p_adjusted:.3g}"
            + ("*" if p.significant else "")
            for p in self.pairs
            if p.metric == metric
        )
        more = f", … {len(self.systems) - _SHOWN} more" if len(self.systems) > _SHOWN else ""
        others = f", +{len(self.metrics) - 1} metrics" if len(self.metrics) > 1 else ""
        text = (
            f"PairedComparison(family={self.family!r}, {metric}: {{{scores}{more}}}, "
            f"baseline={short(self.baseline, 40)}, pairs={{{pairs}}}, test={self.test!r}, "
            f"correction={self.correction!r}, n={self.n}{others})"
        )
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 1] + "…"
