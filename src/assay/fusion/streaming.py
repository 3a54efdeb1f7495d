"""Fusion of run files too large to hold together: :func:`fuse_files`.

Every fusion method is computed query by query (normalisations per run and query, Borda's
candidates per query, Condorcet per query), so a query's fused ranking needs only that
query's rows of every run. Each run file is read in blocks of whole queries
(:func:`assay.io.blocks.iter_run_blocks`); when every run lists its queries in the same
ascending order (byte order, as ``LC_ALL=C sort -k1,1 -s`` and assay write them, or the
numeric order of integer ids), the blocks are merged like sorted lists: the queries up to the
smallest last query of the runs' current blocks are complete in every run, so they are fused
and written, and the rest is carried over. Memory is bounded by one block per run plus the
fused rows of those queries. In byte order the output is the bytes :func:`~assay.fusion.fuse`
followed by :meth:`~assay.Run.to_trec` would write; in numeric order, the same lines with the
queries in numeric order.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from .._files import atomic_open, atomic_path
from .._options import choice, flag, integer, number
from ..errors import EmptyInputError, InputError
from .methods import check_depth, check_method, check_norm, check_rrf_k, fuse, run_weights
from .options import FusionMethod, Normalization, QueryOrder

if TYPE_CHECKING:
    from ..data import Run
    from ..io.trec import TrecColumns

__all__ = ["FusionSummary", "QueryOrderError", "fuse_files", "worth_streaming"]


class QueryOrderError(InputError):
    """A run file does not list its queries together in ascending byte order, so it cannot
    be fused block by block (fuse it in memory: :func:`assay.fusion.fuse`)."""


@dataclass(frozen=True)
class FusionSummary:
    """What :func:`fuse_files` read and wrote.

    Parameters
    ----------
    runs : int
        The number of run files fused.
    queries : int
        The number of queries written.
    rows_read, rows_written : int
        The rows read from the runs and written to the fused run.
    blocks : int
        The blocks read, over all runs (0 for a fusion in memory).

    Examples
    --------
    >>> import io
    >>> from assay import Run
    >>> from assay.fusion import fuse_files
    >>> Run.from_dict({"q1": {"d1": 3.0, "d2": 1.0}}, name="a").to_trec("fs-a.run")
    >>> Run.from_dict({"q1": {"d2": 2.0, "d3": 1.0}}, name="b").to_trec("fs-b.run")
    >>> fuse_files(["fs-a.run", "fs-b.run"], io.BytesIO(), stream=True)
    FusionSummary(runs=2, queries=1, rows_read=4, rows_written=3, blocks=2)
    """

    runs: int
    queries: int
    rows_read: int
    rows_written: int
    blocks: int


def _keys(query: pa.Array, order: str) -> pa.Array | None:
    """The sort keys of query ids: the ids (byte order) or their integer values; None when
    an id is not an integer."""
    if order == "bytes":
        return query
    try:
        return pc.cast(query, pa.int64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def _first_descent(firsts: pa.Array, order: str) -> int | None:
    """Index of the first query (of consecutive distinct ones) not above the one before it
    in ``order``, or None when they ascend; 0 when the ids are not integers."""
    keys = _keys(firsts, order)
    if keys is None:
        return 0
    if len(keys) < 2:
        return None
    up = to_np(pc.less(keys.slice(0, len(keys) - 1), keys.slice(1)), fill=False)
    return None if up.all() else int(np.flatnonzero(~up)[0]) + 1


class _Cursor:
    """One run file: its blocks, checked to list queries in ascending order, and the rows
    read but not fused yet."""

    def __init__(self, path: str, block_bytes: int | None) -> None:
        from ..io.blocks import iter_run_blocks

        self.path = path
        self.order = "bytes"
        self.blocks = iter_run_blocks(path, block_bytes=block_bytes)
        self.previous: pa.Array | None = None  # the last query id checked
        self.pending: TrecColumns | None = next(self.blocks, None)
        self.read = 0 if self.pending is None else len(self.pending.query)
        self.n_blocks = 0 if self.pending is None else 1

    def firsts(self, c: TrecColumns) -> pa.Array:
        """The block's distinct consecutive query ids, after the last one checked."""
        from ..io.trec import query_starts

        firsts = c.query.take(from_np(query_starts(c.query)))
        if self.previous is not None:
            firsts = pa.concat_arrays([self.previous, firsts])
        return firsts

    def ascends(self, order: str) -> bool:
        """Whether the first block lists its queries in ascending ``order``."""
        return self.pending is None or _first_descent(self.firsts(self.pending), order) is None

    def check(self, c: TrecColumns) -> None:
        firsts = self.firsts(c)
        if self.order == "numeric" and _keys(firsts, "numeric") is None:
            raise QueryOrderError(
                "query_order='numeric' needs integer query ids, and the run has others",
                source=self.path,
            )
        bad = _first_descent(firsts, self.order)
        if bad is not None:
            what = "byte" if self.order == "bytes" else "numeric"
            raise QueryOrderError(
                f"query {firsts[bad].as_py()!r} comes after {firsts[bad - 1].as_py()!r}: "
                f"the run's queries are not together in ascending {what} order (give "
                "query_order, sort the run with LC_ALL=C sort -k1,1 -s, or fuse it in memory)",
                source=self.path,
            )
        self.previous = firsts.slice(len(firsts) - 1)

    def last(self) -> Any:
        """The sort key of the last pending query (None when the run is exhausted)."""
        c = self.pending
        if c is None:
            return None
        last = c.query[len(c.query) - 1].as_py()
        return last if self.order == "bytes" else int(last)

    def take_through(self, bound: Any) -> TrecColumns | None:
        """The pending rows of queries <= ``bound`` (a prefix: queries ascend)."""
        c = self.pending
        if c is None:
            return None
        keys = _keys(c.query, self.order)
        n = int(to_np(pc.less_equal(keys, bound), fill=False).sum())
        head, tail = c.rows(0, n), c.rows(n)
        self.pending = tail if len(tail.query) else self._next()
        return head

    def _next(self) -> TrecColumns | None:
        c = next(self.blocks, None)
        if c is not None:
            self.check(c)
            self.read += len(c.query)
            self.n_blocks += 1
        return c


def _choose_order(cursors: list[_Cursor], order: str) -> str:
    """``order``, or with "auto" the one every run's first block follows: numeric when the
    ids are integers in numeric order (runs over numbered topics), else bytes. Checked on
    those first blocks."""
    if order == "auto":
        numeric = all(c.ascends("numeric") for c in cursors)
        order = "numeric" if numeric else "bytes"
    for cur in cursors:
        cur.order = order
        if cur.pending is not None:
            cur.check(cur.pending)
    return order


def _as_run(c: TrecColumns | None, name: str) -> Run:
    from ..data import Run

    if c is None or len(c.query) == 0:
        empty = pa.array([], pa.string())
        nothing = np.zeros(0, dtype=np.int64)
        return Run.from_codes(empty, empty, nothing, nothing, np.zeros(0), name=name)
    return Run.from_columns(c.query, c.doc, c.value, name=name, source=c.source, lines=c.lines)


@contextmanager
def _output(output: str | os.PathLike[str] | BinaryIO) -> Iterator[BinaryIO]:
    """A file object to write the fused run to: ``output`` itself, or a file that replaces
    the path ``output`` only once it is complete (gzip-compressed for a ``.gz`` path, as
    :meth:`Run.to_trec` writes it)."""
    if not isinstance(output, str | os.PathLike):
        yield output
    elif os.fspath(output).endswith(".gz"):
        with atomic_path(output) as tmp, pa.CompressedOutputStream(tmp, "gzip") as out:
            yield cast(BinaryIO, out)
    else:
        with atomic_open(output) as fh:
            yield cast(BinaryIO, fh)  # opened "wb"


def _write(fused: Run, fh: BinaryIO, order: str) -> None:
    """The fused rows in TREC format; in numeric query order, queries are put in that order
    (each query's rows as :meth:`Run.to_trec` writes them)."""
    if order == "bytes":
        fused.to_trec(fh)
        return
    from ..io.trec import write_run

    t = fused.to_arrow()
    key = pc.cast(t.column("query"), pa.int64())
    rows = pa.table({"k": key, "i": pa.array(np.arange(t.num_rows))})
    t = t.take(pc.sort_indices(rows, sort_keys=[("k", "ascending"), ("i", "ascending")]))
    write_run(
        fh,
        t.column("query").combine_chunks(),
        t.column("doc").combine_chunks(),
        to_np(t.column("rank").combine_chunks()),
        to_np(t.column("score").combine_chunks()),
        fused.tag or fused.name,
    )


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
    query_order: QueryOrder = "auto",
    stream: bool | None = True,
) -> FusionSummary:
    """Fuse TREC run files into the TREC file ``output`` (a path or a binary file object);
    options and values are those of :func:`~assay.fusion.fuse`, and the file written holds
    the same bytes as ``fuse([Run.read(p) for p in runs], ...).to_trec(output)``.

    Parameters
    ----------
    runs
        The TREC run files (two or more to fuse anything).
    output
        The fused run's file (a ``.gz`` path is compressed), or a binary file object.
    method, norm, weights, rrf_k, depth, name, gamma
        As :func:`~assay.fusion.fuse`.
    block_bytes
        The text read at a time from each run when streaming (default
        :data:`assay.io.blocks.DEFAULT_BLOCK_BYTES`).
    query_order
        When streaming, the order every run lists its queries in: ``bytes`` (as
        ``LC_ALL=C sort -k1,1 -s`` leaves them, and as assay writes runs), ``numeric``
        (integer query ids in numeric order; the output then lists queries in numeric order,
        each query's rows as the in-memory fusion writes them) or ``auto`` (the order every
        run's first block follows, bytes when both fit).
    stream
        ``True``: block by block, without holding the runs in memory; each run must list its
        queries' rows together in ``query_order``, else a :class:`QueryOrderError` is raised
        (part of a file object's output may have been written). ``False``: the runs are read
        whole and fused in memory. ``None``: assay decides, as ``assay fuse`` does: block by
        block when every run is a file and one is at least
        :data:`assay.evaluation.STREAM_BYTES` large (the ranking core's one threshold), else
        in memory; a run whose queries are out of order is then fused in memory instead,
        with an :class:`~assay.errors.InputWarning`, and ``output`` is written whole or not
        at all.

    Returns
    -------
    FusionSummary
        What was read and written (``blocks`` is 0 for a fusion in memory).

    Examples
    --------
    >>> import os, tempfile
    >>> from assay import Run
    >>> from assay.fusion import fuse_files
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 1.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 2.0, "d3": 1.0}}, name="b")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     paths = [os.path.join(d, f"{r.name}.run") for r in (a, b)]
    ...     for r, p in zip((a, b), paths, strict=True):
    ...         r.to_trec(p)
    ...     summary = fuse_files(paths, os.path.join(d, "fused.run"), stream=None)
    >>> summary.queries, summary.rows_written
    (1, 3)
    """
    options: dict[str, Any] = {
        "method": method,
        "norm": norm,
        "weights": weights,
        "rrf_k": rrf_k,
        "depth": depth,
        "name": name,
        "gamma": gamma,
    }
    if stream is not None:
        stream = flag(stream, "stream")
    if stream is None:
        return _fuse_decided(runs, output, options, block_bytes, query_order)
    if not stream:
        return _fuse_in_memory(runs, output, options)
    return _fuse_blocks(runs, output, options, block_bytes, query_order)


def worth_streaming(runs: Sequence[str | os.PathLike[str]]) -> bool:
    """Whether :func:`fuse_files` with ``stream=None`` fuses ``runs`` block by block: every
    run is a file (not ``-``, stdin) and one is at least :data:`assay.evaluation.STREAM_BYTES`
    large."""
    from ..evaluation import STREAM_BYTES

    paths = [os.fspath(p) for p in runs]
    if not all(p != "-" and os.path.isfile(p) for p in paths):
        return False
    return any(os.path.getsize(p) >= STREAM_BYTES for p in paths)


def _fuse_decided(
    runs: Sequence[str | os.PathLike[str]],
    output: str | os.PathLike[str] | BinaryIO,
    options: dict[str, Any],
    block_bytes: int | None,
    query_order: QueryOrder,
) -> FusionSummary:
    """``stream=None``: block by block when worth it, in memory otherwise or when a run's
    queries are out of order. A file object receives the fused run only once it is whole
    (through a temporary file), so a fallback never follows a partial output."""
    import shutil
    import tempfile
    import warnings

    from ..errors import InputWarning

    if not worth_streaming(runs):
        return _fuse_in_memory(runs, output, options)
    try:
        if isinstance(output, str | os.PathLike):
            return _fuse_blocks(runs, output, options, block_bytes, query_order)
        with tempfile.TemporaryDirectory(prefix="assay-fuse-") as folder:
            tmp = os.path.join(folder, "fused.txt")
            summary = _fuse_blocks(runs, tmp, options, block_bytes, query_order)
            with open(tmp, "rb") as fh:
                shutil.copyfileobj(fh, output)
            return summary
    except QueryOrderError as exc:
        warnings.warn(f"{exc}; fusing in memory instead", InputWarning, stacklevel=3)
        return _fuse_in_memory(runs, output, options)


def _fuse_in_memory(
    runs: Sequence[str | os.PathLike[str]],
    output: str | os.PathLike[str] | BinaryIO,
    options: dict[str, Any],
) -> FusionSummary:
    from ..data import Run

    loaded = [Run.from_trec(os.fspath(p)) for p in runs]
    fused = fuse(loaded, **options)
    fused.to_trec(output)
    read = sum(len(r) for r in loaded)
    return FusionSummary(len(loaded), fused.n_queries, read, len(fused), 0)


def _fuse_blocks(
    runs: Sequence[str | os.PathLike[str]],
    output: str | os.PathLike[str] | BinaryIO,
    given: dict[str, Any],
    block_bytes: int | None,
    query_order: QueryOrder,
) -> FusionSummary:
    """Block by block (see the module docstring); ``given``: the options of :func:`fuse`."""
    method, norm, weights = given["method"], given["norm"], given["weights"]
    rrf_k, depth, name, gamma = given["rrf_k"], given["depth"], given["name"], given["gamma"]
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
    order = choice(query_order, QueryOrder, "query_order")
    cursors = [_Cursor(p, block_bytes) for p in paths]
    order = _choose_order(cursors, order)
    queries = written = 0
    with _output(output) as fh:
        while True:
            lasts = [last for cur in cursors if (last := cur.last()) is not None]
            if not lasts:
                break
            bound = min(lasts)
            parts = [_as_run(cur.take_through(bound), str(i)) for i, cur in enumerate(cursors)]
            fused = fuse(parts, **options, name=name or m)
            _write(fused, fh, order)
            queries += fused.n_queries
            written += len(fused)
    read = sum(cur.read for cur in cursors)
    return FusionSummary(len(paths), queries, read, written, sum(c.n_blocks for c in cursors))
