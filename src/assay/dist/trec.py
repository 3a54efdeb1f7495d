"""A TREC run file as a Dask DataFrame, read by the workers in byte ranges.

Each partition is a byte range of the file, widened to whole lines: a range starts after the
first line feed at or after its start (the previous range owns the line that crosses the
boundary) and ends with the line that crosses its end. The workers must see the file at the
same path (a shared file system). A gzip file cannot be cut: it is one partition. Ranges cut
queries; :func:`assay.dist.evaluate` shuffles by query before evaluating.
"""

from __future__ import annotations

import io
import os
from typing import TYPE_CHECKING, Any, cast

from .._optional import require
from ..errors import InputError, ParseError
from ._watch import Fingerprint, check_unchanged, fingerprint

if TYPE_CHECKING:
    from dask.dataframe import DataFrame as DaskFrame

__all__ = ["DEFAULT_PARTITION_BYTES", "read_trec_run"]

#: Bytes of TREC text per partition when none is given.
DEFAULT_PARTITION_BYTES = 128 << 20


def _whole_lines(path: str, start: int, stop: int) -> bytes:
    """The lines of ``path`` owned by the byte range [start, stop)."""
    with open(path, "rb") as fh:
        if start > 0:
            fh.seek(start - 1)
            fh.readline()  # the line crossing ``start`` belongs to the range before
        begin = fh.tell()
        if begin >= stop:
            return b""
        data = fh.read(stop - begin)
        if data and not data.endswith(b"\n"):
            data += fh.readline()
    return data


def _frame(query: Any, doc: Any, score: Any) -> Any:
    import pyarrow as pa

    return pa.table({"query": query, "doc": doc, "score": score}).to_pandas()


def _empty() -> Any:
    import numpy as np
    import pyarrow as pa

    return _frame(pa.array([], pa.string()), pa.array([], pa.string()), np.zeros(0))


def _range_frame(path: str, start: int, stop: int, planned: Fingerprint | None = None) -> Any:
    """One byte range as a pandas DataFrame (query, doc, score); ``planned``: the file's
    size and modification time when the ranges were cut, checked once the range is read
    (a file that grew would lose its new rows)."""
    from ..io.streams import read_bytes
    from ..io.trec import read_run

    if stop < 0:  # a gzip file: one partition, its expansion bounded as every reader's
        data = read_bytes(path)
    else:
        data = _whole_lines(path, start, stop)
    check_unchanged({} if planned is None else {path: planned})
    if not data.strip():
        return _empty()
    try:
        c = read_run(io.BytesIO(data))
    except InputError as exc:
        where = f"bytes {start}-{stop}" if stop >= 0 else "the file"
        raise ParseError(f"{exc.detail} (line {exc.line} of {where})", source=path) from None
    return _frame(c.query, c.doc, c.value)


def read_trec_run(path: str | os.PathLike[str], *, partition_bytes: int | None = None) -> DaskFrame:
    """A TREC run file as a Dask DataFrame with columns ``query``, ``doc``, ``score``.

    Each partition is a byte range of the file, widened to whole lines. Partitions may cut
    queries: evaluate with ``shuffled=False`` (the default).

    Parameters
    ----------
    path : str or os.PathLike
        The run file, at the same path for every worker (a gzip file is one partition).
    partition_bytes : int, optional
        Bytes of TREC text per partition; default :data:`DEFAULT_PARTITION_BYTES` (128 MiB).

    Returns
    -------
    dask.dataframe.DataFrame
        The run's rows, one partition per byte range, read when computed.

    Examples
    --------
    >>> from assay import datasets, dist
    >>> _, runs = datasets.synthetic(n_queries=20, docs_per_query=10, seed=0)
    >>> runs["run1"].to_trec("run1.txt")
    >>> frame = dist.read_trec_run("run1.txt", partition_bytes=2000)
    >>> frame.npartitions, list(frame.columns), len(frame.compute())
    (3, ['query', 'doc', 'score'], 200)
    """
    dask = require("dask")
    dd = require("dask.dataframe")
    from .._options import integer

    p = os.fspath(path)
    if not os.path.isfile(p):
        raise ParseError("no such file" if not os.path.exists(p) else "not a file", source=p)
    given = DEFAULT_PARTITION_BYTES if partition_bytes is None else partition_bytes
    step = integer(given, "partition_bytes", minimum=1)
    with open(p, "rb") as fh:
        gzipped = fh.read(2) == b"\x1f\x8b"
    planned = fingerprint(p)
    size = planned[0]
    ranges = [(0, -1)] if gzipped else [(s, min(s + step, size)) for s in range(0, size, step)]
    parts = [dask.delayed(_range_frame)(p, a, b, planned) for a, b in ranges or [(0, 0)]]
    return cast("DaskFrame", dd.from_delayed(parts, meta=_empty(), verify_meta=False))
