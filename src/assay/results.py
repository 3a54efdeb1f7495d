"""Result types of ranking evaluation (:class:`Results`) and comparison
(:class:`Comparison`). Like every assay result they are frozen and follow one protocol:
``records()`` (flat rows), ``to_pandas()`` and ``provenance``; they build their own outputs
(:class:`~assay.report.Reported`): ``report()`` (what ``assay evaluate`` and ``assay
compare`` print), ``document()`` and ``html()`` (what ``--report`` writes) and a notebook
view. One system against the baseline is :class:`assay.stats.PairResult`. The comparison
types (:class:`Comparison`, :class:`RunSummary`, :class:`RiskPair`,
:data:`COMPARISON_FIELDS`, :data:`RISK_FIELDS`, :func:`letter`) are defined in :mod:`assay.ranking.comparison_result` and imported from
here."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyarrow as pa

from ._result import REPR_LIMIT, Result
from .data import Conventions, Qrels, Run
from .errors import AssayWarning
from .metrics import Metric, parse_all
from .ranking.comparison_result import (
    COMPARISON_FIELDS,
    RISK_FIELDS,
    Comparison,
    RiskPair,
    RunSummary,
    letter,
)
from .report.reported import Reported
from .stats.pairs import PairResult

__all__ = [
    "COMPARISON_FIELDS",
    "RISK_FIELDS",
    "Comparison",
    "MetricValues",
    "PairResult",
    "Results",
    "RiskPair",
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
    """A metric's declared aggregate: arithmetic mean, geometric mean (floored) or sum.

    The geometric mean is exp(mean(log(max(x, 1e-5)))), trec_eval's ``gm_map`` rule (values
    below ``MIN_GEO_MEAN`` = 1e-5 are raised to it); with no value, the mean and the
    geometric mean are NaN and the sum is 0.

    Parameters
    ----------
    values : numpy.ndarray
        The per-query values.
    how : str
        The rule: ``"mean"``, ``"gmean"`` or ``"sum"`` (any other: the mean).

    Returns
    -------
    float
        The aggregate.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.results import aggregate
    >>> v = np.array([0.5, 0.0, 1.0])
    >>> aggregate(v, "mean"), aggregate(v, "sum"), round(aggregate(v, "gmean"), 4)
    (0.5, 1.5, 0.0171)
    """
    if how == "sum":
        return float(values.sum())
    if len(values) == 0:
        return float("nan")
    if how == "gmean":
        return float(np.exp(np.mean(np.log(np.maximum(values, GM_FLOOR)))))
    return float(values.mean())


@dataclass(frozen=True, eq=False)
class MetricValues(Result):
    """One run x metric: per-query values, the aggregate, and how many queries were skipped.

    What ``results[run, metric]`` gives (:class:`Results`); ``float()`` of it is the
    aggregate and :meth:`as_dict` the ``{query: value}`` mapping.

    Parameters
    ----------
    run : str
        The run's name.
    metric : str
        The metric's canonical name.
    queries : numpy.ndarray
        The query ids, in the qrels' order.
    values : numpy.ndarray
        One value per query, aligned with ``queries``.
    aggregate : float
        The metric's aggregate of ``values`` (see :func:`aggregate`).
    undefined : int
        Queries where the metric was undefined (handled by the ``no_relevant`` convention).
    skipped : int
        Queries left out.
    provenance : mapping
        What produced it.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=4, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:1], "map")
    >>> mv = res["run1", "map"]
    >>> mv
    map[run1] = 0.7500 over 4 queries
    >>> mv.as_dict(), mv.undefined
    ({'q1': 1.0, 'q2': 1.0, 'q3': 1.0, 'q4': 0.0}, 1)
    """

    run: str
    metric: str
    queries: np.ndarray
    values: np.ndarray
    aggregate: float
    undefined: int = 0  # queries where the metric was undefined (handled by no_relevant)
    skipped: int = 0
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

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
    blocks) and the ``depth``. Not part of the records or the provenance.

    Parameters
    ----------
    qrels : Qrels
        The relevance judgements.
    runs : mapping of str to Run or str
        Each run by name: a :class:`~assay.data.Run`, or the path of a run file.
    depth : int or None
        The ranking depth evaluated (None: every document).

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=4, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:1], "P@5")
    >>> list(res.inputs.runs), res.inputs.depth
    (['run1'], None)
    """

    qrels: Qrels
    runs: Mapping[str, Run | str]
    depth: int | None = None


@dataclass(frozen=True, eq=False, repr=False)
class Results(Reported, Result):
    """Per-query values for every run x metric, aggregates, conventions and provenance.

    ``inputs`` (left out of comparisons, records and provenance) are the qrels and runs
    :func:`assay.evaluate` evaluated, from which :meth:`document` draws the interpolated
    precision-recall curves; None for results built otherwise (then the report has none).
    :func:`assay.evaluate` builds it.

    Parameters
    ----------
    runs : list of str
        The evaluated runs' names, in order.
    metrics : list of Metric
        The evaluated metrics.
    conventions : Conventions
        The conventions the values were computed under.
    data : mapping of (str, str) to MetricValues
        ``{(run, metric name): MetricValues}``.
    warnings : list of str
        What the evaluation warned about.
    provenance : mapping
        What produced it (assay's version, the options, the inputs).
    inputs : RunInputs or None
        The qrels and runs evaluated (see :class:`RunInputs`).

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=4, docs_per_query=5, seed=1)
    >>> res = assay.evaluate(qrels, list(runs.values())[:1], ["P@5", "map"])
    >>> res.runs, res.metric_names
    (['run1'], ['P@5', 'map'])
    >>> res.canonical_names, res.mean()
    (['P@5', 'AP'], {'run1': {'P@5': 0.25, 'map': 0.75}})
    """

    family = "ranking"

    runs: list[str]
    metrics: list[Metric]
    conventions: Conventions
    data: Mapping[tuple[str, str], MetricValues]
    warnings: list[str] = field(default_factory=list)
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    inputs: RunInputs | None = field(default=None, compare=False)

    @property
    def metric_names(self) -> list[str]:
        """The evaluated metrics' labels, in order: each as it was asked for (``"map"``,
        ``"ndcg_cut.20"``; :attr:`canonical_names` gives assay's own names)."""
        return [str(m) for m in self.metrics]

    @property
    def canonical_names(self) -> list[str]:
        """The evaluated metrics' canonical names, in order (``"AP"`` for ``"map"``)."""
        return [m.canonical for m in self.metrics]

    def label_of(self, metric: str | Metric) -> str:
        """The label of an evaluated metric, given any spelling of it.

        Parameters
        ----------
        metric : str or Metric
            An evaluated metric: its label, another name of it or the Metric.

        Returns
        -------
        str
            The label it was evaluated under (a ``KeyError`` if it was not evaluated).

        Examples
        --------
        >>> import assay
        >>> res = assay.evaluate({"q1": {"d1": 1}}, {"a": {"q1": {"d1": 1.0}}}, "map")
        >>> res.label_of("AP"), res.label_of("average_precision")
        ('map', 'map')
        """
        if isinstance(metric, str) and metric in self.metric_names:
            return metric
        parsed = [metric] if isinstance(metric, Metric) else parse_all(metric)
        for m in self.metrics:
            if len(parsed) == 1 and m == parsed[0]:
                return str(m)
        raise KeyError(f"metric {str(metric)!r} was not evaluated; have {self.metric_names}")

    def __getitem__(self, key: tuple[str, str | Metric]) -> MetricValues:
        """``res[run, metric]``: one run's :class:`MetricValues` for one metric (any
        spelling of an evaluated metric: ``"AP"`` finds ``"map"``)."""
        run, metric = key
        if run not in self.runs:
            raise KeyError(f"run {run!r} was not evaluated; have {self.runs}")
        return self.data[(run, self.label_of(metric))]

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
        return cast("pd.DataFrame", self.to_arrow(per_query=per_query).to_pandas())

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
