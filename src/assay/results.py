"""Result types of ranking evaluation (:class:`Results`) and comparison
(:class:`Comparison`). Like every assay result they are frozen and follow one protocol:
``records()`` (flat rows), ``to_pandas()`` and ``provenance``; they build their own outputs
(:class:`~assay.report.Reported`): ``report()`` (what ``assay evaluate`` and ``assay
compare`` print), ``document()`` and ``html()`` (what ``--report`` writes) and a notebook
view. One system against the baseline is :class:`assay.stats.PairResult`."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from ._result import REPR_LIMIT, Result
from .data import Conventions, Qrels, Run
from .errors import AssayWarning
from .metrics import Metric, parse_all
from .report.reported import Reported
from .stats.pairs import PairResult

__all__ = [
    "COMPARISON_FIELDS",
    "Comparison",
    "MetricValues",
    "PairResult",
    "Results",
    "RunInputs",
    "RunSummary",
    "aggregate",
    "letter",
]

if TYPE_CHECKING:
    import pandas as pd

    from .report import Report
    from .report.document import Document

GM_FLOOR = 1e-5  # trec_eval's MIN_GEO_MEAN


def aggregate(values: np.ndarray, how: str) -> float:
    """A metric's declared aggregate: arithmetic mean, geometric mean (floored) or sum."""
    if how == "sum":
        return float(values.sum())
    if len(values) == 0:
        return float("nan")
    if how == "gmean":
        return float(np.exp(np.mean(np.log(np.maximum(values, GM_FLOOR)))))
    return float(values.mean())


@dataclass(frozen=True, eq=False)
class MetricValues(Result):
    """One run x metric: per-query values, the aggregate, and how many queries were skipped."""

    run: str
    metric: str
    queries: np.ndarray
    values: np.ndarray
    aggregate: float
    undefined: int = 0  # queries where the metric was undefined (handled by no_relevant)
    skipped: int = 0
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return float(self.aggregate)

    def as_dict(self) -> dict[str, float]:
        return dict(zip(self.queries.tolist(), self.values.tolist(), strict=True))

    def records(self) -> list[dict[str, Any]]:
        """One row per query: run, metric, query, value, and ``aggregate`` None (the field
        that marks the aggregate rows of :meth:`Results.records`)."""
        return [
            {"run": self.run, "metric": self.metric, "query": q, "value": v, "aggregate": None}
            for q, v in zip(self.queries.tolist(), self.values.tolist(), strict=True)
        ]

    def __repr__(self) -> str:
        return f"{self.metric}[{self.run}] = {self.aggregate:.4f} over {len(self.values)} queries"


@dataclass(frozen=True)
class RunInputs:
    """What an evaluation was computed from, kept by :func:`assay.evaluate` so that the
    result's report can evaluate more (its precision-recall curves) on the same data: the
    qrels, each run by name (a :class:`~assay.data.Run`, or the path of a run file read in
    blocks) and the ``depth``. Not part of the records or the provenance."""

    qrels: Qrels
    runs: Mapping[str, Run | str]
    depth: int | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Results(Reported, Result):
    """Per-query values for every run x metric, aggregates, conventions and provenance.

    ``inputs`` (left out of comparisons, records and provenance) are the qrels and runs
    :func:`assay.evaluate` evaluated, from which :meth:`document` draws the interpolated
    precision-recall curves; None for results built otherwise (then the report has none).

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=4, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:1], ["P@5", "map"])
    >>> res.runs, res.metric_names
    (['run1'], ['P@5', 'AP'])
    >>> res.mean()
    {'run1': {'P@5': 0.25, 'AP': 0.75}}
    """

    family = "ranking"

    runs: list[str]
    metrics: list[Metric]
    conventions: Conventions
    data: Mapping[tuple[str, str], MetricValues]
    warnings: list[str] = field(default_factory=list)
    provenance: Mapping[str, Any] = field(default_factory=dict)
    inputs: RunInputs | None = field(default=None, compare=False)

    @property
    def metric_names(self) -> list[str]:
        """The evaluated metrics' names, in order (``"AP"`` for ``"map"``: the canonical
        name)."""
        return [str(m) for m in self.metrics]

    def _label(self, metric: str | Metric) -> str:
        if isinstance(metric, Metric):
            return str(metric)
        if metric in self.metric_names:
            return metric
        parsed = parse_all(metric)
        if len(parsed) != 1 or str(parsed[0]) not in self.metric_names:
            raise KeyError(f"metric {metric!r} was not evaluated; have {self.metric_names}")
        return str(parsed[0])

    def __getitem__(self, key: tuple[str, str | Metric]) -> MetricValues:
        """``res[run, metric]``: one run's :class:`MetricValues` for one metric (any
        spelling of an evaluated metric: ``"map"`` finds ``"AP"``)."""
        run, metric = key
        if run not in self.runs:
            raise KeyError(f"run {run!r} was not evaluated; have {self.runs}")
        return self.data[(run, self._label(metric))]

    def per_query(self, run: str, metric: str | Metric) -> dict[str, float]:
        """One run's per-query values of one metric.

        Parameters
        ----------
        run : str
            The run's name.
        metric : str or Metric
            An evaluated metric (any spelling of it).

        Returns
        -------
        dict
            ``{query: value}``, in the qrels' query order.

        Examples
        --------
        >>> import assay
        >>> res = assay.evaluate({"q1": {"d1": 1}}, {"a": {"q1": {"d1": 1.0}}}, "P@1")
        >>> res.per_query("a", "P@1")
        {'q1': 1.0}
        """
        return self[run, metric].as_dict()

    def aggregate(self, run: str, metric: str | Metric) -> float:
        """One run's aggregate of one metric (its declared rule: the mean, except counts,
        summed, and ``gm_map``, a geometric mean).

        Parameters
        ----------
        run : str
            The run's name.
        metric : str or Metric
            An evaluated metric (any spelling of it).

        Returns
        -------
        float
            The aggregate (NaN with no query).

        Examples
        --------
        >>> import assay
        >>> res = assay.evaluate({"q1": {"d1": 1}}, {"a": {"q1": {"d1": 1.0}}}, "map")
        >>> res.aggregate("a", "map")
        1.0
        """
        return self[run, metric].aggregate

    def mean(self) -> dict[str, dict[str, float]]:
        """Every run's aggregates.

        Each metric aggregates by its declaration: the arithmetic mean, except counts
        (summed, as trec_eval) and gm_map (geometric mean).

        Returns
        -------
        dict
            ``{run: {metric: aggregate}}``.

        Examples
        --------
        >>> import assay
        >>> res = assay.evaluate({"q1": {"d1": 1}}, {"a": {"q1": {"d1": 1.0}}}, ["P@1", "num_ret"])
        >>> res.mean()
        {'a': {'P@1': 1.0, 'num_ret': 1.0}}
        """
        return {r: {m: self.data[(r, m)].aggregate for m in self.metric_names} for r in self.runs}

    def records(self, *, per_query: bool = False) -> list[dict[str, Any]]:
        """Rows ``{run, metric, query, value, aggregate}``. An aggregate row has ``query``
        None and ``aggregate`` the metric's rule ("mean", "gmean" or "sum"); a per-query row
        has ``aggregate`` None. Any string, ``"all"`` included, is a query id: a sentinel id
        would collide with a real query of that name. With ``per_query=True`` each run and
        metric gives its per-query rows, then its aggregate row.

        Parameters
        ----------
        per_query : bool
            Also the per-query rows.

        Returns
        -------
        list of dict
            The rows (what TSV, CSV, JSON Lines and JSON are written from).
        """
        rows: list[dict[str, Any]] = []
        for r in self.runs:
            for m in self.metrics:
                mv = self.data[(r, str(m))]
                if per_query:
                    rows.extend(mv.records())
                rows.append(
                    {
                        "run": r,
                        "metric": str(m),
                        "query": None,
                        "value": mv.aggregate,
                        "aggregate": m.spec.aggregate,
                    }
                )
        return rows

    def to_dict(self, *, per_query: bool = False) -> dict[str, Any]:
        """The aggregates as nested dicts, or the per-query values in pytrec_eval's layout.

        Parameters
        ----------
        per_query : bool
            The per-query values instead of the aggregates.

        Returns
        -------
        dict
            ``{run: {metric: aggregate}}``, or with ``per_query=True``
            ``{run: {query: {metric: value}}}``.
        """
        if not per_query:
            return self.mean()
        out: dict[str, dict[str, dict[str, float]]] = {}
        for r in self.runs:
            per: dict[str, dict[str, float]] = {}
            for m in self.metric_names:
                for q, v in self.data[(r, m)].as_dict().items():
                    per.setdefault(q, {})[m] = v
            out[r] = per
        return out

    def to_arrow(self, *, per_query: bool = True) -> pa.Table:
        """Long table (run, metric, query, value, aggregate) of :meth:`records`: the per-query
        rows (``aggregate`` null), or the aggregates (``query`` null)."""
        rows = [
            x for x in self.records(per_query=per_query) if (x["aggregate"] is None) == per_query
        ]
        return pa.table(
            {
                "run": pa.array([x["run"] for x in rows], pa.string()),
                "metric": pa.array([x["metric"] for x in rows], pa.string()),
                "query": pa.array([x["query"] for x in rows], pa.string()),
                "value": pa.array([x["value"] for x in rows], pa.float64()),
                "aggregate": pa.array([x["aggregate"] for x in rows], pa.string()),
            }
        )

    def to_pandas(self, *, per_query: bool = True) -> pd.DataFrame:
        """Long table (run, metric, query, value, aggregate): per-query rows, or the
        aggregates (see :meth:`to_arrow`)."""
        from ._optional import require

        require("pandas")
        return self.to_arrow(per_query=per_query).to_pandas()

    def report(self, *, per_query: bool = False) -> Report:
        """The aggregates of every run x metric as ``assay evaluate`` prints them (with
        ``per_query``, each run's per-query values first).

        Parameters
        ----------
        per_query : bool
            Also show every query's value (``assay evaluate -q``).

        Returns
        -------
        Report
            The table every output format renders and the records of the machine formats.
        """
        from .ranking.reports import results_report

        return results_report(self, per_query=per_query)

    def curves(self) -> Results | None:
        """The runs evaluated with ``iprec_at_recall`` (the interpolated precision at 11
        recall levels) under the same conventions and depth, for the report's
        precision-recall plot; None when the inputs were not kept (see :class:`RunInputs`).
        The queries it would warn about were already named by this result: it is silent."""
        if self.inputs is None:
            return None
        from .evaluation import evaluate

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AssayWarning)
            return evaluate(
                self.inputs.qrels,
                dict(self.inputs.runs),
                ["iprec_at_recall"],
                depth=self.inputs.depth,
                **self.conventions.to_dict(),
            )

    def document(self) -> Document:
        """The HTML report's content (what ``assay evaluate --report`` draws): the runs x
        metrics table, per-query distributions, differences against the first run and the
        interpolated precision-recall curves."""
        from .ranking.sections import results_document

        return results_document(self, curves=self.curves())

    def __repr__(self) -> str:
        head = (
            f"Results({len(self.runs)} run(s) x {len(self.metrics)} metric(s); "
            f"conventions {self.conventions.to_dict()})"
        )
        lines = []
        for r in self.runs:
            vals = ", ".join(f"{m}={self.data[(r, m)].aggregate:.4f}" for m in self.metric_names)
            lines.append(f"  {r}: {vals}")
        return screen(head, lines)


def screen(head: str, lines: list[str]) -> str:
    """``head`` and as many of ``lines`` as fit in :data:`~assay._result.REPR_LIMIT`
    characters (long lines cut), then how many were left out."""
    out, used = [head], len(head)
    for i, line in enumerate(lines):
        line = line if len(line) <= 160 else line[:159] + "…"
        rest = len(lines) - i
        if used + len(line) + 1 > REPR_LIMIT - 40:
            out.append(f"  … {rest} more line{'s' if rest > 1 else ''}")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


# ---------------------------------------------------------------- comparisons


@dataclass(frozen=True)
class RunSummary:
    """One run x metric: the mean over queries and its confidence interval."""

    run: str
    metric: str
    mean: float
    ci_low: float
    ci_high: float
    n: int


def letter(i: int) -> str:
    """The marker letter of the i-th run: a, b, ..., z, aa, ab, ..."""
    out = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


@dataclass(frozen=True, eq=False, repr=False)
class Comparison(Reported, Result):
    """Everything :func:`assay.compare` found, with the settings that produced it: a
    :class:`RunSummary` (mean and interval) per run x metric, a
    :class:`~assay.stats.PairResult` per comparison (``pairs``), and the evaluation
    (``results``).

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
    provenance: Mapping[str, Any] = field(default_factory=dict)

    @property
    def settings(self) -> Mapping[str, Any]:
        """The options of the comparison (test, resamples, seed, correction, ...)."""
        return self.provenance

    def summary(self, run: str, metric: str) -> RunSummary:
        """The mean of ``run`` on ``metric`` and its interval (a ``KeyError`` if not
        compared)."""
        for s in self.summaries:
            if s.run == run and s.metric == metric:
                return s
        raise KeyError((run, metric))

    def pair(self, run: str, baseline: str, metric: str) -> PairResult:
        """The comparison of ``run`` and ``baseline`` on ``metric``, whichever of the two
        was the baseline (a ``KeyError`` if they were not compared)."""
        for p in self.pairs:
            if p.metric == metric and {p.run, p.baseline} == {run, baseline}:
                return p
        raise KeyError((run, baseline, metric))

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
        interval, the p-values, the effect size and the wins/ties/losses)."""
        rows = [_summary_record(s) for s in self.summaries]
        rows += [_pair_record(p) for p in self.pairs]
        return rows

    def report(self) -> Report:
        """What ``assay compare`` prints: the means with their intervals and significance
        marks, then the differences (interval, raw and corrected p, effect size, W/T/L).

        Returns
        -------
        Report
            The tables every output format renders and the records of the machine formats.
        """
        from .ranking.reports import comparison_report

        return comparison_report(self)

    def document(self) -> Document:
        """The HTML report's content (what ``assay compare --report`` draws): the tables,
        per-query distributions and differences against the baseline (else the first run),
        and the interpolated precision-recall curves of the runs."""
        from .ranking.sections import comparison_document

        return comparison_document(self, curves=self.results.curves())

    def __repr__(self) -> str:
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
