"""Runs read in blocks of whole queries, so memory is bounded by the block, not the file.

A block ends at a line boundary; the rows of the query that is still open at the end of a
block (it may continue in the next one) are carried over, so every block holds whole
queries -- provided the file lists each query's rows together, as TREC runs do. The reader
does not check that; the evaluator does (a query seen in two blocks), and falls back.
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import to_np
from ..errors import EmptyInputError, InputError, ParseError
from . import streams
from .text import PathLike, source_name
from .trec import TrecColumns, read_run

__all__ = [
    "DEFAULT_BLOCK_BYTES",
    "DEFAULT_BLOCK_ROWS",
    "iter_parquet_run_blocks",
    "iter_run_blocks",
]


#: Bytes of TREC text parsed at a time (about 500,000 run lines). Measured on a 7M-line run
#: (benchmarks/RESULTS.md): 16 MiB blocks peak at about a third of the memory of 64 MiB ones,
#: in the same time; smaller blocks start to cost time.
DEFAULT_BLOCK_BYTES = 16 << 20
#: Rows of a Parquet run read at a time.
DEFAULT_BLOCK_ROWS = 1 << 19


@contextmanager
def _open(path: PathLike | BinaryIO) -> Iterator[BinaryIO]:
    if not isinstance(path, str | os.PathLike):
        yield path
        return
    p = os.fspath(path)
    if p == "-":
        yield streams.stdin()
        return
    if not os.path.isfile(p):
        raise ParseError("no such file" if not os.path.exists(p) else "not a file", source=p)
    with open(p, "rb") as raw:
        magic = raw.read(2)
        raw.seek(0)
        if magic == b"\x1f\x8b":
            with gzip.open(raw, "rb") as unzipped:
                yield unzipped  # type: ignore[misc]
        else:
            yield raw


def _read(fh: BinaryIO, size: int, source: str) -> bytes:
    try:
        return fh.read(size)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ParseError(f"not a valid gzip file: {exc}", source=source) from None


def _chunks(fh: BinaryIO, block_bytes: int, source: str, lines: list[int]) -> Iterator[bytes]:
    """Pieces of the input that end at a line feed (the last one may not). A line longer
    than :data:`~assay.io.streams.MAX_LINE_BYTES` is refused (``/dev/zero`` piped in would
    otherwise be read until memory runs out), at line ``lines[0] + 1``: the caller keeps
    ``lines[0]``, the lines of the pieces it has taken."""
    tail = b""
    while True:
        data = _read(fh, block_bytes, source)
        buf = tail + data
        if not data:
            if buf:
                yield buf
            return
        cut = buf.rfind(b"\n") + 1
        if cut == 0:
            if len(buf) > streams.MAX_LINE_BYTES:
                raise ParseError(
                    f"a line longer than {streams.size_text(streams.MAX_LINE_BYTES)} without "
                    "a line end: this is not a text file",
                    source=source,
                    line=lines[0] + 1,
                )
            tail = buf
            continue
        chunk, tail = buf[:cut], buf[cut:]
        yield chunk


def _line_count(chunk: bytes, parsed: TrecColumns | None, lines_before: int) -> int:
    """Lines in ``chunk``: when its last line is a record, the parser numbered it already
    (counting every line feed again costs about a tenth of a streamed evaluation)."""
    if parsed is not None and len(parsed.lines):
        last = chunk[chunk.rfind(b"\n", 0, len(chunk) - 1) + 1 :].strip()
        if last and not last.startswith(b"#"):
            return int(parsed.lines[-1]) - lines_before
    return chunk.count(b"\n")


def _parse(chunk: bytes, source: str, lines_before: int) -> TrecColumns | None:
    """One piece as run columns with file line numbers; None when it holds no records."""
    if lines_before == 0 and chunk[:3] == b"\xef\xbb\xbf":
        chunk = chunk[3:]
    try:
        c = read_run(io.BytesIO(chunk))
    except EmptyInputError:
        return None
    except InputError as exc:
        line = None if exc.line is None else exc.line + lines_before
        raise type(exc)(exc.detail, source=source, line=line) from None
    return TrecColumns(c.query, c.doc, c.value, c.lines + lines_before, source, c.tag)


def _concat(a: TrecColumns | None, b: TrecColumns) -> TrecColumns:
    if a is None:
        return b
    return TrecColumns(
        pa.concat_arrays([a.query, b.query]),
        pa.concat_arrays([a.doc, b.doc]),
        np.concatenate([a.value, b.value]),
        np.concatenate([a.lines, b.lines]),
        b.source,
        b.tag or a.tag,
    )


def _split_open_query(c: TrecColumns) -> tuple[TrecColumns | None, TrecColumns]:
    """The rows before the last query's trailing run, and that run (it may continue)."""
    last = c.query[len(c.query) - 1]
    same = to_np(pc.equal(c.query, last), fill=False)
    differs = np.flatnonzero(~same)
    start = int(differs[-1]) + 1 if len(differs) else 0
    if start == 0:
        return None, c
    done = TrecColumns(
        c.query.slice(0, start),
        c.doc.slice(0, start),
        c.value[:start],
        c.lines[:start],
        c.source,
        c.tag,
    )
    rest = TrecColumns(
        c.query.slice(start),
        c.doc.slice(start),
        c.value[start:],
        c.lines[start:],
        c.source,
        c.tag,
    )
    return done, rest


def iter_run_blocks(
    path: PathLike | BinaryIO, *, block_bytes: int | None = None
) -> Iterator[TrecColumns]:
    """A TREC run as consecutive blocks of whole queries (see the module docstring).

    Errors name the file and its line, as :func:`assay.io.trec.read_run` does; a file with no
    records is an :class:`~assay.errors.EmptyInputError`.
    """
    source = source_name(path)
    carry: TrecColumns | None = None
    seen_any = False
    lines = [0]  # lines before the current piece
    with _open(path) as fh:
        for chunk in _chunks(fh, block_bytes or DEFAULT_BLOCK_BYTES, source, lines):
            parsed = _parse(chunk, source, lines[0])
            lines[0] += _line_count(chunk, parsed, lines[0])
            if parsed is None:
                continue
            seen_any = True
            done, carry = _split_open_query(_concat(carry, parsed))
            if done is not None:
                yield done
    if carry is not None:
        yield carry
    if not seen_any:
        raise EmptyInputError("the run holds no results", source=source)


def iter_parquet_run_blocks(
    path: PathLike,
    *,
    query: str = "query",
    doc: str = "doc",
    score: str = "score",
    rows: int | None = None,
) -> Iterator[TrecColumns]:
    """A Parquet run as blocks of whole queries, read ``rows`` rows at a time."""
    rows = rows or DEFAULT_BLOCK_ROWS
    import pyarrow.parquet as pq

    from .tabular import pick_columns

    p = os.fspath(path)
    try:
        handle = pq.ParquetFile(p)
    except (pa.ArrowInvalid, OSError) as exc:
        raise ParseError(f"cannot read as Parquet: {exc}", source=p) from None
    carry: TrecColumns | None = None
    first_row = 0
    for batch in handle.iter_batches(batch_size=rows, columns=[query, doc, score]):
        cols = pick_columns(
            pa.Table.from_batches([batch]), {"query": query, "doc": doc, "score": score}, p
        )
        n = batch.num_rows
        block = TrecColumns(
            cols["query"].combine_chunks().cast(pa.string()),
            cols["doc"].combine_chunks().cast(pa.string()),
            to_np(cols["score"].combine_chunks().cast(pa.float64()), fill=np.nan),
            np.arange(first_row + 1, first_row + n + 1, dtype=np.int64),
            p,
        )
        first_row += n
        done, carry = _split_open_query(_concat(carry, block))
        if done is not None:
            yield done
    if carry is not None:
        yield carry
    if first_row == 0:
        raise EmptyInputError("no data rows", source=p)
