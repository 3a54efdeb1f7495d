"""The result of the embedding retrieval measures: per-query values, means over queries,
per-class means and their mean, the queries left out; and :func:`neighbour_metrics`, every
measure at once from given neighbour labels (the pytorch-metric-learning oracle's input).

Conventions: :mod:`assay.embeddings.measures`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import choice, cutoff, flag
from .._result import Result, provenance
from ..errors import InputError, MetricError
from ..metrics.registry import Metric, make
from .inputs import (
    ClassCounts,
    check_consistent,
    check_neighbours,
    class_means,
    lone_warning,
    relevant_counts,
)
from .measures import DEFAULT_METRICS, MetricNames, parse_metrics, per_query_values

__all__ = ["RecordLevel", "RetrievalMetrics", "neighbour_metrics", "resolve_metrics"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
RecordLevel = Literal["summary", "class", "query"]


@dataclass(frozen=True, eq=False, repr=False)
class RetrievalMetrics(Result):
    """Embedding retrieval measures of a set of queries.

    ``values[metric]`` holds one value per query, in query order, NaN for a query left out
    (R = 0: no other reference of its class); ``relevant`` is R per query. ``classes`` are
    the classes of the evaluated queries (sorted) and ``class_values[metric]`` their
    per-class means, aligned with ``classes``. ``k`` is the cutoff given to the measures
    named without one and ``n_neighbours`` the number of neighbours looked at per query.
    :func:`~assay.embeddings.retrieval_metrics` and :func:`neighbour_metrics` build it.

    Parameters
    ----------
    metrics : tuple of str
        The measures' names, in order.
    values : mapping of str to numpy.ndarray
        One value per query of each measure (NaN for a query left out).
    query_labels : numpy.ndarray
        The label of each query.
    relevant : numpy.ndarray
        R per query.
    classes : numpy.ndarray
        The classes of the evaluated queries, sorted.
    class_sizes : numpy.ndarray
        The number of evaluated queries of each class.
    class_values : mapping of str to numpy.ndarray
        The per-class means of each measure, aligned with ``classes``.
    k : int
        The cutoff of the measures named without one.
    n_neighbours : int
        The neighbours looked at per query.
    warnings : tuple of str
        What was warned about (the queries left out).
    provenance : mapping
        What produced it.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import retrieval_metrics
    >>> x = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]])
    >>> m = retrieval_metrics(x, ["a", "a", "b", "b"], metrics=["precision@1", "map@r"])
    >>> m.mean(), m.classes.tolist()
    ({'precision@1': 1.0, 'map_at_r': 1.0}, ['a', 'b'])
    """

    metrics: tuple[str, ...]
    values: Mapping[str, FloatArray]
    query_labels: NDArray[np.generic]
    relevant: IntArray
    classes: NDArray[np.generic]
    class_sizes: IntArray
    class_values: Mapping[str, FloatArray]
    k: int
    n_neighbours: int
    warnings: tuple[str, ...]
    provenance: Mapping[str, Any]  # Any: settings of every type

    @property
    def n_queries(self) -> int:
        return int(self.relevant.size)

    @property
    def lone(self) -> NDArray[np.bool_]:
        """True for the queries left out of the means (R = 0)."""
        return cast(NDArray[np.bool_], self.relevant == 0)

    @property
    def n_lone(self) -> int:
        return int(np.count_nonzero(self.lone))

    def __getitem__(self, metric: str) -> FloatArray:
        return self.values[self._name(metric)]

    def _name(self, metric: str) -> str:
        if metric in self.values:
            return metric
        found = [str(m) for m in resolve_metrics(metric, self.k)]
        if found and found[0] in self.values:
            return found[0]
        raise MetricError(f"{metric!r} was not computed; computed: {', '.join(self.metrics)}")

    def mean(self, metric: str | None = None) -> Any:
        """Mean over the evaluated queries (micro): of one metric, or ``{metric: mean}``."""
        if metric is None:
            return {m: self.mean(m) for m in self.metrics}
        kept = self.values[self._name(metric)][~self.lone]
        return float(kept.mean()) if kept.size else math.nan

    def class_mean(self, metric: str | None = None) -> Any:
        """Mean of the per-class means (macro; pytorch-metric-learning's ``avg_of_avgs``)."""
        if metric is None:
            return {m: self.class_mean(m) for m in self.metrics}
        per_class = self.class_values[self._name(metric)]
        return float(per_class.mean()) if per_class.size else math.nan

    def per_class(self, metric: str) -> dict[Any, float]:
        """``{class: mean over its queries}`` of one metric."""
        values = self.class_values[self._name(metric)]
        return {c: float(v) for c, v in zip(self.classes.tolist(), values, strict=True)}

    def records(self, level: RecordLevel = "summary") -> list[dict[str, Any]]:
        """Flat rows. ``"summary"``: per metric its ``mean`` (over queries), ``class_mean``
        (over classes), ``n_queries`` evaluated and ``n_lone`` left out; ``"class"``: per
        metric and class, ``value`` and ``n_queries``; ``"query"``: per metric and query
        (its 0-based index and label), ``value`` (NaN when left out)."""
        level = choice(level, RecordLevel, "level")
        if level == "class":
            return [
                {"metric": m, "class": c, "value": float(v), "n_queries": int(n)}
                for m in self.metrics
                for c, v, n in zip(
                    self.classes.tolist(), self.class_values[m], self.class_sizes, strict=True
                )
            ]
        if level == "query":
            labels = self.query_labels.tolist()
            return [
                {"metric": m, "query": i, "label": labels[i], "value": float(v)}
                for m in self.metrics
                for i, v in enumerate(self.values[m].tolist())
            ]
        n_lone = self.n_lone
        return [
            {
                "metric": m,
                "mean": self.mean(m),
                "class_mean": self.class_mean(m),
                "n_queries": self.n_queries - n_lone,
                "n_lone": n_lone,
            }
            for m in self.metrics
        ]


# ---------------------------------------------------------------- building a result


def resolve_metrics(names: Any, k: int) -> list[Metric]:
    """Parsed metric names; a measure named without a cutoff that takes one gets ``k``.
    Parameters are refused here: ``exclude_self`` and the averages belong to the call."""
    out: list[Metric] = []
    for metric in parse_metrics(names):
        if metric.params != make(metric.spec, metric.k).params:
            raise MetricError(
                f"{metric}: give exclude_self as an option of the call; the result holds both "
                "averages (mean and class_mean)"
            )
        if metric.k is None and metric.spec.cutoff != "none":
            metric = make(metric.spec, k)
        out.append(metric)
    # dict.fromkeys keeps the first of each in order, in linear time (not ``in out``).
    return list(dict.fromkeys(out))


def summarise(
    metrics: Sequence[Metric],
    values: Mapping[str, FloatArray],
    labels: NDArray[Any],
    r: IntArray,
    *,
    k: int,
    n_neighbours: int,
    warning: str | None,
    settings: Mapping[str, Any],
) -> RetrievalMetrics:
    """The result of per-query ``values`` (NaN where R = 0): per-class means and provenance."""
    kept = r > 0
    classes, codes = np.unique(labels[kept], return_inverse=True)
    codes = codes.reshape(-1)
    sizes = np.bincount(codes, minlength=classes.size).astype(np.int64)
    names = tuple(str(m) for m in metrics)
    per_class = {m: class_means(values[m][kept], codes, classes.size) for m in names}
    return RetrievalMetrics(
        metrics=names,
        values=dict(values),
        query_labels=labels,
        relevant=r,
        classes=classes,
        class_sizes=sizes,
        class_values=per_class,
        k=k,
        n_neighbours=n_neighbours,
        warnings=() if warning is None else (warning,),
        provenance=provenance(**settings),
    )


def neighbour_metrics(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    metrics: MetricNames = DEFAULT_METRICS,
    k: int | None = None,
    exclude_self: bool = False,
) -> RetrievalMetrics:
    """Embedding retrieval measures from given neighbour labels (nearest first, one row per
    query, the query itself not among them), the query labels and the number of references
    of each class (``{class: count}``; with ``exclude_self`` the counts include each query).

    ``metrics``: names such as ``precision@1``, ``r_precision``, ``map@r``, ``recall@4``,
    ``recall_ir@10``, ``mrr``, ``ndcg@10``, ``map``; a measure named without a cutoff looks
    at the first ``k`` neighbours (default: every column given).

    Parameters
    ----------
    neighbour_labels, query_labels, class_counts
        As above.
    metrics, k, exclude_self
        As above.

    Returns
    -------
    RetrievalMetrics
        As :func:`~assay.embeddings.retrieval_metrics`'s.

    Examples
    --------
    >>> from assay.embeddings import neighbour_metrics
    >>> r = neighbour_metrics(
    ...     [["a"], ["b"]], ["a", "a"], {"a": 2, "b": 1}, metrics=["mrr"], exclude_self=True
    ... )
    >>> r["mrr"].tolist()
    [1.0, 0.0]
    """
    neighbours, labels = check_neighbours(neighbour_labels, query_labels)
    exclude_self = flag(exclude_self, "exclude_self")
    if not isinstance(class_counts, Mapping):
        raise InputError("class_counts must map each class to its number of references")
    k = cutoff(k) or neighbours.shape[1]
    chosen = resolve_metrics(metrics, k)
    too_far = [str(m) for m in chosen if m.k is not None and m.k > neighbours.shape[1]]
    if too_far:
        raise InputError(
            f"{', '.join(too_far)} need more than the {neighbours.shape[1]} neighbours given"
        )
    r = relevant_counts(labels, class_counts, exclude_self)
    kept = r > 0
    warning = lone_warning(int(np.count_nonzero(~kept)), labels.size)
    rel = neighbours[kept] == labels[kept][:, None]
    check_consistent(rel, r[kept])
    values = {}
    for metric in chosen:
        column = np.full(labels.size, np.nan)
        column[kept] = per_query_values(rel, r[kept], metric)
        values[str(metric)] = column
    settings = {"exclude_self": exclude_self, "k": k, "source": "given neighbour labels"}
    return summarise(
        chosen,
        values,
        labels,
        r,
        k=k,
        n_neighbours=int(neighbours.shape[1]),
        warning=warning,
        settings=settings,
    )
