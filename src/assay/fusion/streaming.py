"""Fusion of run files too large to hold together: :func:`fuse_files`.

Every fusion method is computed query by query (normalisations per run and query, Borda's
candidates per query, Condorcet per query), so a query's fused ranking needs only that
query's rows of every run. Each run file is read in blocks of whole queries
(:func:`assay.io.blocks.iter_run_blocks`); when every run lists its queries in ascending byte
order (``LC_ALL=C sort -k1,1 -s`` order, the order assay writes), the blocks are merged like
sorted lists: the queries up to the smallest last query of the runs' current blocks are
complete in every run, so they are fused and written, and the rest is carried over. Memory is
bounded by one block per run plus the fused rows of those queries, and the output is the
bytes :func:`~assay.fusion.fuse` followed by :meth:`~assay.Run.to_trec` would write.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from .._options import FusionMethod, Normalization, integer, number
from ..errors import EmptyInputError, InputError
from .methods import check_depth, check_method, check_norm, check_rrf_k, fuse, run_weights

if TYPE_CHECKING:
    from ..data import Run
    from ..io.trec import TrecColumns

__all__ = ["FusionSummary", "QueryOrderError", "fuse_files"]


class QueryOrderError(InputError):
    """A run file does not list its queries together in ascending byte order, so it cannot
    be fused block by block (fuse it in memory: :func:`assay.fusion.fuse`)."""


@dataclass(frozen=True)
class FusionSummary:
    """What :func:`fuse_files` read and wrote."""

    runs: int
    queries: int
    rows_read: int
    rows_written: int
    blocks: int


def _query_starts(query: pa.Array) -> np.ndarray:
    """Positions where a new query begins (0 included)."""
    n = len(query)
    if n < 2:
        return np.zeros(min(n, 1), dtype=np.int64)
    change = to_np(pc.not_equal(query.slice(1), query.slice(0, n - 1)), fill=False)
    return np.concatenate([[0], np.flatnonzero(change) + 1])


def _ascending_blocks(path: str, block_bytes: int | None) -> Iterator[TrecColumns]:
    """The run's blocks of whole queries, checked to list queries in ascending byte order."""
    from ..io.blocks import iter_run_blocks

    previous: Any = None
    for c in iter_run_blocks(path, block_bytes=block_bytes):
        firsts = c.query.take(from_np(_query_starts(c.query)))
        if previous is not None:
            firsts = pa.concat_arrays([pa.array([previous], pa.string()), firsts])
        if len(firsts) > 1:
            up = to_np(pc.less(firsts.slice(0, len(firsts) - 1), firsts.slice(1)), fill=False)
            if not up.all():
                bad = int(np.flatnonzero(~up)[0]) + 1
                raise QueryOrderError(
                    f"query {firsts[bad].as_py()!r} comes after {firsts[bad - 1].as_py()!r}: "
                    "the run's queries are not together in ascending byte order (sort it with "
                    "LC_ALL=C sort -k1,1 -s, or fuse it in memory)",
                    source=path,
                )
        previous = firsts[len(firsts) - 1].as_py()
        yield c


def _split(c: TrecColumns, n: int) -> tuple[TrecColumns, TrecColumns]:
    from ..io.trec import TrecColumns

    def part(start: int, stop: int) -> TrecColumns:
        return TrecColumns(
            c.query.slice(start, stop - start),
            c.doc.slice(start, stop - start),
            c.value[start:stop],
            c.lines[start:stop],
            c.source,
            c.tag,
        )

    return part(0, n), part(n, len(c.query))


def _as_run(c: TrecColumns | None, name: str) -> Run:
    from ..data import Run

    if c is None or len(c.query) == 0:
        empty = pa.array([], pa.string())
        nothing = np.zeros(0, dtype=np.int64)
        return Run.from_codes(empty, empty, nothing, nothing, np.zeros(0), name=name)
    return Run.from_columns(c.query, c.doc, c.value, name=name, source=c.source, lines=c.lines)


class _Cursor:
    """One run file: its blocks, and the rows read but not fused yet."""

    def __init__(self, path: str, block_bytes: int | None) -> None:
        self.path = path
        self.blocks = _ascending_blocks(path, block_bytes)
        self.pending: TrecColumns | None = next(self.blocks, None)
        self.read = 0 if self.pending is None else len(self.pending.query)
        self.n_blocks = 0 if self.pending is None else 1

    def last(self) -> str | None:
        c = self.pending
        return None if c is None else c.query[len(c.query) - 1].as_py()

    def take_through(self, bound: str) -> TrecColumns | None:
        """The pending rows of queries <= ``bound`` (a prefix: queries ascend)."""
        c = self.pending
        if c is None:
            return None
        n = int(to_np(pc.less_equal(c.query, bound), fill=False).sum())
        head, tail = _split(c, n)
        self.pending = tail if len(tail.query) else self._next()
        return head

    def _next(self) -> TrecColumns | None:
        c = next(self.blocks, None)
        if c is not None:
            self.read += len(c.query)
            self.n_blocks += 1
        return c


def _open_output(output: str | os.PathLike[str] | BinaryIO) -> tuple[BinaryIO, bool]:
    if isinstance(output, str | os.PathLike):
        return open(os.fspath(output), "wb"), True
    return output, False


def fuse_files(
    runs: Sequence[str | os.PathLike[str]],
    output: str | os.PathLike[str] | BinaryIO,
    *,
    method: FusionMethod | str = "rrf",
    norm: Normalization | str | None = "min-max",
    weights: Sequence[float] | None = None,
    rrf_k: float = 60,
    depth: int | None = None,
    name: str | None = None,
    gamma: float = 1.0,
    block_bytes: int | None = None,
) -> FusionSummary:
    """Fuse TREC run files into the TREC file ``output`` (a path or a binary file object)
    without holding the runs in memory; options and values are those of
    :func:`~assay.fusion.fuse`, and the file written holds the same bytes as
    ``fuse([Run.read(p) for p in runs], ...).to_trec(output)``.

    Each run must list its queries' rows together, queries in ascending byte order (as
    ``LC_ALL=C sort -k1,1 -s`` leaves them); otherwise a :class:`QueryOrderError` is raised
    (part of the output may have been written). ``block_bytes`` is the text read at a time
    from each run (default :data:`assay.io.blocks.DEFAULT_BLOCK_BYTES`)."""
    m, nm = check_method(method), check_norm(norm)
    k, g, depth = check_rrf_k(rrf_k), number(gamma, "gamma"), check_depth(depth)
    if block_bytes is not None:
        block_bytes = integer(block_bytes, "block_bytes", minimum=1)
    paths = [os.fspath(p) for p in runs]
    if not paths:
        raise EmptyInputError("no runs to fuse")
    w = run_weights(weights, len(paths))
    options: dict[str, Any] = {
        "method": m,
        "norm": nm,
        "weights": w,
        "rrf_k": k,
        "depth": depth,
        "gamma": g,
    }
    cursors = [_Cursor(p, block_bytes) for p in paths]
    fh, close = _open_output(output)
    queries = written = 0
    try:
        while True:
            lasts = [last for cur in cursors if (last := cur.last()) is not None]
            if not lasts:
                break
            bound = min(lasts)
            parts = [_as_run(cur.take_through(bound), str(i)) for i, cur in enumerate(cursors)]
            fused = fuse(parts, **options, name=name or m)
            fused.to_trec(fh)
            queries += fused.n_queries
            written += len(fused)
    finally:
        if close:
            fh.close()
    read = sum(cur.read for cur in cursors)
    return FusionSummary(len(paths), queries, read, written, sum(c.n_blocks for c in cursors))
