"""Retrieval measures of embeddings: each query's nearest references (faiss or NumPy, one
deterministic order) scored by the measures of :mod:`assay.embeddings.measures`."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._options import choice, cutoff, flag, integer
from ..errors import EmptyInputError, InputError
from ..io.limits import check_neighbours
from .inputs import lone_warning
from .knn import Backend, Distance, neighbours, prepare, searcher
from .measures import DEFAULT_METRICS, NEEDS_R, MetricNames, per_query_values
from .result import RetrievalMetrics, resolve_metrics, summarise

__all__ = ["nearest_neighbours", "retrieval_metrics"]

IntArray = NDArray[np.int64]


def retrieval_metrics(
    query_embeddings: ArrayLike,
    query_labels: ArrayLike,
    reference_embeddings: ArrayLike | None = None,
    reference_labels: ArrayLike | None = None,
    *,
    metrics: MetricNames = DEFAULT_METRICS,
    k: int | None = None,
    distance: Distance = "euclidean",
    exclude_self: bool | None = None,
    backend: Backend = "auto",
    block_size: int | None = None,
) -> RetrievalMetrics:
    """Precision@1, R-Precision, MAP@R, Recall@k, MRR, NDCG@k, ... of embeddings: each query
    is scored by the classes of its nearest references.

    ``reference_embeddings`` / ``reference_labels``: the set searched (default: the queries,
    leave-one-out). ``metrics``: names such as ``precision@1``, ``r_precision``, ``map@r``,
    ``recall@4`` (a same-class neighbour among the first 4), ``recall_ir@10`` (their share
    of R), ``mrr``, ``ndcg@10``, ``map`` (``assay metrics --family embedding``); a measure
    named without a cutoff looks at the first ``k`` neighbours, ``k`` defaulting to the
    largest R among the queries. R-Precision and MAP@R always see R neighbours.

    ``distance``: ``"euclidean"`` (squared L2), ``"cosine"`` (1 - cosine similarity) or
    ``"inner"`` (-inner product). ``exclude_self`` (default: True exactly when there is no
    separate reference set): query i is reference i and not its own neighbour, and R does
    not count it; with a separate reference set, its first rows must then be the queries.
    ``backend``: ``"faiss"`` (exact flat index), ``"numpy"`` (exact blockwise search) or
    ``"auto"`` (faiss when installed); both give the same neighbours, ties going to the lower
    reference index (:mod:`assay.embeddings.knn`). ``block_size``: queries per search block,
    at most what the memory budget allows (about 2²³ float32 distances per block on NumPy,
    2²¹ candidates on faiss).

    Queries whose class has no other reference (R = 0) are left out of the means, counted
    in ``n_lone`` and a :class:`~assay.errors.CoverageWarning`.

    Parameters
    ----------
    query_embeddings, query_labels
        The queries (n × d) and their classes (n).
    reference_embeddings, reference_labels
        The set searched (default: the queries, leave-one-out).
    metrics, k, distance, exclude_self, backend, block_size
        As above.

    Returns
    -------
    RetrievalMetrics
        Per-query values of every measure, their means, per-class means, R per query.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import retrieval_metrics
    >>> x = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]])
    >>> r = retrieval_metrics(x, ["a", "a", "b", "b"], backend="numpy")
    >>> r.metrics, r["map_at_r"].tolist()
    (('precision@1', 'r_precision', 'map_at_r'), [1.0, 1.0, 1.0, 1.0])
    """
    distance = choice(distance, Distance, "distance")
    backend = choice(backend, Backend, "backend")
    k_given = cutoff(k)
    block_size = None if block_size is None else integer(block_size, "block_size", minimum=1)
    data = _inputs(
        query_embeddings, query_labels, reference_embeddings, reference_labels, exclude_self
    )
    q, q_labels, r, r_labels, exclude_self = data
    q_codes, r_codes = _codes(q_labels, r_labels)
    relevant = np.bincount(r_codes, minlength=int(q_codes.max()) + 1)[q_codes] - int(exclude_self)
    k = k_given or max(1, int(relevant.max()))
    chosen = resolve_metrics(metrics, k)
    available = r_labels.size - int(exclude_self)
    if k_given is not None:
        _check_k(k_given, available, exclude_self)
    n = _n_neighbours(chosen, relevant, available, exclude_self)
    evaluated = np.flatnonzero(relevant > 0)
    check_neighbours(evaluated.size, n, _fewer_neighbours(n, k_given))
    warning = lone_warning(q_labels.size - evaluated.size, q_labels.size)
    values = {str(m): np.full(q_labels.size, np.nan) for m in chosen}
    space = prepare(q, r, distance)
    search = searcher(space, backend)
    blocks = neighbours(
        space, n, search, exclude_self=exclude_self, block_size=block_size, rows=evaluated
    )
    for rows, idx in blocks:
        rel = r_codes[idx] == q_codes[rows][:, None]  # same class, nearest first
        for metric in chosen:
            values[str(metric)][rows] = per_query_values(rel, relevant[rows], metric)
    settings = {
        "backend": search.name,
        "faiss_version": search.version,
        "distance": distance,
        "exclude_self": exclude_self,
        "k": k,
        "n_neighbours": n,
        "n_queries": int(q_labels.size),
        "n_references": int(r_labels.size),
        "dimension": int(q.shape[1]),
        "dtype": str(q.dtype),
        "block_size": block_size,
        "ties": "reference index",
    }
    return summarise(
        chosen, values, q_labels, relevant, k=k, n_neighbours=n, warning=warning, settings=settings
    )


def _inputs(
    query_embeddings: ArrayLike,
    query_labels: ArrayLike,
    reference_embeddings: ArrayLike | None,
    reference_labels: ArrayLike | None,
    exclude_self: bool | None,
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any] | None, NDArray[Any], bool]:
    """Checked embeddings and labels (``None`` references: the queries) and exclude_self."""
    q = _embeddings(query_embeddings, "query_embeddings")
    q_labels = _labels(query_labels, "query_labels", q)
    if (reference_embeddings is None) != (reference_labels is None):
        raise InputError("give both reference_embeddings and reference_labels, or neither")
    if exclude_self is None:
        exclude_self = reference_embeddings is None
    exclude_self = flag(exclude_self, "exclude_self")
    if reference_embeddings is None or reference_labels is None:
        _check_pairing(q, q_labels, None, q_labels, exclude_self)
        return q, q_labels, None, q_labels, exclude_self
    r = _embeddings(reference_embeddings, "reference_embeddings")
    r_labels = _labels(reference_labels, "reference_labels", r)
    _check_pairing(q, q_labels, r, r_labels, exclude_self)
    return q, q_labels, r, r_labels, exclude_self


def nearest_neighbours(
    query_embeddings: ArrayLike,
    reference_embeddings: ArrayLike | None = None,
    *,
    k: int,
    distance: Distance = "euclidean",
    exclude_self: bool | None = None,
    backend: Backend = "auto",
    block_size: int | None = None,
) -> IntArray:
    """The indices of the ``k`` nearest references of each query, nearest first (queries x
    k), ties to the lower index; options as :func:`retrieval_metrics`.

    Parameters
    ----------
    query_embeddings, reference_embeddings
        The queries (n × d) and the set searched (default: the queries, leave-one-out).
    k
        Neighbours per query.
    distance, exclude_self, backend, block_size
        As :func:`retrieval_metrics`.

    Returns
    -------
    numpy.ndarray
        An (n, k) int64 array of reference indices.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import nearest_neighbours
    >>> x = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]])
    >>> nearest_neighbours(x, k=1, backend="numpy").tolist()
    [[1], [0], [3], [2]]
    """
    distance = choice(distance, Distance, "distance")
    backend = choice(backend, Backend, "backend")
    k = integer(k, "k", minimum=1)
    q = _embeddings(query_embeddings, "query_embeddings")
    r = (
        None
        if reference_embeddings is None
        else _embeddings(reference_embeddings, "reference_embeddings")
    )
    exclude_self = r is None if exclude_self is None else flag(exclude_self, "exclude_self")
    n_refs = q.shape[0] if r is None else r.shape[0]
    _check_dimensions(q, r)
    if (
        exclude_self
        and r is not None
        and not (n_refs >= q.shape[0] and np.array_equal(r[: q.shape[0]], q))
    ):
        raise InputError(
            "exclude_self=True with a reference set needs its first rows to be the queries"
        )
    _check_k(k, n_refs - int(exclude_self), exclude_self)
    check_neighbours(q.shape[0], k, "give a smaller k")
    space = prepare(q, r, distance)
    out = np.empty((q.shape[0], k), dtype=np.int64)
    for rows, idx in neighbours(
        space, k, searcher(space, backend), exclude_self=exclude_self, block_size=block_size
    ):
        out[rows] = idx
    return out


# ---------------------------------------------------------------- checks


def _fewer_neighbours(n: int, k_given: int | None) -> str:
    """How to rank fewer than ``n`` neighbours a query: R-based measures (r_precision,
    map@r) rank each query's R nearest, whatever k is."""
    if k_given is not None and n <= k_given:
        return "give a smaller k (-k)"
    return (
        f"the largest class has {n} other members and r_precision/map@r rank that many; "
        "ask for measures at a cutoff (-m precision@10 -m map@10 ...)"
    )


def _embeddings(x: ArrayLike, name: str) -> NDArray[Any]:
    """A 2-D array of finite numbers with a row at least: float32 kept, else float64."""
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name} must be a matrix of numbers ({exc})") from None
    if arr.dtype.kind not in "biuf":
        raise InputError(f"{name} must hold numbers, got values of type {arr.dtype}")
    if arr.ndim != 2:
        raise InputError(
            f"{name} must be two-dimensional (items x dimensions), got shape {arr.shape}"
        )
    if arr.shape[0] == 0:
        raise EmptyInputError(
            f"{name} is empty (no rows)"
            + ("; the reference set is empty" if name.startswith("ref") else "")
        )
    if arr.shape[1] == 0:
        raise InputError(f"{name} has no dimensions (shape {arr.shape})")
    if arr.dtype != np.float32:
        arr = arr.astype(np.float64)
    finite = np.isfinite(arr)
    if not finite.all():
        row, col = (int(i) for i in np.argwhere(~finite)[0])
        count = int(finite.size - np.count_nonzero(finite))
        raise InputError(
            f"{name}[{row}, {col}] is {float(arr[row, col])!r}; embeddings must be finite ({count} non-finite value{'s' if count > 1 else ''})"
        )
    return arr


def _labels(labels: ArrayLike, name: str, embeddings: NDArray[Any]) -> NDArray[Any]:
    arr = np.asarray(labels)
    if arr.ndim != 1:
        raise InputError(
            f"{name} must be one-dimensional (one label per item), got shape {arr.shape}"
        )
    if arr.size != embeddings.shape[0]:
        what = name.replace("labels", "embeddings")
        raise InputError(
            f"{name} has {arr.size} labels but {what} has {embeddings.shape[0]} rows; they must be paired one to one"
        )
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise InputError(f"{name} holds NaN or infinite labels")
    return arr


def _codes(q_labels: NDArray[Any], r_labels: NDArray[Any]) -> tuple[IntArray, IntArray]:
    """Exact integer codes of the classes, shared by queries and references."""
    if (q_labels.dtype.kind in "US") != (r_labels.dtype.kind in "US"):
        raise InputError(
            f"query labels ({q_labels.dtype}) and reference labels ({r_labels.dtype}) must be of the same kind"
        )
    try:
        _, codes = np.unique(np.concatenate([q_labels, r_labels]), return_inverse=True)
    except TypeError as exc:
        raise InputError(f"labels must be comparable values of one type ({exc})") from None
    codes = codes.reshape(-1).astype(np.int64)
    return codes[: q_labels.size], codes[q_labels.size :]


def _check_dimensions(q: NDArray[Any], r: NDArray[Any] | None) -> None:
    if r is not None and r.shape[1] != q.shape[1]:
        raise InputError(
            f"query_embeddings have {q.shape[1]} dimensions but reference_embeddings have {r.shape[1]}"
        )


def _check_pairing(
    q: NDArray[Any],
    q_labels: NDArray[Any],
    r: NDArray[Any] | None,
    r_labels: NDArray[Any],
    exclude_self: bool,
) -> None:
    """Dimensions agree; with exclude_self and a reference set, it starts with the queries."""
    _check_dimensions(q, r)
    if r is None or not exclude_self:
        return
    n = q.shape[0]
    if r.shape[0] < n or not np.array_equal(r[:n], q) or not np.array_equal(r_labels[:n], q_labels):
        raise InputError(
            "exclude_self=True with a reference set needs its first rows (embeddings and labels) to be the queries, query i being reference i"
        )


def _check_k(n: int, available: int, exclude_self: bool) -> None:
    if n > available:
        other = " other than the query itself" if exclude_self else ""
        raise InputError(
            f"k={n} neighbours asked for but the reference set has only {available} item{'s' if available != 1 else ''}{other}"
        )


def _n_neighbours(chosen: list[Any], relevant: IntArray, available: int, exclude_self: bool) -> int:
    """Neighbours to find per query: the largest cutoff, and the largest R when R-Precision
    or MAP@R is asked for."""
    n = max(m.k or 0 for m in chosen)
    if any(m.name in NEEDS_R for m in chosen):
        n = max(n, int(relevant.max()))
    _check_k(n, available, exclude_self)
    return n
