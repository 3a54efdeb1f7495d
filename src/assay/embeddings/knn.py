"""Exact k-nearest-neighbour search in one deterministic order, on faiss or on NumPy.

Both back-ends return the same neighbours, bit for bit, because neither decides the order:

1. **Candidates.** faiss (``IndexFlatL2``, or ``IndexFlatIP`` on unit vectors for cosine) or
   a blockwise NumPy search computes float32 distances and keeps the ``m`` nearest of each
   query (``m`` a little more than needed).
2. **A bound on their error.** A float32 distance differs from the exact one by at most
   ``tol = (2d + 16) u (|q|² + max |r|²)`` (u = 2⁻²⁴; the dot products' error γ_d |q||r|, the
   norms', three more roundings and the cast of float64 input to float32). If the m-th
   candidate is more than 2·tol farther than the n-th, no reference outside the candidates
   can be among the n nearest; otherwise the query is searched again with twice as many.
3. **One canonical order.** Candidates are sorted by their float32 distance; wherever two
   neighbours in that order are within 2·tol of each other (a possible tie), their distance
   is recomputed exactly in one shared way (float64, ``Σ (q - r)²`` for euclidean, ``1 - q·r``
   on float64 unit vectors for cosine, ``-q·r`` for inner), and such runs are ordered by
   (exact distance, reference index). Runs more than 2·tol apart are already in exact order.

The result is the order by (float64 distance, reference index) over the whole reference
set, whichever back-end found the candidates; ties (duplicates, integer-valued embeddings)
go to the lower reference index. Memory is bounded: queries are searched in blocks of
``block_size`` (default: about 2²³ float32 distances per block on NumPy, 2²¹ candidates on
faiss).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from .options import Distance, KnnBackend

__all__ = ["Backend", "Distance", "Space", "exact_distances", "neighbours", "prepare", "searcher"]

Backend = KnnBackend

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

_U32 = 2.0**-24
_TINY32 = 2.0**-126  # float32's smallest normal number: absolute error of underflowing terms
_BUDGET = 1 << 23  # float32 distances held per block of the NumPy search
# Candidates per block of a faiss search: each costs about 80 bytes of temporaries on the way
# to the canonical order and the metrics (a larger block is not faster).
_CANDIDATE_BUDGET = 1 << 21
# Coordinates gathered per chunk of exact distances: small chunks stay in cache and reuse
# their memory (large temporaries cost a page fault per 4 KiB and run 5x slower).
_PAIR_BUDGET = 1 << 17


@dataclass(frozen=True, eq=False)
class Space:
    """Embeddings ready for search: canonical coordinates (``queries``, ``references``:
    float32 or float64 as given, float64 unit vectors for cosine), float32 copies for the
    search, and each query's error bound ``tolerance``."""

    distance: str
    queries: NDArray[Any]
    references: NDArray[Any]
    queries32: NDArray[np.float32]
    references32: NDArray[np.float32]
    tolerance: FloatArray

    @property
    def n_references(self) -> int:
        return int(self.references.shape[0])


def prepare(queries: NDArray[Any], references: NDArray[Any] | None, distance: str) -> Space:
    """A :class:`Space` of checked 2-D finite arrays (``references=None``: the queries)."""
    same = references is None
    if distance == "cosine":
        queries = _unit(queries, "query_embeddings")
        references = queries if references is None else _unit(references, "reference_embeddings")
    elif references is None:
        references = queries
    q32 = np.ascontiguousarray(queries, dtype=np.float32)
    r32 = q32 if same else np.ascontiguousarray(references, dtype=np.float32)
    q_norms = _squared_norms(queries)
    r_norms = q_norms if same else _squared_norms(references)
    _check_range(float(q_norms.max()) + float(r_norms.max()))
    d = queries.shape[1]
    tolerance = (2 * d + 16) * (_U32 * (q_norms + r_norms.max()) + d * _TINY32)
    return Space(distance, queries, references, q32, r32, tolerance)


def _squared_norms(x: NDArray[Any]) -> FloatArray:
    return cast(FloatArray, np.einsum("ij,ij->i", x, x, dtype=np.float64))


def _unit(x: NDArray[Any], name: str) -> FloatArray:
    norms = np.sqrt(_squared_norms(x))
    zero = np.flatnonzero(norms == 0)
    if zero.size:
        raise InputError(
            f"{name}[{int(zero[0])}] is the zero vector, whose cosine distance is undefined "
            f"({zero.size} zero vector{'s' if zero.size > 1 else ''})"
        )
    return np.asarray(x, dtype=np.float64) / norms[:, None]


def _check_range(largest: float) -> None:
    # Squared norms must stay finite in float32, the search's arithmetic.
    if not largest * 4 < float(np.finfo(np.float32).max):
        raise InputError(
            "embeddings too large for a float32 search (a squared norm overflows); scale them"
        )


def exact_distances(space: Space, rows: IntArray, cols: IntArray) -> FloatArray:
    """The canonical float64 distance of each (query ``rows[i]``, reference ``cols[i]``) pair,
    the same bits for a pair wherever and however often it is computed."""
    d = space.queries.shape[1]
    step = max(1, _PAIR_BUDGET // max(d, 1))
    out = np.empty(rows.size, dtype=np.float64)
    for start in range(0, rows.size, step):
        q = space.queries[rows[start : start + step]].astype(np.float64)
        r = space.references[cols[start : start + step]].astype(np.float64)
        if space.distance == "euclidean":
            q -= r
            q *= q
            out[start : start + step] = q.sum(axis=1)
        elif space.distance == "cosine":
            q *= r
            out[start : start + step] = 1.0 - q.sum(axis=1)
        else:
            q *= r
            out[start : start + step] = -q.sum(axis=1)
    return out


# ---------------------------------------------------------------- candidate searches


class Searcher(Protocol):
    name: str
    version: str | None

    def search(self, rows: IntArray, m: int) -> tuple[FloatArray, IntArray]:
        """The m nearest candidates of each query by float32 distance, ascending."""

    def rows_per_block(self, m: int) -> int:
        """Queries per search call that keep a block within the memory budget."""


class FaissSearcher:
    """Candidates from a faiss exact index (``IndexFlatL2``; ``IndexFlatIP`` for cosine, on
    unit vectors, and inner product)."""

    name = "faiss"

    def __init__(self, space: Space) -> None:
        from .._optional import require

        faiss = require("faiss")
        self.version: str | None = str(faiss.__version__)
        d = space.references32.shape[1]
        self.inner = space.distance != "euclidean"
        self.index = faiss.IndexFlatIP(d) if self.inner else faiss.IndexFlatL2(d)
        self.index.add(space.references32)
        self.space = space

    def search(self, rows: IntArray, m: int) -> tuple[FloatArray, IntArray]:
        found, idx = self.index.search(self.space.queries32[rows], m)
        approx = -found.astype(np.float64) if self.inner else found.astype(np.float64)
        idx = idx.astype(np.int64, copy=False)
        if (np.diff(approx, axis=1) < 0).any():  # faiss sorts its results; make sure
            order = np.argsort(approx, axis=1, kind="stable")
            return np.take_along_axis(approx, order, 1), np.take_along_axis(idx, order, 1)
        return approx, idx

    def rows_per_block(self, m: int) -> int:
        return max(1, _CANDIDATE_BUDGET // m)


class NumpySearcher:
    """Candidates from float32 distances to every reference, a block of queries at a time
    (``argpartition``), in about 12 bytes x block x references of memory."""

    name = "numpy"
    version: str | None = None

    def __init__(self, space: Space) -> None:
        self.space = space
        self.ref_norms = np.einsum("ij,ij->i", space.references32, space.references32)

    def search(self, rows: IntArray, m: int) -> tuple[FloatArray, IntArray]:
        q = self.space.queries32[rows]
        dist = q @ self.space.references32.T
        if self.space.distance == "euclidean":
            dist *= -2.0
            dist += self.ref_norms
            dist += np.einsum("ij,ij->i", q, q)[:, None]
        else:
            np.negative(dist, out=dist)
        n = dist.shape[1]
        if m < n:
            idx = np.argpartition(dist, m - 1, axis=1)[:, :m]
        else:
            idx = np.broadcast_to(np.arange(n), dist.shape)
        approx = np.take_along_axis(dist, idx, axis=1).astype(np.float64)
        order = np.argsort(approx, axis=1, kind="stable")
        return np.take_along_axis(approx, order, 1), np.take_along_axis(idx, order, 1)

    def rows_per_block(self, m: int) -> int:
        return max(1, _BUDGET // self.space.n_references)


def searcher(space: Space, backend: str) -> FaissSearcher | NumpySearcher:
    """The candidate search of ``backend``: ``"auto"`` is faiss when installed, else NumPy."""
    if backend == "numpy":
        return NumpySearcher(space)
    if backend == "faiss":
        return FaissSearcher(space)
    from ..errors import MissingExtraError

    try:
        return FaissSearcher(space)
    except MissingExtraError:
        return NumpySearcher(space)


# ---------------------------------------------------------------- the canonical order


def neighbours(
    space: Space,
    n: int,
    search: FaissSearcher | NumpySearcher,
    *,
    exclude_self: bool = False,
    block_size: int | None = None,
    rows: IntArray | None = None,
) -> Iterator[tuple[IntArray, IntArray]]:
    """``(rows, neighbours)`` blocks covering every query (or those of ``rows``) once: the
    indices of the ``n`` nearest references of each query of the block, nearest first, in
    the canonical order; with ``exclude_self``, query i is reference i and never its own
    neighbour."""
    wanted = n + int(exclude_self)
    total = space.n_references
    first_m = min(total, wanted + max(16, wanted // 8))
    step = block_size or search.rows_per_block(first_m)
    todo = np.arange(space.queries.shape[0], dtype=np.int64) if rows is None else rows
    for start in range(0, todo.size, step):
        block = todo[start : start + step]
        for done, idx in _block(space, block, wanted, first_m, search, step):
            yield done, (_drop_self(done, idx) if exclude_self else idx)


def _block(
    space: Space,
    rows: IntArray,
    n: int,
    m: int,
    search: FaissSearcher | NumpySearcher,
    step: int,
) -> Iterator[tuple[IntArray, IntArray]]:
    """Search ``rows`` with m candidates, doubling m for the queries whose candidates might
    miss one of their n nearest (a near tie at the boundary)."""
    total = space.n_references
    pending = rows
    while pending.size:
        failed = []
        chunk = max(1, min(step, search.rows_per_block(m), _CANDIDATE_BUDGET // m))
        for start in range(0, pending.size, chunk):
            part = pending[start : start + chunk]
            approx, idx = search.search(part, m)
            ok = np.full(part.size, m >= total)
            if m < total:
                ok = approx[:, m - 1] - approx[:, n - 1] > 2 * space.tolerance[part]
            if ok.any():
                yield part[ok], _canonical(space, part[ok], approx[ok], idx[ok])[:, :n]
            failed.append(part[~ok])
        pending = np.concatenate(failed)
        m = min(total, 2 * m)


def _canonical(space: Space, rows: IntArray, approx: FloatArray, idx: IntArray) -> IntArray:
    """Candidates (sorted by float32 distance) in the order (exact distance, index),
    recomputing exact distances only within runs of candidates whose float32 distances are
    within 2·tol of each other."""
    starts = np.ones(approx.shape, dtype=bool)
    starts[:, 1:] = np.diff(approx, axis=1) > 2 * space.tolerance[rows][:, None]
    ends = np.ones(approx.shape, dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    run = np.cumsum(starts, axis=1)
    exact = np.zeros(approx.shape)
    r, c = np.nonzero(~(starts & ends))  # members of runs of two or more
    exact[r, c] = exact_distances(space, rows[r], idx[r, c])
    order = np.lexsort((idx, exact, run), axis=1)
    return np.take_along_axis(idx, order, 1)


def _drop_self(rows: IntArray, idx: IntArray) -> IntArray:
    """Each row without the query itself (reference ``rows[i]``), or without its last
    neighbour when the query is not among them."""
    is_self = idx == rows[:, None]
    is_self[~is_self.any(axis=1), -1] = True
    return cast(IntArray, idx[~is_self].reshape(rows.size, idx.shape[1] - 1))
