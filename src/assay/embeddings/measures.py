"""Embedding retrieval: metric-learning measures computed from each query's nearest neighbours.

Every measure here takes the labels of each query's neighbours in an embedding space, nearest
first (``neighbour_labels``, one row per query), the queries' labels and the number of
references of each class (``class_counts``), and returns the mean over the queries.
:func:`assay.embeddings.retrieval_metrics` finds the neighbours (faiss or NumPy) and computes
all of them at once, per query and per class; :func:`assay.embeddings.neighbour_metrics`
does the same from given neighbour labels.

Conventions (those of pytorch-metric-learning's ``AccuracyCalculator``, Musgrave, Belongie &
Lim, "A Metric Learning Reality Check", ECCV 2020, checked against its own test fixture):

- **R** of a query is the number of references of its class; with ``exclude_self=True``
  (the reference set is the query set, or starts with it) the counts include the query
  itself, so R = count - 1, and the query must not be among its own neighbours.
- A query with R = 0 (its class has no other reference: pytorch-metric-learning's "lone"
  query) is left out of every mean, counted and reported (a
  :class:`~assay.errors.CoverageWarning`); if every query is lone, every value is NaN.
- The **cutoff** ``k`` of a measure (``recall@4``) is a number of neighbours; without one, a
  measure looks at every neighbour given. R-Precision and MAP@R look at the first R
  neighbours; given fewer than R, they see what there is: R-Precision divides by the number
  of neighbours seen and MAP@R still by R (pytorch-metric-learning's rule;
  ``retrieval_metrics`` always finds R neighbours, so this only matters here).
- ``average="micro"`` is the mean over queries; ``"macro"`` the mean over classes of the
  per-class means (pytorch-metric-learning's ``avg_of_avgs``).
- Neighbours are compared with the query by label equality; a query's own class decides
  relevance (binary), so NDCG uses gains of 1.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import flag
from ..errors import InputError, MetricError
from ..metrics.registry import FROM_SIGNATURE, Metric, MetricSpec, Param, Peer, measure, one_of
from ..metrics.registry import REGISTRY as _REGISTRY
from .inputs import (
    ClassCounts,
    check_consistent,
    check_neighbours,
    class_means,
    lone_warning,
    relevant_counts,
)

__all__ = [
    "DEFAULT_METRICS",
    "EmbeddingAverage",
    "map_at_k",
    "map_at_r",
    "mrr",
    "ndcg",
    "parse_metrics",
    "per_query_values",
    "precision",
    "r_precision",
    "recall",
    "recall_ir",
]

FAMILY = "embedding"
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

EmbeddingAverage = Literal["micro", "macro"]

#: What ``retrieval_metrics`` computes when no metric is named (pytorch-metric-learning's three).
DEFAULT_METRICS = ("precision@1", "r_precision", "map@r")

EXCLUDE_SELF = Param(
    "exclude_self",
    FROM_SIGNATURE,
    functools.partial(flag, name="exclude_self", error=MetricError),
    "the counts include each query itself (the reference set is the query set): R = count - 1",
)
AVERAGE = Param(
    "average",
    FROM_SIGNATURE,
    one_of("average", EmbeddingAverage),
    "micro: mean over queries; macro: mean of the per-class means",
)

_measure = functools.partial(
    measure, family=FAMILY, input="neighbour labels", params=(EXCLUDE_SELF, AVERAGE)
)

# ---------------------------------------------------------------- per-query kernels
# Each takes rel (queries x neighbours, True where a neighbour has the query's class, nearest
# first), R (per query, >= 1) and k (the cutoff, <= the number of columns) and returns one
# value per query. Whole-matrix operations: no loop over queries.


def _positions(n: int) -> FloatArray:
    return np.arange(1, n + 1, dtype=np.float64)


def _precision(rel: BoolArray, r: IntArray, k: int) -> FloatArray:
    return cast(FloatArray, np.count_nonzero(rel[:, :k], axis=1) / k)


def _first_r(rel: BoolArray, r: IntArray) -> BoolArray:
    return rel & (np.arange(rel.shape[1]) < r[:, None])


def _r_precision(rel: BoolArray, r: IntArray, k: int) -> FloatArray:
    seen = np.minimum(r, rel.shape[1])
    return cast(FloatArray, np.count_nonzero(_first_r(rel, r), axis=1) / seen)


def _average_precision(hits: BoolArray, r: IntArray) -> FloatArray:
    """Σ over relevant positions i of (relevant among the first i) / i, divided by R."""
    cumulative = np.cumsum(hits, axis=1)
    precisions = np.where(hits, cumulative / _positions(hits.shape[1]), 0.0)
    return cast(FloatArray, precisions.sum(axis=1) / r)


def _map_at_r(rel: BoolArray, r: IntArray, k: int) -> FloatArray:
    return _average_precision(_first_r(rel, r), r)


def _map(rel: BoolArray, r: IntArray, k: int) -> FloatArray:
    return _average_precision(rel[:, :k], r)


def _recall(rel: BoolArray, r: IntArray, k: int) -> FloatArray:
    return np.asarray(rel[:, :k].any(axis=1), dtype=np.float64)


def _recall_ir(rel: BoolArray, r: IntArray, k: int) -> FloatArray:
    return cast(FloatArray, np.count_nonzero(rel[:, :k], axis=1) / r)


def _mrr(rel: BoolArray, r: IntArray, k: int) -> FloatArray:
    top = rel[:, :k]
    first = np.argmax(top, axis=1)
    return np.where(top.any(axis=1), 1.0 / (first + 1), 0.0)


def _ndcg(rel: BoolArray, r: IntArray, k: int) -> FloatArray:
    discounts = 1.0 / np.log2(np.arange(2, k + 2, dtype=np.float64))
    dcg = np.where(rel[:, :k], discounts, 0.0).sum(axis=1)
    ideal = np.cumsum(discounts)[np.minimum(r, k) - 1]
    return cast(FloatArray, dcg / ideal)


Kernel = Callable[[BoolArray, IntArray, int], FloatArray]
KERNELS: dict[str, Kernel] = {
    "precision": _precision,
    "r_precision": _r_precision,
    "map_at_r": _map_at_r,
    "map": _map,
    "recall": _recall,
    "recall_ir": _recall_ir,
    "mrr": _mrr,
    "ndcg": _ndcg,
}
#: Measures that look at the first R neighbours (the others at the first k).
NEEDS_R = frozenset({"r_precision", "map_at_r"})


def per_query_values(rel: BoolArray, r: IntArray, metric: Metric) -> FloatArray:
    """One value per query of ``metric`` (its cutoff bound) from the relevance matrix."""
    k = rel.shape[1] if metric.k is None else metric.k
    return KERNELS[metric.name](rel, r, k)


# ---------------------------------------------------------------- names


#: Metric names or bound metrics, as :func:`parse_metrics` reads them.
MetricNames = str | Metric | Sequence[str | Metric]

_AT_R = re.compile(r"^\s*+(\w++)\s*+@\s*+[rR]\s*+$")
_AT_R_NAMES = {"map": "map_at_r", "precision": "r_precision", "p": "r_precision"}


def parse_metrics(names: MetricNames) -> list[Metric]:
    """Embedding metric names (``precision@1``, ``map@r``, ``recall@4``, ``ndcg@10``, ...)
    as :class:`~assay.metrics.Metric` objects, in order, repeats dropped. ``name@r`` is
    accepted for the R-based measures (``map@r`` is ``map_at_r``)."""
    from ..metrics.names import parse_all

    items = [names] if isinstance(names, str | Metric) else list(names)
    out: list[str | Metric] = []
    for item in items:
        match = _AT_R.match(item) if isinstance(item, str) else None
        if match is not None:
            base = match.group(1).lower()
            if base not in _AT_R_NAMES:
                raise MetricError(f"{item!r}: only map@r and precision@r are R-based measures")
            out.append(_AT_R_NAMES[base])
        else:
            out.append(item)
    return parse_all(out, FAMILY)


def specs() -> list[MetricSpec]:
    """The declarations of the embedding family, in declaration order."""
    return _REGISTRY.specs(FAMILY)


# ---------------------------------------------------------------- the declared measures


def _evaluate(
    name: str,
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    k: int | None,
    exclude_self: bool,
    average: str,
) -> float:
    neighbours, labels = check_neighbours(neighbour_labels, query_labels)
    if not isinstance(class_counts, Mapping):
        raise InputError("class_counts must map each class to its number of references")
    if k is not None and k > neighbours.shape[1]:
        raise InputError(f"k={k} but only {neighbours.shape[1]} neighbours are given per query")
    r = relevant_counts(labels, class_counts, exclude_self)
    kept = r > 0
    lone_warning(int(np.count_nonzero(~kept)), labels.size)
    if not kept.any():
        return math.nan
    rel = neighbours[kept] == labels[kept][:, None]
    check_consistent(rel, r[kept])
    values = KERNELS[name](rel, r[kept], neighbours.shape[1] if k is None else k)
    if average == "micro":
        return float(values.mean())
    _, codes = np.unique(labels[kept], return_inverse=True)
    codes = codes.reshape(-1)
    return float(class_means(values, codes, int(codes.max()) + 1).mean())


def _declare(
    name: str, *, cutoff: bool, aliases: tuple[str, ...] = (), peers: tuple[Peer, ...] = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return _measure(name, aliases=aliases, cutoff="optional" if cutoff else "none", peers=peers)


@_declare(
    "precision",
    cutoff=True,
    aliases=("p", "precision_at_k"),
    peers=(
        Peer(
            "pytorch-metric-learning",
            "pytorch_metric_learning.utils.accuracy_calculator."
            "AccuracyCalculator(include=('precision_at_1',))",
            "Only k = 1.",
        ),
    ),
)
def precision(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    k: int | None = None,
    exclude_self: bool = False,
    average: EmbeddingAverage = "micro",
) -> float:
    """Precision@k: |{same-class neighbours among the first k}| / k; ``precision@1`` is the
    fraction of queries whose nearest neighbour has their class (pytorch-metric-learning's
    ``precision_at_1``; Musgrave et al. 2020).

    Reference: Musgrave, Belongie & Lim (2020), "A Metric Learning Reality Check", ECCV.

    Parameters
    ----------
    neighbour_labels : array_like
        The labels of each query's neighbours, nearest first (queries x neighbours).
    query_labels : array_like
        The label of each query.
    class_counts : mapping
        ``{class: number of references}`` (R of a query is its class's count).
    k : int, optional
        The cutoff: the first k neighbours (default: every neighbour given).
    exclude_self : bool
        The counts include each query itself: R = count - 1.
    average : {"micro", "macro"}
        The mean over queries, or the mean of the per-class means.

    Returns
    -------
    float
        The mean over the queries with R > 0 (NaN when there is none).

    Examples
    --------
    >>> from assay.embeddings import precision
    >>> neighbours = [["a", "b", "a", "b"], ["a", "b", "b", "a"]]
    >>> precision(neighbours, ["a", "b"], {"a": 2, "b": 2}, k=1)
    0.5
    """
    return _evaluate(
        "precision", neighbour_labels, query_labels, class_counts, k, exclude_self, average
    )


@_declare(
    "r_precision",
    cutoff=False,
    aliases=("rprec", "r_prec"),
    peers=(
        Peer(
            "pytorch-metric-learning",
            "pytorch_metric_learning.utils.accuracy_calculator."
            "AccuracyCalculator(include=('r_precision',))",
        ),
    ),
)
def r_precision(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    exclude_self: bool = False,
    average: EmbeddingAverage = "micro",
) -> float:
    """R-Precision: r / R, r the same-class neighbours among the first R, R the references of
    the query's class (Musgrave et al. 2020; pytorch-metric-learning's ``r_precision``).

    Reference: Musgrave, Belongie & Lim (2020), "A Metric Learning Reality Check", ECCV.

    Parameters
    ----------
    neighbour_labels, query_labels, class_counts, exclude_self, average
        As :func:`precision`.

    Returns
    -------
    float
        The mean over the queries with R > 0 (NaN when there is none).

    Examples
    --------
    >>> from assay.embeddings import r_precision
    >>> neighbours = [["a", "b", "a", "b"], ["a", "b", "b", "a"]]
    >>> r_precision(neighbours, ["a", "b"], {"a": 2, "b": 2})
    0.5
    """
    return _evaluate(
        "r_precision", neighbour_labels, query_labels, class_counts, None, exclude_self, average
    )


@_declare(
    "map_at_r",
    cutoff=False,
    aliases=("mapr", "mean_average_precision_at_r"),
    peers=(
        Peer(
            "pytorch-metric-learning",
            "pytorch_metric_learning.utils.accuracy_calculator."
            "AccuracyCalculator(include=('mean_average_precision_at_r',))",
        ),
    ),
)
def map_at_r(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    exclude_self: bool = False,
    average: EmbeddingAverage = "micro",
) -> float:
    """MAP@R: (1/R) Σ_{i=1..R} P(i)·rel(i), P(i) the precision at i among the first R
    neighbours, rel(i) = 1 when the i-th has the query's class (Musgrave, Belongie & Lim,
    "A Metric Learning Reality Check", ECCV 2020; also written ``map@r``).

    Reference: Musgrave, Belongie & Lim (2020), "A Metric Learning Reality Check", ECCV.

    Parameters
    ----------
    neighbour_labels, query_labels, class_counts, exclude_self, average
        As :func:`precision`.

    Returns
    -------
    float
        The mean over the queries with R > 0 (NaN when there is none).

    Examples
    --------
    >>> from assay.embeddings import map_at_r
    >>> neighbours = [["a", "b", "a", "b"], ["a", "b", "b", "a"]]
    >>> map_at_r(neighbours, ["a", "b"], {"a": 2, "b": 2})
    0.375
    """
    return _evaluate(
        "map_at_r", neighbour_labels, query_labels, class_counts, None, exclude_self, average
    )


@_declare(
    "map",
    cutoff=True,
    aliases=("map_at_k", "mean_average_precision"),
    peers=(
        Peer(
            "pytorch-metric-learning",
            "pytorch_metric_learning.utils.accuracy_calculator."
            "AccuracyCalculator(include=('mean_average_precision',))",
        ),
    ),
)
def map_at_k(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    k: int | None = None,
    exclude_self: bool = False,
    average: EmbeddingAverage = "micro",
) -> float:
    """MAP@k: (1/R) Σ_{i=1..k} P(i)·rel(i) over the first k neighbours, divided by R (not by
    min(R, k)), as pytorch-metric-learning's ``mean_average_precision``.

    Reference: Musgrave, Belongie & Lim (2020), "A Metric Learning Reality Check", ECCV;
    pytorch-metric-learning's mean_average_precision.

    Parameters
    ----------
    neighbour_labels, query_labels, class_counts, k, exclude_self, average
        As :func:`precision`.

    Returns
    -------
    float
        The mean over the queries with R > 0 (NaN when there is none).

    Examples
    --------
    >>> from assay.embeddings import map_at_k
    >>> neighbours = [["a", "b", "a", "b"], ["a", "b", "b", "a"]]
    >>> map_at_k(neighbours, ["a", "b"], {"a": 2, "b": 2}, k=2)
    0.375
    """
    return _evaluate("map", neighbour_labels, query_labels, class_counts, k, exclude_self, average)


@_declare("recall", cutoff=True, aliases=("hit_rate", "success"))
def recall(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    k: int | None = None,
    exclude_self: bool = False,
    average: EmbeddingAverage = "micro",
) -> float:
    """Recall@k in the metric-learning sense: 1 if a same-class neighbour is among the first k,
    else 0 (the Recall@K of Oh Song, Xiang, Jegelka & Savarese 2016, "Deep Metric Learning via
    Lifted Structured Feature Embedding", CVPR; ``recall@1`` = ``precision@1``).

    Reference: Oh Song, Xiang, Jegelka & Savarese (2016), "Deep metric learning via lifted
    structured feature embedding", CVPR.

    Parameters
    ----------
    neighbour_labels, query_labels, class_counts, k, exclude_self, average
        As :func:`precision`.

    Returns
    -------
    float
        The mean over the queries with R > 0 (NaN when there is none).

    Examples
    --------
    >>> from assay.embeddings import recall
    >>> neighbours = [["a", "b", "a", "b"], ["a", "b", "b", "a"]]
    >>> recall(neighbours, ["a", "b"], {"a": 2, "b": 2}, k=1)
    0.5
    """
    return _evaluate(
        "recall", neighbour_labels, query_labels, class_counts, k, exclude_self, average
    )


@_declare("recall_ir", cutoff=True, aliases=("ir_recall",))
def recall_ir(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    k: int | None = None,
    exclude_self: bool = False,
    average: EmbeddingAverage = "micro",
) -> float:
    """Recall@k in the information-retrieval sense: |{same-class neighbours among the first
    k}| / R (Manning, Raghavan & Schütze 2008, "Introduction to Information Retrieval", 8.3).

    Reference: Manning, Raghavan & Schütze (2008), Introduction to Information Retrieval, §8.3.

    Parameters
    ----------
    neighbour_labels, query_labels, class_counts, k, exclude_self, average
        As :func:`precision`.

    Returns
    -------
    float
        The mean over the queries with R > 0 (NaN when there is none).

    Examples
    --------
    >>> from assay.embeddings import recall_ir
    >>> neighbours = [["a", "b", "a", "b"], ["a", "b", "b", "a"]]
    >>> recall_ir(neighbours, ["a", "b"], {"a": 2, "b": 2}, k=2)
    0.5
    """
    return _evaluate(
        "recall_ir", neighbour_labels, query_labels, class_counts, k, exclude_self, average
    )


@_declare(
    "mrr",
    cutoff=True,
    aliases=("mean_reciprocal_rank", "rr"),
    peers=(
        Peer(
            "pytorch-metric-learning",
            "pytorch_metric_learning.utils.accuracy_calculator."
            "AccuracyCalculator(include=('mean_reciprocal_rank',))",
        ),
    ),
)
def mrr(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    k: int | None = None,
    exclude_self: bool = False,
    average: EmbeddingAverage = "micro",
) -> float:
    """Mean reciprocal rank: 1/i for the first same-class neighbour at position i ≤ k, else 0
    (Voorhees 1999, TREC-8 QA; pytorch-metric-learning's ``mean_reciprocal_rank``).

    Reference: Voorhees (1999), TREC-8 question answering track report.

    Parameters
    ----------
    neighbour_labels, query_labels, class_counts, k, exclude_self, average
        As :func:`precision`.

    Returns
    -------
    float
        The mean over the queries with R > 0 (NaN when there is none).

    Examples
    --------
    >>> from assay.embeddings import mrr
    >>> neighbours = [["a", "b", "a", "b"], ["a", "b", "b", "a"]]
    >>> mrr(neighbours, ["a", "b"], {"a": 2, "b": 2})
    0.75
    """
    return _evaluate("mrr", neighbour_labels, query_labels, class_counts, k, exclude_self, average)


@_declare("ndcg", cutoff=True)
def ndcg(
    neighbour_labels: ArrayLike,
    query_labels: ArrayLike,
    class_counts: ClassCounts,
    *,
    k: int | None = None,
    exclude_self: bool = False,
    average: EmbeddingAverage = "micro",
) -> float:
    """NDCG@k with binary gains: Σ_{i≤k} rel(i)/log2(i+1) divided by the ideal
    Σ_{i≤min(R,k)} 1/log2(i+1) (Järvelin & Kekäläinen 2002, ACM TOIS 20(4)).

    Reference: Järvelin & Kekäläinen (2002), "Cumulated gain-based evaluation of IR techniques",
    TOIS 20(4).

    Parameters
    ----------
    neighbour_labels, query_labels, class_counts, k, exclude_self, average
        As :func:`precision`.

    Returns
    -------
    float
        The mean over the queries with R > 0 (NaN when there is none).

    Examples
    --------
    >>> from assay.embeddings import ndcg
    >>> neighbours = [["a", "b", "a", "b"], ["a", "b", "b", "a"]]
    >>> ndcg(neighbours, ["a", "b"], {"a": 2, "b": 2}, k=2)
    0.5
    """
    return _evaluate("ndcg", neighbour_labels, query_labels, class_counts, k, exclude_self, average)
