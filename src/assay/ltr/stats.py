"""Statistics of a learning-to-rank collection: :class:`DatasetStats` (queries, documents,
documents per query, labels, queries without a relevant document, constant and empty
features) and :class:`FeatureStats` (one row per feature).

The statistics read a :class:`~assay.ltr.LetorDataset` through its attributes only: the
dataset imports this module (``LetorDataset.stats()``), never the other way round."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._result import Result, provenance
from ..report.reported import Reported

if TYPE_CHECKING:
    from ..report.output import Report
    from .dataset import LetorDataset

__all__ = [
    "CollectionStats",
    "DatasetStats",
    "FeatureStats",
    "collection_stats",
    "data_summary",
    "dataset_stats",
    "feature_stats",
]


@dataclass(frozen=True, eq=False, repr=False)
class FeatureStats(Result):
    """Column statistics of a collection's features, one entry per feature.

    Built by :func:`feature_stats`. Every array is indexed like ``features``; ``constant`` and
    ``empty`` list the features with one value in every row and those 0 in every row.
    ``records()``: one row per feature.

    Parameters
    ----------
    features : numpy.ndarray
        The feature numbers, as in the file (from the dataset's ``index_base``).
    minimum, maximum, mean, std : numpy.ndarray
        The minimum, maximum, mean and (population) standard deviation over the finite
        values.
    nonzero : numpy.ndarray
        The share of rows where the feature is not 0.
    non_finite : numpy.ndarray
        The number of non-finite values (NaN, infinities).
    provenance : mapping
        What the statistics were computed on.

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> stats = ltr.feature_stats(data)
    >>> stats.constant, stats.empty
    (array([2]), array([7]))
    >>> stats.records()[1]["nonzero"], stats.records()[1]["maximum"]
    (1.0, 1.0)
    """

    features: np.ndarray
    minimum: np.ndarray
    maximum: np.ndarray
    mean: np.ndarray
    std: np.ndarray
    nonzero: np.ndarray
    non_finite: np.ndarray
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @property
    def constant(self) -> np.ndarray:
        """Features with one value in every row (non-finite values aside)."""
        return cast(np.ndarray, self.features[(self.minimum == self.maximum) & (self.nonzero > 0)])

    @property
    def empty(self) -> np.ndarray:
        """Features that are 0 (or absent) in every row."""
        return cast(np.ndarray, self.features[self.nonzero == 0])

    def records(self) -> list[dict[str, Any]]:
        cols = ("minimum", "maximum", "mean", "std", "nonzero", "non_finite")
        values = {c: getattr(self, c).tolist() for c in cols}
        return [
            {"feature": int(f), **{c: values[c][i] for c in cols}}
            for i, f in enumerate(self.features.tolist())
        ]


def _column_stats(x: Any) -> tuple[np.ndarray, ...]:
    """min, max, mean, std over finite values, non-zero share and non-finite count per column."""
    n = max(x.shape[0], 1)
    if hasattr(x, "tocsc"):
        data = x.data.astype(np.float64)
        bad = ~np.isfinite(data)
        non_finite = np.bincount(x.indices[bad], minlength=x.shape[1])
        low, high, clean = x.astype(np.float64), x.astype(np.float64), x.astype(np.float64)
        low.data, high.data = np.where(bad, np.inf, data), np.where(bad, -np.inf, data)
        clean.data = np.where(bad, 0.0, data)
        finite_n = np.maximum(n - non_finite, 1)
        mean = np.asarray(clean.sum(axis=0)).ravel() / finite_n
        square = np.asarray(clean.multiply(clean).sum(axis=0)).ravel() / finite_n
        std = np.sqrt(np.maximum(square - mean * mean, 0.0))
        nonzero = np.bincount(x.indices[data != 0], minlength=x.shape[1]) / n
        low_v = low.min(axis=0).toarray().ravel()
        high_v = high.max(axis=0).toarray().ravel()
        return low_v, high_v, mean, std, nonzero, non_finite
    finite = np.isfinite(x)
    non_finite = (~finite).sum(axis=0)
    clean = np.where(finite, x, np.nan).astype(np.float64)
    with np.errstate(all="ignore"):
        low, high = np.nanmin(clean, axis=0), np.nanmax(clean, axis=0)
        mean, std = np.nanmean(clean, axis=0), np.nanstd(clean, axis=0)
    nonzero = (x != 0).sum(axis=0) / n
    return low, high, mean, std, nonzero, non_finite


def feature_stats(data: LetorDataset) -> FeatureStats:
    """Compute the column statistics of a collection's features.

    Parameters
    ----------
    data : LetorDataset
        The collection.

    Returns
    -------
    FeatureStats
        Per feature: minimum, maximum, mean and standard deviation over the finite values,
        the share of non-zero values and the count of non-finite ones.

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> stats = ltr.feature_stats(data)
    >>> stats.features.tolist(), stats.empty.tolist()
    ([1, 2, 3, 4, 5, 6, 7, 8], [7])
    """
    if data.n_docs == 0:
        empty = np.zeros(data.n_features)
        parts: tuple[np.ndarray, ...] = (empty,) * 6
    else:
        parts = _column_stats(data.features)
    numbers = np.arange(data.n_features, dtype=np.int64) + data.index_base
    low, high, mean, std, nonzero, non_finite = parts
    return FeatureStats(
        numbers,
        low,
        high,
        mean,
        std,
        nonzero,
        non_finite,
        provenance=provenance(data=data_summary(data)),
    )


@dataclass(frozen=True, eq=False, repr=False)
class DatasetStats(Result, Reported):
    """The shape of a collection: queries, documents, labels and features.

    Built by :func:`dataset_stats`. ``constant_features`` and ``empty_features`` list the
    features with one value in every row and those 0 in every row. ``records()``: rows
    ``{data, statistic, value}``; :meth:`report` is one column of statistics.

    Parameters
    ----------
    name : str
        The collection's name.
    queries, documents : int
        The numbers of queries and of documents.
    docs_per_query : mapping of str to float
        Documents per query: ``min``, ``median``, ``mean`` and ``max``.
    labels : mapping of float to int
        The number of documents of each label.
    no_relevant : int
        The number of queries without a relevant document (no label above 0).
    no_relevant_queries : list of str
        Those queries' ids.
    features : FeatureStats
        The statistics of the features.
    provenance : mapping
        What the statistics were computed on.

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> stats = ltr.dataset_stats(data)
    >>> stats.queries, stats.documents, stats.docs_per_query["max"], stats.no_relevant
    (20, 181, 14, 0)
    >>> stats.constant_features, stats.empty_features
    ([2], [7])
    """

    family = "ltr"

    name: str
    queries: int
    documents: int
    docs_per_query: Mapping[str, float]
    labels: Mapping[float, int]
    no_relevant: int
    no_relevant_queries: list[str]
    features: FeatureStats
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    @property
    def constant_features(self) -> list[int]:
        return [int(f) for f in self.features.constant]

    @property
    def empty_features(self) -> list[int]:
        return [int(f) for f in self.features.empty]

    def records(self) -> list[dict[str, Any]]:
        """Rows ``{data, statistic, value}``; lists of features are comma-joined."""
        rows: list[tuple[str, Any]] = [
            ("queries", self.queries),
            ("documents", self.documents),
            *((f"docs_per_query_{k}", v) for k, v in self.docs_per_query.items()),
            *((f"label_{_label(g)}", c) for g, c in self.labels.items()),
            ("queries_without_relevant", self.no_relevant),
            ("features", len(self.features.features)),
            ("constant_features", len(self.constant_features)),
            ("constant_feature_ids", ",".join(map(str, self.constant_features))),
            ("empty_features", len(self.empty_features)),
            ("empty_feature_ids", ",".join(map(str, self.empty_features))),
            ("non_finite_values", int(self.features.non_finite.sum())),
        ]
        return [{"data": self.name, "statistic": k, "value": v} for k, v in rows]

    def report(self) -> Report:
        """One column of statistics (see :class:`CollectionStats`)."""
        from .report import stats_report

        return stats_report([self])


@dataclass(frozen=True, eq=False, repr=False)
class CollectionStats(Result, Reported):
    """The statistics of a collection's splits, one :class:`DatasetStats` per split.

    Built by :func:`collection_stats`. ``records()``: every split's rows
    ``{data, statistic, value}``; :meth:`report` is the table ``assay ltr stats`` prints (one
    column per split, one row per statistic).

    Parameters
    ----------
    datasets : tuple of DatasetStats
        The statistics of each split, in order.
    provenance : mapping
        What the statistics were computed on.

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> stats = ltr.collection_stats(splits)
    >>> [(s.name, s.queries) for s in stats.datasets]
    [('train', 12), ('vali', 4), ('test', 4)]
    >>> stats.records()[0]
    {'data': 'train', 'statistic': 'queries', 'value': 12}
    """

    family = "ltr"

    datasets: tuple[DatasetStats, ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def records(self) -> list[dict[str, Any]]:
        """Every split's rows ``{data, statistic, value}``, split after split."""
        return [r for s in self.datasets for r in s.records()]

    def report(self) -> Report:
        """One column per split, one row per statistic."""
        from .report import stats_report

        return stats_report(self.datasets)


def data_summary(data: LetorDataset) -> dict[str, Any]:
    """What a result computed on ``data`` records about it (under its ``data`` key)."""
    return {
        "name": data.name,
        "source": data.source,
        "queries": data.n_queries,
        "documents": data.n_docs,
        "features": data.n_features,
        "index_base": data.index_base,
        **dict(data.info),
    }


def _label(g: float) -> str:
    return str(int(g)) if float(g).is_integer() else repr(float(g))


def dataset_stats(data: LetorDataset) -> DatasetStats:
    """Compute the shape of a collection.

    Queries, documents, documents per query (min, median, mean, max), label histogram,
    queries without a relevant document (no label > 0), and the feature statistics.

    Parameters
    ----------
    data : LetorDataset
        The collection.

    Returns
    -------
    DatasetStats
        The statistics; ``report()`` is one column of them.

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(20, mean_docs=10, n_features=8, informative=2, seed=1)
    >>> ltr.dataset_stats(data).labels
    {0.0: 94, 1.0: 58, 2.0: 23, 3.0: 4, 4.0: 2}
    """
    sizes = data.sizes
    per_query = {
        "min": int(sizes.min()) if len(sizes) else 0,
        "median": float(np.median(sizes)) if len(sizes) else float("nan"),
        "mean": float(sizes.mean()) if len(sizes) else float("nan"),
        "max": int(sizes.max()) if len(sizes) else 0,
    }
    values, counts = np.unique(data.labels, return_counts=True)
    relevant = np.bincount(data.qidx, weights=(data.labels > 0), minlength=data.n_queries)
    none = np.flatnonzero(relevant == 0)
    fs = feature_stats(data)
    return DatasetStats(
        name=data.name,
        queries=data.n_queries,
        documents=data.n_docs,
        docs_per_query=per_query,
        labels={float(v): int(c) for v, c in zip(values, counts, strict=True)},
        no_relevant=len(none),
        no_relevant_queries=data.query_ids.take(none).to_pylist() if len(none) else [],
        features=fs,
        provenance=fs.provenance,
    )


def collection_stats(splits: Mapping[str, LetorDataset]) -> CollectionStats:
    """The statistics of every split of a collection.

    Parameters
    ----------
    splits : mapping of str to LetorDataset
        The splits by name, as :func:`assay.ltr.load` returns them.

    Returns
    -------
    CollectionStats
        One :class:`DatasetStats` per split; ``report()`` is what ``assay ltr stats`` prints.

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(30, n_features=8, informative=2, seed=1)
    >>> stats = ltr.collection_stats(splits)
    >>> [s.name for s in stats.datasets], stats.datasets[0].queries
    (['train', 'vali', 'test'], 18)
    """
    datasets = tuple(dataset_stats(d) for d in splits.values())
    return CollectionStats(datasets, provenance={"splits": [dict(d.provenance) for d in datasets]})
