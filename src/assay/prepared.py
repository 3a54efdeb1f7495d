"""A prepared evaluation for training loops: the qrels, metrics, conventions and candidate
(query, document) pairs fixed once, new scores evaluated per call (:func:`prepare`).

A ranker's validation set is scored again after every epoch or every few trees. Encoding
its ids, checking them and joining them with the judgments does not change between calls;
only each query's order under the new scores does. :class:`PreparedEvaluator` does the
first once and, per call, sorts each query's rows by score and runs the metric kernels:
the values are those :func:`assay.evaluate` gives for the same pairs and scores.
"""

from __future__ import annotations

import warnings as _warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._options import Missing, NoRelevant, ShortQueries, Ties
from .data import Conventions, Qrels, QrelsLike, Run
from .data.prepared_join import PreparedJoin
from .errors import InputError
from .evaluation import (
    conventional_values,
    join_warnings,
    judged_counts,
    results_from_parts,
    setup,
)
from .metrics import Metric
from .results import MetricValues, Results, RunInputs

__all__ = ["PreparedEvaluator", "prepare"]

#: A metric value for a training framework's log: (name, value, higher is better).
Scored = tuple[str, float, bool]


class PreparedEvaluator:
    """Evaluate new scores of fixed (query, document) pairs; made by :func:`prepare`.

    Calling it with one score per pair returns every metric's aggregate (the mean over
    queries, under the conventions); :meth:`values` returns the per-query values and
    :meth:`evaluate` a full :class:`~assay.Results`, identical to :func:`assay.evaluate`'s.
    :meth:`lightgbm` and :meth:`xgboost` adapt it to those libraries' evaluation hooks.
    What the join found (queries not in the qrels, qrels queries without pairs) was said
    once, when it was prepared; calls do not repeat it.

    Parameters
    ----------
    join : PreparedJoin
        The pairs joined with the qrels under the conventions.
    metrics : list of Metric
        What every call computes.
    name : str
        The run's name in warnings and in :meth:`evaluate`'s result.
    summary : dict
        The pairs' summary in the provenance (source, queries, results).

    Examples
    --------
    >>> import assay
    >>> qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}}
    >>> ev = assay.prepare(qrels, ["P@1", "map"], queries=["q1", "q1", "q2", "q2"],
    ...                    docs=["d1", "d2", "d3", "d4"])
    >>> ev([0.9, 0.5, 0.1, 0.8])
    {'P@1': 0.5, 'map': 0.75}
    >>> ev([0.1, 0.5, 0.9, 0.8])["map"]
    0.75
    """

    def __init__(
        self,
        join: PreparedJoin,
        metrics: list[Metric],
        name: str,
        summary: dict[str, Any],  # Any: JSON values of the provenance
    ) -> None:
        self._join = join
        self.metrics = metrics
        self.name = name
        self._summary = summary
        conv = join.conventions
        needs_judged = conv.short_queries == "skip"
        self._judged = judged_counts(join.qrels, join.query_ids) if needs_judged else None

    # ------------------------------------------------------------ what it was prepared with

    @property
    def qrels(self) -> Qrels:
        """The judgments."""
        return self._join.qrels

    @property
    def conventions(self) -> Conventions:
        """The conventions every call is scored under."""
        return self._join.conventions

    @property
    def depth(self) -> int | None:
        """The documents kept per query (None: all)."""
        return self._join.depth

    @property
    def n_pairs(self) -> int:
        """How many scores a call takes."""
        return self._join.n_pairs

    @property
    def query_ids(self) -> np.ndarray:
        """The evaluated queries, in the order of :meth:`values`' arrays."""
        return self._join.query_ids

    # ------------------------------------------------------------ per call

    def _metric_values(self, scores: ArrayLike) -> tuple[dict[str, np.ndarray], Any]:
        ranked, info = self._join.rank(scores)
        return {str(m): m(ranked) for m in self.metrics}, info

    def values(self, scores: ArrayLike) -> dict[str, MetricValues]:
        """Every metric's per-query values for one score per pair.

        Parameters
        ----------
        scores : array_like
            One finite score per pair, in the order the pairs were given.

        Returns
        -------
        dict of str to MetricValues
            By metric name: the evaluated queries' values (``no_relevant`` and
            ``short_queries`` applied) and their aggregate.

        Examples
        --------
        >>> import assay
        >>> ev = assay.prepare({"q1": {"d1": 1}, "q2": {"d3": 1}}, "P@1",
        ...                    queries=["q1", "q1", "q2"], docs=["d1", "d2", "d3"])
        >>> ev.values([0.2, 0.9, 0.5])["P@1"].values
        array([0., 1.])
        """
        raw, _ = self._metric_values(scores)
        conv, queries = self.conventions, self.query_ids
        return {
            str(m): conventional_values(self.name, m, raw[str(m)], queries, conv, self._judged)[0]
            for m in self.metrics
        }

    def __call__(self, scores: ArrayLike) -> dict[str, float]:
        """Every metric's aggregate for one score per pair: ``evaluate(...).mean()`` of the
        same pairs and scores.

        Parameters
        ----------
        scores : array_like
            One finite score per pair, in the order the pairs were given.

        Returns
        -------
        dict of str to float
            By metric name, the aggregate over the evaluated queries.
        """
        return {name: float(v.aggregate) for name, v in self.values(scores).items()}

    def evaluate(self, scores: ArrayLike | Mapping[str, ArrayLike]) -> Results:
        """The full result for one or several score arrays, as :func:`assay.evaluate`
        gives it for the same pairs: values, warnings, provenance and the inputs its report
        reads.

        Parameters
        ----------
        scores : array_like or mapping of str to array_like
            One score per pair, or several such arrays by run name (one array is named
            after the evaluator's ``name``).

        Returns
        -------
        Results
            One run per score array.

        Examples
        --------
        >>> import assay
        >>> ev = assay.prepare({"q1": {"d1": 1}}, "rr", queries=["q1", "q1"], docs=["d1", "d2"])
        >>> ev.evaluate({"a": [0.9, 0.1], "b": [0.1, 0.9]}).mean()
        {'a': {'rr': 1.0}, 'b': {'rr': 0.5}}
        """
        named = dict(scores) if isinstance(scores, Mapping) else {self.name: scores}
        parts = {}
        runs: dict[str, Run | str] = {}
        for name, s in named.items():
            values, info = self._metric_values(s)
            parts[name] = (values, self.query_ids, info, self._summary)
            runs[name] = self._join.run(s, name)
        res = results_from_parts(self.qrels, parts, self.metrics, self.conventions, self.depth)
        return replace(res, inputs=RunInputs(self.qrels, runs, self.depth))

    # ------------------------------------------------------------ training libraries

    def _scored(self, scores: ArrayLike) -> list[Scored]:
        means = self(scores)
        return [(name, means[str(m)], m.spec.higher_is_better) for name, m in self._named()]

    def _named(self) -> list[tuple[str, Metric]]:
        return [(str(m), m) for m in self.metrics]

    def lightgbm(self) -> Callable[[np.ndarray, Any], list[Scored]]:  # Any: lightgbm.Dataset
        """A LightGBM ``feval``: ``lightgbm.train(..., valid_sets=[vali], feval=ev.lightgbm())``
        logs every metric after each tree (early stopping watches the first with
        ``first_metric_only=True``). The validation set's rows must be the pairs, in order.

        Returns
        -------
        callable
            ``feval(preds, dataset) -> [(name, value, higher_is_better), ...]``.

        Examples
        --------
        >>> import assay
        >>> ev = assay.prepare({"q1": {"d1": 1}}, "rr", queries=["q1", "q1"], docs=["d1", "d2"])
        >>> ev.lightgbm()([0.1, 0.9], None)
        [('rr', 0.5, True)]
        """

        def feval(preds: np.ndarray, dataset: Any) -> list[Scored]:  # Any: lightgbm.Dataset
            return self._scored(preds)

        return feval

    def xgboost(self, metric: str | None = None) -> Callable[[np.ndarray, Any], tuple[str, float]]:
        """An XGBoost ``custom_metric``: one metric (default: the first) for
        ``xgboost.train(..., custom_metric=ev.xgboost(), maximize=True)``. The evaluation
        DMatrix's rows must be the pairs, in order.

        Parameters
        ----------
        metric : str, optional
            The metric reported (its name as given to :func:`prepare`).

        Returns
        -------
        callable
            ``custom_metric(predt, dmatrix) -> (name, value)``.

        Examples
        --------
        >>> import assay
        >>> ev = assay.prepare({"q1": {"d1": 1}}, "rr", queries=["q1", "q1"], docs=["d1", "d2"])
        >>> ev.xgboost()([0.9, 0.1], None)
        ('rr', 1.0)
        """
        names = [name for name, _ in self._named()]
        chosen = names[0] if metric is None else metric
        if chosen not in names:
            raise InputError(f"metric {chosen!r} was not prepared; prepared: {', '.join(names)}")

        def custom_metric(predt: np.ndarray, dmatrix: Any) -> tuple[str, float]:  # Any: DMatrix
            return chosen, self(predt)[chosen]

        return custom_metric

    def __repr__(self) -> str:
        metrics = ", ".join(str(m) for m in self.metrics)
        return f"PreparedEvaluator({self.n_pairs} pairs, {len(self.query_ids)} queries; {metrics})"


def prepare(
    qrels: QrelsLike,
    metrics: str | Metric | Sequence[str | Metric],
    *,
    queries: ArrayLike,
    docs: ArrayLike,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    short_queries: ShortQueries = "score",
    depth: int | None = None,
    name: str = "run",
    source: str | None = None,
) -> PreparedEvaluator:
    """Prepare the evaluation of fixed (query, document) pairs under new scores.

    The pairs (a ranker's validation set, a LETOR split) are encoded, checked and joined
    with the qrels once; each call of the returned evaluator then only sorts every query's
    rows by the new scores and runs the metrics. Values are exactly those of
    ``assay.evaluate(qrels, Run.from_columns(queries, docs, scores), metrics, ...)``.

    Parameters
    ----------
    qrels : Qrels
        The judgments (a path, a data frame or a ``{query: {doc: grade}}`` dict too).
    metrics : str, Metric or a sequence of them
        What to compute (``assay metrics`` lists them).
    queries, docs : array_like or pyarrow.Array
        The query and document id of every pair, in the order scores will be given.
    ties, missing, no_relevant, judged_only, short_queries, depth
        The conventions, as in :func:`assay.evaluate`.
    name : str
        The run's name in warnings and in :meth:`PreparedEvaluator.evaluate`'s result.
    source : str, optional
        Where the pairs came from, named in messages and in the provenance.

    Returns
    -------
    PreparedEvaluator
        Call it with one score per pair.

    Examples
    --------
    >>> import assay, numpy as np
    >>> qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}}
    >>> ev = assay.prepare(qrels, ["ndcg@10", "P@1"], queries=["q1", "q1", "q2", "q2"],
    ...                    docs=["d1", "d2", "d3", "d4"])
    >>> for epoch in range(2):
    ...     scores = np.array([0.9, 0.5, 0.1, 0.8]) * (epoch + 1)
    ...     print(epoch, ev(scores))
    0 {'ndcg@10': 0.8154648767857288, 'P@1': 0.5}
    1 {'ndcg@10': 0.8154648767857288, 'P@1': 0.5}
    """
    qrels, conv, depth, metric_list = setup(
        qrels,
        metrics,
        "prepare",
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
        short_queries=short_queries,
        depth=depth,
    )
    pairs = Run.from_columns(queries, docs, np.zeros(_length(queries)), name=name, source=source)
    join = PreparedJoin(qrels, pairs, conv, depth)
    for category, message in join_warnings(name, join.info, conv):
        _warnings.warn(message, category, stacklevel=2)
    summary = {"source": pairs.source, "queries": pairs.n_queries, "results": len(pairs)}
    return PreparedEvaluator(join, metric_list, name, summary)


def _length(column: Any) -> int:  # Any: any column type Run.from_columns reads
    try:
        return len(column)
    except TypeError:
        raise InputError("queries must be a sequence or an array of ids") from None
