"""The result type of a ranking comparison (:class:`Comparison`), its per-run summaries
(:class:`RunSummary`) and the columns of its records (:data:`COMPARISON_FIELDS`). Every name
here is importable from :mod:`assay.results`, where they are documented to live."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._result import Result
from ..errors import AssayError
from ..report.reported import Reported
from ..stats.pairs import PairResult

if TYPE_CHECKING:
    from ..report import Report
    from ..report.document import Document
    from ..results import Results

__all__ = ["COMPARISON_FIELDS", "RISK_FIELDS", "Comparison", "RiskPair", "RunSummary", "letter"]


@dataclass(frozen=True)
class RunSummary:
    """One run x metric: the mean over queries and its confidence interval.

    Parameters
    ----------
    run : str
        The run's name.
    metric : str
        The metric's name.
    mean : float
        The mean of the per-query values.
    ci_low, ci_high : float
        The confidence interval of the mean (the comparison's ``ci_method`` and
        ``confidence``).
    n : int
        The number of queries averaged.

    Examples
    --------
    >>> from assay.results import RunSummary
    >>> s = RunSummary("bm25", "P@5", mean=0.4, ci_low=0.3, ci_high=0.5, n=20)
    >>> s.mean, (s.ci_low, s.ci_high), s.n
    (0.4, (0.3, 0.5), 20)
    """

    run: str
    metric: str
    mean: float
    ci_low: float
    ci_high: float
    n: int


@dataclass(frozen=True)
class RiskPair:
    """One run against the baseline on one metric, risk-sensitively: URisk with its interval
    and TRisk with its p-value (:func:`assay.stats.urisk`, :func:`assay.stats.trisk`), over
    the per-query differences oriented by the metric's direction (a loss is a query where
    the run is worse).

    Parameters
    ----------
    system, baseline : str
        The run and the baseline run.
    metric : str
        The metric's name.
    risk_alpha : float
        Extra weight of a loss (a loss counts 1 + risk_alpha times).
    urisk : float
        The mean risk-weighted difference (in the metric's units, better-minus-worse).
    ci_low, ci_high : float
        The t-based interval of URisk (the comparison's ``confidence``; NaN below 2 queries).
    trisk : float
        URisk over its standard error; beyond ±2, a significant gain or risk of loss.
    p_value : float
        The two-sided p-value of TRisk (Student's t, n - 1 df).
    wins, ties, losses : int
        Queries where the run is better, equal, worse by the metric's direction.
    n : int
        The paired queries.

    Examples
    --------
    >>> from assay.results import RiskPair
    >>> r = RiskPair("dense", "bm25", "ndcg@10", risk_alpha=1.0, urisk=-0.01, ci_low=-0.03,
    ...              ci_high=0.01, trisk=-1.1, p_value=0.28, wins=20, ties=5, losses=25, n=50)
    >>> r.run, r.significant(0.05)
    ('dense', False)
    """

    system: str
    baseline: str
    metric: str
    risk_alpha: float
    urisk: float
    ci_low: float
    ci_high: float
    trisk: float
    p_value: float
    wins: int
    ties: int
    losses: int
    n: int

    @property
    def run(self) -> str:
        """``system`` (ranking's name for it)."""
        return self.system

    def significant(self, alpha: float) -> bool:
        """Whether TRisk's p-value is below ``alpha``."""
        return bool(self.p_value < alpha)


def letter(i: int) -> str:
    """The marker letter of the i-th run: a, b, ..., z, aa, ab, ...

    Parameters
    ----------
    i : int
        The run's 0-based position.

    Returns
    -------
    str
        Its letter(s), as the all-pairs tables of a :class:`Comparison` mark runs.

    Examples
    --------
    >>> from assay.results import letter
    >>> [letter(i) for i in (0, 1, 25, 26, 27)]
    ['a', 'b', 'z', 'aa', 'ab']
    """
    out = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


@dataclass(frozen=True, eq=False, repr=False)
class Comparison(Reported, Result):
    """Everything :func:`assay.compare` found, with the settings that produced it.

    A :class:`RunSummary` (mean and interval) per run x metric, a
    :class:`~assay.stats.PairResult` per comparison (``pairs``), and the evaluation
    (``results``). :func:`assay.compare` builds it; ``report()`` is what ``assay compare``
    prints and ``document()`` what its ``--report`` draws.

    Parameters
    ----------
    runs : list of str
        The compared runs, in order.
    metrics : list of str
        The metrics' names.
    higher_is_better : mapping of str to bool
        Each metric's direction.
    baseline : str or None
        The run every other run is compared with; None: all pairs.
    test : str
        The significance test (``"randomization"``, ``"t"``, ``"tukey"``, ...).
    correction : str
        The multiple-comparison correction (per metric).
    alpha : float
        The significance level.
    summaries : list of RunSummary
        The mean and interval of every run x metric.
    pairs : list of PairResult
        Every comparison of two runs on one metric.
    results : Results
        The evaluation the comparison was computed from.
    provenance : mapping
        What produced it (the options: test, resamples, seed, correction, ...).
    risks : list of RiskPair
        With ``risk_alpha``: URisk and TRisk of every run against the baseline per metric.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=8, docs_per_query=5, seed=1)
    >>> cmp = assay.compare(qrels, list(runs.values())[:2], "P@5", n_resamples=200)
    >>> [(p.system, p.baseline, p.metric) for p in cmp.pairs]
    [('run2', 'run1', 'P@5')]
    >>> sorted({row["kind"] for row in cmp.records()})
    ['difference', 'mean']
    """

    family = "ranking"

    runs: list[str]
    metrics: list[str]
    higher_is_better: Mapping[str, bool]
    baseline: str | None
    test: str
    correction: str
    alpha: float
    summaries: list[RunSummary]
    pairs: list[PairResult]
    results: Results
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    risks: list[RiskPair] = field(default_factory=list)

    @property
    def settings(self) -> Mapping[str, Any]:
        """The options of the comparison (test, resamples, seed, correction, ...)."""
        return self.provenance

    def summary(self, run: str, metric: str) -> RunSummary:
        """The mean of ``run`` on ``metric`` and its interval (a ``KeyError`` if not
        compared)."""
        metric = self._label(metric)
        for s in self.summaries:
            if s.run == run and s.metric == metric:
                return s
        raise KeyError((run, metric))

    def pair(self, run: str, baseline: str, metric: str) -> PairResult:
        """The comparison of ``run`` and ``baseline`` on ``metric``, whichever of the two
        was the baseline (a ``KeyError`` if they were not compared)."""
        metric = self._label(metric)
        for p in self.pairs:
            if p.metric == metric and {p.run, p.baseline} == {run, baseline}:
                return p
        raise KeyError((run, baseline, metric))

    def _label(self, metric: str) -> str:
        """The label a compared metric was asked by, given any spelling of it (``"AP"`` for a
        comparison of ``"map"``); unchanged when it was not compared."""
        try:
            return self.results.label_of(metric)
        except (KeyError, AssayError):
            return metric

    def letters(self) -> dict[str, str]:
        """Run -> its marker letter (a, b, c, ...) in all-pairs tables."""
        return {r: letter(i) for i, r in enumerate(self.runs)}

    def markers(self, run: str, metric: str) -> str:
        """Compact significance markers for tables.

        With a baseline: ``▲`` significantly better than the baseline, ``▼`` significantly
        worse (direction from the metric's declaration). Without one: the letters of the runs
        this run is significantly better than.
        """
        better_high = self.higher_is_better.get(metric, True)
        if self.baseline is not None:
            for p in self.pairs:
                if p.run == run and p.metric == metric and p.significant:
                    return "▲" if (p.diff > 0) == better_high else "▼"
            return ""
        letters = self.letters()
        out = []
        for p in self.pairs:
            if p.metric != metric or not p.significant:
                continue
            run_better = (p.diff > 0) == better_high
            if p.run == run and run_better:
                out.append(letters[p.baseline])
            elif p.baseline == run and not run_better:
                out.append(letters[p.run])
        return "".join(sorted(out))

    def records(self) -> list[dict[str, Any]]:
        """Machine-readable rows, every one with the fields of :data:`COMPARISON_FIELDS`: one per
        run x metric (``kind`` "mean": ``value`` the mean and its interval) and one per
        comparison (``kind`` "difference": ``value`` the mean difference run - baseline, its
        interval, the p-values, the effect size and the wins/ties/losses) and, with
        ``risk_alpha``, one per run x metric against the baseline (``kind`` "risk":
        ``value`` URisk and its interval, ``p_value`` TRisk's; the columns
        :data:`RISK_FIELDS`, risk_alpha and trisk, are added to every row)."""
        rows = [_summary_record(s) for s in self.summaries]
        rows += [_pair_record(p) for p in self.pairs]
        if not self.risks:
            return rows
        # Risk rows add two columns (RISK_FIELDS); the others leave them empty.
        rows = [{**row, "risk_alpha": None, "trisk": None} for row in rows]
        return rows + [_risk_record(r, self.alpha) for r in self.risks]

    def report(self) -> Report:
        """What ``assay compare`` prints: the means with their intervals and significance
        marks, then the differences (interval, raw and corrected p, effect size, W/T/L).

        Returns
        -------
        Report
            The tables every output format renders and the records of the machine formats.
        """
        from .reports import comparison_report

        return comparison_report(self)

    def document(self) -> Document:
        """The HTML report's content (what ``assay compare --report`` draws): the tables,
        per-query distributions and differences against the baseline (else the first run),
        and the interpolated precision-recall curves of the runs."""
        from .sections import comparison_document

        return comparison_document(self, curves=self.results.curves())

    def __repr__(self) -> str:
        from ..results import screen

        head = (
            f"Comparison({len(self.runs)} runs x {len(self.metrics)} metrics, test={self.test}, "
            f"correction={self.correction}, alpha={self.alpha}, "
            f"{'baseline=' + repr(self.baseline) if self.baseline else 'all pairs'})"
        )
        lines = []
        for m in self.metrics:
            for r in self.runs:
                s = self.summary(r, m)
                lines.append(
                    f"  {m:>14} {r}: {s.mean:.4f} [{s.ci_low:.4f}, {s.ci_high:.4f}] "
                    f"{self.markers(r, m)}"
                )
        lines.append("  differences (system - baseline [CI], p, p adjusted):")
        for p in self.pairs:
            mark = " *" if p.significant else ""
            lines.append(
                f"  {p.metric:>14} {p.system} - {p.baseline}: {p.diff:+.4f} "
                f"[{p.ci_low:.4f}, {p.ci_high:.4f}] p={p.p_value:.4g} "
                f"p_adj={p.p_adjusted:.4g}{mark}"
            )
        return screen(head, lines)


#: The fields of every comparison record, in order (TSV and CSV columns).
COMPARISON_FIELDS = (
    "kind",
    "run",
    "baseline",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "n",
    "p_value",
    "p_adjusted",
    "effect_size",
    "wins",
    "ties",
    "losses",
    "significant",
)


def _summary_record(s: RunSummary) -> dict[str, Any]:
    return {
        "kind": "mean",
        "run": s.run,
        "baseline": None,
        "metric": s.metric,
        "value": s.mean,
        "ci_low": s.ci_low,
        "ci_high": s.ci_high,
        "n": s.n,
        "p_value": None,
        "p_adjusted": None,
        "effect_size": None,
        "wins": None,
        "ties": None,
        "losses": None,
        "significant": None,
    }


def _pair_record(p: PairResult) -> dict[str, Any]:
    return {
        "kind": "difference",
        "run": p.run,
        "baseline": p.baseline,
        "metric": p.metric,
        "value": p.diff,
        "ci_low": p.ci_low,
        "ci_high": p.ci_high,
        "n": p.n,
        "p_value": p.p_value,
        "p_adjusted": p.p_adjusted,
        "effect_size": p.effect_size,
        "wins": p.wins,
        "ties": p.ties,
        "losses": p.losses,
        "significant": p.significant,
    }


#: The columns a comparison with ``risk_alpha`` adds to :data:`COMPARISON_FIELDS`.
RISK_FIELDS = ("risk_alpha", "trisk")


def _risk_record(r: RiskPair, alpha: float) -> dict[str, Any]:
    return {
        "kind": "risk",
        "run": r.run,
        "baseline": r.baseline,
        "metric": r.metric,
        "value": r.urisk,
        "ci_low": r.ci_low,
        "ci_high": r.ci_high,
        "n": r.n,
        "p_value": r.p_value,
        "p_adjusted": None,
        "effect_size": None,
        "wins": r.wins,
        "ties": r.ties,
        "losses": r.losses,
        "significant": r.significant(alpha),
        "risk_alpha": r.risk_alpha,
        "trisk": r.trisk,
    }
