"""A learning-to-rank collection in memory: :class:`LetorDataset` (rows grouped by query with
CSR offsets), :func:`load` for a file or a folder of splits, and query-level feature
normalisation that survives sentinel values."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import ArrayLike

from .._arrow import from_np, to_np
from .._options import NoRelevant, ShortQueries, Ties, choice, integer, number
from ..data import Qrels, Run
from ..errors import InputError
from ..io.limits import check_dense
from .letor import LetorFile, find_letor_splits, read_letor_files, write_letor
from .options import FeatureLayout, FeatureNorm, IndexBase, ValueType
from .stats import DatasetStats, dataset_stats

if TYPE_CHECKING:
    from ..prepared import PreparedEvaluator

__all__ = [
    "LTR_NO_RELEVANT",
    "LTR_TIES",
    "SENTINEL",
    "FeatureNorm",
    "LetorDataset",
    "load",
    "normalize",
]

#: What a run is scored under unless told otherwise (LightGBM's conventions): tied scores
#: in input order (its stable sort), a query without a relevant document scores 1.
LTR_TIES: Ties = "input"
LTR_NO_RELEVANT: NoRelevant = "one"

#: Feature values at least this large in magnitude (or not finite) are missing-value
#: sentinels (Istella writes 1.79e308), left out of normalisation statistics.
SENTINEL = 1e30


def _is_sparse(x: Any) -> bool:
    return hasattr(x, "tocsr") and not isinstance(x, np.ndarray)


@dataclass(frozen=True, eq=False)
class LetorDataset:
    """A learning-to-rank collection in memory: documents grouped by query.

    Usually read by :func:`load` (or :meth:`read`) or built by :meth:`from_arrays`; one row
    per document, the rows of a query consecutive.

    Parameters
    ----------
    labels : numpy.ndarray
        One relevance label per document.
    offsets : numpy.ndarray
        CSR offsets: query q holds rows ``offsets[q]:offsets[q+1]``.
    query_ids, doc_ids : pyarrow.Array
        One id per query and one per document.
    features : numpy.ndarray or scipy.sparse.csr_matrix
        The feature values, one row per document (dense float or SciPy CSR).
    name : str
        The collection's (or split's) name.
    source : str, optional
        The file read.
    index_base : int
        How the file numbered its features (0 or 1).
    lines : numpy.ndarray, optional
        The line of each document in the file.
    info : mapping
        What else is known of the collection (the group file, the values beyond float32's
        range, the generator's settings).
    read_bytes : int, optional
        Bytes of text read, which bound the dense matrix allowed.

    Examples
    --------
    >>> import numpy as np
    >>> from assay import ltr
    >>> x = np.array([[0.5, 1.0], [0.1, 0.0], [0.3, 2.0]])
    >>> data = ltr.LetorDataset.from_arrays(x, [2, 0, 1], qids=["q1", "q1", "q2"], name="tiny")
    >>> data
    LetorDataset('tiny': 2 queries, 3 documents, 2 dense features)
    >>> data.offsets.tolist(), data.query_ids.to_pylist(), data.sizes.tolist()
    ([0, 2, 3], ['q1', 'q2'], [2, 1])
    """

    labels: np.ndarray
    offsets: np.ndarray
    query_ids: pa.Array
    doc_ids: pa.Array
    features: Any  # Any: a NumPy array or a SciPy CSR matrix (SciPy is untyped)
    name: str = "data"
    source: str | None = None
    index_base: int = 1
    lines: np.ndarray | None = None
    info: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    #: Bytes of text read, which bound the dense matrix allowed (:func:`dense`).
    read_bytes: int | None = None

    # ------------------------------------------------------------ building

    @classmethod
    def from_file(cls, f: LetorFile, name: str | None = None) -> LetorDataset:
        info = {"group_file": f.group_file, "overflow": f.overflow}
        return cls(
            f.labels,
            f.offsets,
            f.query_ids,
            f.doc_ids,
            f.features,
            name=name or os.path.basename(f.source),
            source=f.source,
            index_base=f.index_base,
            lines=f.lines,
            info=info,
            read_bytes=f.bytes_read,
        )

    @classmethod
    def from_arrays(
        cls,
        features: Any,  # a NumPy array or a SciPy CSR matrix (SciPy is untyped)
        labels: ArrayLike,
        *,
        qids: Sequence[Any] | None = None,
        group: Sequence[int] | None = None,
        doc_ids: Sequence[Any] | None = None,
        name: str = "data",
    ) -> LetorDataset:
        """From a feature matrix, labels and either per-row ``qids`` (each query's rows
        consecutive) or ``group`` sizes (LightGBM's form; queries numbered from 1)."""
        y = np.asarray(labels, dtype=np.float64)
        if (qids is None) == (group is None):
            raise InputError("give exactly one of qids (per row) and group (sizes per query)")
        if group is not None:
            sizes = np.asarray(group, dtype=np.int64)
            if (sizes <= 0).any() or int(sizes.sum()) != len(y):
                raise InputError(f"group sizes must be positive and add up to {len(y)} rows")
            offsets = np.concatenate(([0], np.cumsum(sizes)))
            ids = pc.cast(from_np(np.arange(1, len(sizes) + 1)), pa.string())
        else:
            offsets, ids = _runs(pc.cast(pa.array(qids), pa.string()), len(y))
        docs = (
            pc.cast(from_np(np.arange(1, len(y) + 1)), pa.string())
            if doc_ids is None
            else pc.cast(pa.array(doc_ids), pa.string())
        )
        x = features if _is_sparse(features) else np.asarray(features)
        if x.shape[0] != len(y) or len(docs) != len(y):
            raise InputError(
                f"features have {x.shape[0]} rows, labels {len(y)}, doc ids {len(docs)}"
            )
        return cls(y, offsets.astype(np.int64), ids, docs, x, name=name, read_bytes=_nbytes(x))

    @classmethod
    def read(cls, path: str | os.PathLike[str], **options: Any) -> LetorDataset:
        """One LETOR/SVMlight file (options as :func:`assay.ltr.letor.read_letor`)."""
        return next(iter(load(path, **options).values()))

    # ------------------------------------------------------------ shape

    @property
    def n_queries(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_docs(self) -> int:
        return len(self.labels)

    @property
    def n_features(self) -> int:
        return int(self.features.shape[1])

    @cached_property
    def sizes(self) -> np.ndarray:
        """Documents per query."""
        return np.diff(self.offsets)

    @cached_property
    def qidx(self) -> np.ndarray:
        """Query index of every row."""
        return np.repeat(np.arange(self.n_queries, dtype=np.int64), self.sizes)

    @cached_property
    def grades(self) -> np.ndarray:
        """Labels as integer grades (an error if a label is not a non-negative integer)."""
        y = self.labels
        bad = (y != np.round(y)) | (y < 0)
        if bad.any():
            at = int(np.argmax(bad))
            where = f" (line {int(self.lines[at])})" if self.lines is not None else ""
            raise InputError(
                f"label {y[at]!r}{where} is not a non-negative integer grade, which ranking "
                "metrics and LambdaMART need",
                source=self.source,
            )
        return y.astype(np.int64)

    def dense(self, dtype: Any = np.float32) -> np.ndarray:
        """The features as a dense array; one far larger than the file it was read from is
        refused before it is built (see :func:`assay.io.limits.check_dense`)."""
        if _is_sparse(self.features) or np.dtype(dtype) != self.features.dtype:
            check_dense(
                self.features.shape,
                np.dtype(dtype).itemsize,
                read_bytes=self.read_bytes,
                source=self.source,
            )
        x = self.features.toarray() if _is_sparse(self.features) else self.features
        return np.asarray(x, dtype=dtype)

    def take(self, queries: np.ndarray) -> LetorDataset:
        """The dataset restricted to the queries at positions ``queries`` (in that order)."""
        q = np.asarray(queries, dtype=np.int64)
        sizes = self.sizes[q]
        offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        rows = np.arange(offsets[-1], dtype=np.int64) + np.repeat(
            self.offsets[q] - offsets[:-1], sizes
        )
        return replace(
            self,
            labels=self.labels[rows],
            offsets=offsets,
            query_ids=self.query_ids.take(from_np(q)),
            doc_ids=self.doc_ids.take(from_np(rows)),
            features=self.features[rows],
            lines=None if self.lines is None else self.lines[rows],
        )

    # ------------------------------------------------------------ to assay's data model

    def row_query_ids(self) -> pa.Array:
        return self.query_ids.take(from_np(self.qidx))

    def qrels(self) -> Qrels:
        """The labels as TREC-style judgments (every document judged)."""
        return Qrels.from_columns(
            self.row_query_ids(), self.doc_ids, self.grades, source=self.source or self.name
        )

    def run(self, scores: ArrayLike, name: str) -> Run:
        """Model scores as a run; the rows keep the dataset's order, which is the order
        ``ties="input"`` breaks ties by (LightGBM's stable sort)."""
        s = self.model_scores(scores)
        return Run.from_columns(self.row_query_ids(), self.doc_ids, s, name=name, source=self.name)

    def model_scores(self, scores: ArrayLike) -> np.ndarray:
        """A model's scores of this split's rows as float64, one per row (checked).

        Parameters
        ----------
        scores : array_like
            One score per row, in the split's order.

        Returns
        -------
        numpy.ndarray
            The scores, flat, as float64.

        Examples
        --------
        >>> from assay import ltr
        >>> data = ltr.mslr_like(2, mean_docs=5, n_features=8, informative=1, seed=1)
        >>> data.model_scores(data.labels).dtype
        dtype('float64')
        """
        s = np.asarray(scores, dtype=np.float64).reshape(-1)
        if len(s) != self.n_docs:
            raise InputError(f"{len(s)} scores for {self.n_docs} documents of {self.name}")
        return s

    def evaluator(
        self,
        metrics: str | Sequence[str],
        *,
        ties: Ties = LTR_TIES,
        no_relevant: NoRelevant = LTR_NO_RELEVANT,
        short_queries: ShortQueries = "score",
    ) -> PreparedEvaluator:
        """A prepared evaluation of scores of this split's rows against its labels, for
        calls once per tree or epoch (:func:`assay.prepare`): the values of
        :func:`~assay.ltr.evaluate_scores` for the same scores.

        Parameters
        ----------
        metrics : str or sequence of str
            Metric names.
        ties, no_relevant, short_queries
            The conventions (LightGBM's by default).

        Returns
        -------
        PreparedEvaluator
            Called with one score per row, it returns every metric's mean.

        Examples
        --------
        >>> from assay import ltr
        >>> data = ltr.mslr_like(20, n_features=8, informative=2, seed=1)
        >>> ev = data.evaluator(["ndcg(gain='exp')@10"])
        >>> ev(data.labels)
        {"ndcg(gain='exp')@10": 1.0}
        """
        from ..prepared import prepare

        return prepare(
            self.qrels(),
            [metrics] if isinstance(metrics, str) else list(metrics),
            queries=self.row_query_ids(),
            docs=self.doc_ids,
            ties=ties,
            missing="error",
            no_relevant=no_relevant,
            short_queries=short_queries,
            name=self.name,
            source=self.source or self.name,
        )

    def to_letor(self, path: str | os.PathLike[str]) -> None:
        """Write the dataset as a LETOR file (doc ids in ``# docid =`` comments)."""
        write_letor(
            path,
            self.labels,
            self.offsets,
            self.query_ids,
            self.features,
            doc_ids=self.doc_ids,
            index_base=self.index_base,
        )

    def stats(self) -> DatasetStats:
        """Queries, documents, documents per query, labels, constant and empty features."""
        return dataset_stats(self)

    def normalized(
        self, norm: FeatureNorm = "min-max", *, sentinel: float = SENTINEL
    ) -> LetorDataset:
        """Query-level feature normalisation (see :func:`normalize`)."""
        return normalize(self, norm=norm, sentinel=sentinel)

    def __repr__(self) -> str:
        kind = "sparse" if _is_sparse(self.features) else "dense"
        return (
            f"LetorDataset({self.name!r}: {self.n_queries} queries, {self.n_docs} documents, "
            f"{self.n_features} {kind} features)"
        )


def _nbytes(x: Any) -> int:
    """Bytes a dense or CSR matrix holds: what a caller's own arrays may grow to densely."""
    if _is_sparse(x):
        return int(x.data.nbytes + x.indices.nbytes + x.indptr.nbytes)
    return int(x.nbytes)


def _runs(qids: pa.Array, rows: int) -> tuple[np.ndarray, pa.Array]:
    """CSR offsets of consecutive runs of equal ids; an id in two runs is an error."""
    if len(qids) != rows:
        raise InputError(f"{len(qids)} query ids for {rows} rows")
    encoded = pc.dictionary_encode(qids)
    codes = to_np(encoded.indices).astype(np.int64)
    new = np.ones(len(codes), dtype=bool)
    new[1:] = codes[1:] != codes[:-1]
    starts = np.flatnonzero(new)
    if len(np.unique(codes[starts])) != len(starts):
        raise InputError(
            "the rows of each query must be consecutive (a query id appears in two runs)"
        )
    return np.append(starts, len(codes)), encoded.dictionary.take(from_np(codes[starts]))


# ---------------------------------------------------------------- loading


def load(
    path: str | os.PathLike[str],
    *,
    fold: int | None = None,
    index_base: IndexBase = "auto",
    n_features: int | None = None,
    features: FeatureLayout = "auto",
    dtype: ValueType = "float32",
    max_features: int | None = None,
) -> dict[str, LetorDataset]:
    """A LETOR file (``{"train": ...}``) or a collection folder (``train``, ``vali``,
    ``test`` as present; ``FoldN`` sub-folders chosen by ``fold``), read with one index base
    and feature count.

    Parameters
    ----------
    path
        A LETOR/SVMlight file, or a folder of them (MSLR, LETOR 4, Istella, Yahoo, LightGBM's
        ``rank.train``/``rank.test`` with ``.query`` group files).
    fold
        The ``FoldN`` sub-folder to read (default 1 when there are some).
    index_base, n_features, features, dtype, max_features
        How the files are read (see :func:`assay.ltr.letor.read_letor_files`).

    Returns
    -------
    dict of str to LetorDataset
        The splits by name, in the order train, vali, test.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from assay import ltr
    >>> with tempfile.TemporaryDirectory() as d:
    ...     for name, split in ltr.mslr_like_splits(20, n_features=8, informative=2).items():
    ...         split.to_letor(Path(d) / f"{name}.txt")
    ...     splits = ltr.load(d)
    >>> {name: split.n_queries for name, split in splits.items()}
    {'train': 12, 'vali': 4, 'test': 4}
    """
    if fold is not None:
        fold = integer(fold, "fold", minimum=1)
    splits = find_letor_splits(path, fold=fold)
    files = read_letor_files(
        list(splits.values()),
        index_base=index_base,
        n_features=n_features,
        features=features,
        dtype=dtype,
        max_features=max_features,
    )
    return {s: LetorDataset.from_file(f, name=s) for s, f in zip(splits, files, strict=True)}


# ---------------------------------------------------------------- normalisation


def normalize(
    data: LetorDataset, *, norm: FeatureNorm = "min-max", sentinel: float = SENTINEL
) -> LetorDataset:
    """Normalise every feature within each query: ``min-max`` to [0, 1] or ``zscore`` to
    mean 0, standard deviation 1 (population).

    Values that are not finite or at least ``sentinel`` in magnitude (missing-value markers
    such as Istella's 1.79e308) take no part in a query's statistics and become 0; so does a
    feature that is constant within a query. The result is dense float32; the counts of
    sentinel values are kept in ``info``.

    Parameters
    ----------
    data
        The dataset.
    norm
        ``min-max`` or ``zscore``.
    sentinel
        Values at least this large in magnitude are missing.

    Returns
    -------
    LetorDataset
        The same documents with normalised features.

    Examples
    --------
    >>> from assay import ltr
    >>> data = ltr.mslr_like(5, n_features=8, informative=2, seed=1)
    >>> x = ltr.normalize(data, norm="min-max").features
    >>> bool(x.min() >= 0 and x.max() <= 1)
    True
    """
    norm = choice(norm, FeatureNorm, "norm")
    sentinel = number(sentinel, "sentinel", low=0, low_open=True)
    x = data.dense(np.float64)
    missing = ~np.isfinite(x) | (np.abs(x) >= sentinel)
    starts = data.offsets[:-1]
    if data.n_docs == 0:
        return replace(data, features=x.astype(np.float32))
    if norm == "min-max":
        low = np.minimum.reduceat(np.where(missing, np.inf, x), starts, axis=0)
        high = np.maximum.reduceat(np.where(missing, -np.inf, x), starts, axis=0)
        span = high - low
        ok = np.isfinite(span) & (span > 0)
        scale = np.where(ok, span, 1.0)
        out = np.where(
            ok[data.qidx], (x - np.where(ok, low, 0.0)[data.qidx]) / scale[data.qidx], 0.0
        )
    else:
        present = (~missing).astype(np.float64)
        count = np.add.reduceat(present, starts, axis=0)
        clean = np.where(missing, 0.0, x)
        mean = np.add.reduceat(clean, starts, axis=0) / np.maximum(count, 1)
        dev = np.where(missing, 0.0, x - mean[data.qidx])
        std = np.sqrt(np.add.reduceat(dev * dev, starts, axis=0) / np.maximum(count, 1))
        ok = std > 0
        out = np.where(ok[data.qidx], dev / np.where(ok, std, 1.0)[data.qidx], 0.0)
    out[missing] = 0.0
    info = {**data.info, "norm": norm, "sentinel": sentinel, "sentinel_values": int(missing.sum())}
    return replace(data, features=out.astype(np.float32), info=info)
