"""Runs read in blocks of whole queries, so memory is bounded by the block, not the file.

A block of text ends at a line boundary where one query's rows end and the next query's
begin: the rows of the query still open at the end of a read are carried into the next
block (found by a binary search over line starts, see ``_tail_start``), so every block holds
whole queries -- provided the file lists each query's rows together, as TREC runs do. The
reader does not check that; the evaluator does (a query seen in two blocks), and falls back.
Blocks of text are parsed on a few threads, in file order. A Parquet run is read in batches
of rows, the open query carried over the same way.
"""

from __future__ import annotations

import functools
import gzip
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import to_np
from .._parallel import ordered_map
from ..errors import EmptyInputError, InputError, ParseError
from . import streams
from .limits import check_decoded_strings, check_parquet
from .text import PathLike, source_name
from .trec import TrecColumns, parse_run

__all__ = [
    "DEFAULT_BLOCK_BYTES",
    "DEFAULT_BLOCK_ROWS",
    "iter_parquet_run_blocks",
    "iter_run_blocks",
]


#: Bytes of TREC text parsed at a time (about 120,000 run lines). Measured on a 7M-line run
#: (whole process, three runs each, 2 threads): 16 MiB blocks 1.46-1.69 s and 510-557 MB,
#: 8 MiB 1.52-1.62 s and 370-390 MB, 4 MiB 1.37-1.42 s and 354-357 MB, 2 MiB 1.56-1.77 s
#: (per-block overheads start to show). Small blocks keep each block's arrays in cache and
#: let the allocator reuse memory instead of asking the kernel for fresh pages.
DEFAULT_BLOCK_BYTES = 4 << 20
#: Rows of a Parquet run read at a time.
DEFAULT_BLOCK_ROWS = 1 << 17


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
            with streams.BoundedGzip(raw, p) as unzipped:
                yield unzipped  # type: ignore[misc]  # why: BoundedGzip reads as a BinaryIO
        else:
            yield raw


class _Unended:
    """In place of a piece: after the pieces before it, the input goes on for more than
    :data:`~assay.io.streams.MAX_LINE_BYTES` without a line end."""


def _tail_start(buf: bytes | bytearray, end: int) -> int:
    """Where the lines of the last query of ``buf[:end]`` (whole lines) begin: 0 when they are
    all one query's, ``end`` when they hold no record. A binary search over line starts, so
    finding the boundary costs a few dozen line reads, however long the query; it assumes the
    query's rows are together (if they are not, the evaluator notices and falls back)."""
    stop = end
    while True:
        if stop == 0:
            return end
        start = buf.rfind(b"\n", 0, stop - 1) + 1
        qid = _record_id(buf[start:stop])
        if qid is not None:
            break
        stop = start
    lo, hi = 0, start  # the first record at or after hi is the last query's; at lo, maybe not
    if _first_record_is(buf, 0, hi, qid):
        return 0
    while True:
        mid = (lo + hi) // 2
        m = buf.find(b"\n", mid, hi) + 1
        if m == 0 or m >= hi:
            m = buf.rfind(b"\n", lo, mid) + 1
            if m <= lo:
                return hi
        if _first_record_is(buf, m, hi, qid):
            hi = m
        else:
            lo = m


def _record_id(line: bytes | bytearray) -> bytes | bytearray | None:
    """The query id of a line; None for a comment or blank line."""
    if line.startswith(b"#"):
        return None
    fields = line.split(None, 1)
    return fields[0] if fields else None


def _first_record_is(buf: bytes | bytearray, pos: int, stop: int, qid: bytes | bytearray) -> bool:
    """Whether the first record line from ``pos`` (a line start) before ``stop`` has query
    ``qid`` (True when there is none)."""
    while pos < stop:
        end = buf.find(b"\n", pos, stop) + 1 or stop
        rid = _record_id(buf[pos:end])
        if rid is not None:
            return rid == qid
        pos = end
    return True


def _query_pieces(fh: BinaryIO, block_bytes: int, source: str) -> Iterator[bytearray | _Unended]:
    """Pieces of the input of about ``block_bytes``, each ending where a query's rows end
    (the last one may not end with a line feed). Each piece is read into its own buffer,
    which is then cut to size, not copied; only the carried-over query is copied. A query
    longer than a block is read on until it ends; reads grow with it, so carrying it costs
    time in proportion to its size."""
    tail: bytes | bytearray = b""
    first = True
    while True:
        buf = bytearray(len(tail) + max(block_bytes, len(tail)))
        buf[: len(tail)] = tail
        got = _read_into(fh, buf, len(tail), source)
        del buf[len(tail) + got :]
        if first and (len(buf) >= 3 or got == 0):  # a BOM may come in reads of a byte or two
            if buf[:3] == b"\xef\xbb\xbf":
                del buf[:3]
            first = False
        if got == 0:
            if buf:
                yield buf
            return
        end = buf.rfind(b"\n") + 1
        if len(buf) - end > streams.MAX_LINE_BYTES:
            if end:
                del buf[end:]
                yield buf
            yield _Unended()
            return
        start = _tail_start(buf, end) if end else 0
        if start == 0:
            tail = buf
            continue
        tail = bytes(buf[start:])
        del buf[start:]
        yield buf


def _read_into(fh: BinaryIO, buf: bytearray, at: int, source: str) -> int:
    """Read into ``buf[at:]``: the number of bytes read, 0 at the end of the input."""
    view = memoryview(buf)[at:]
    try:
        readinto = getattr(fh, "readinto", None)
        if readinto is not None:
            return int(readinto(view) or 0)
        data = fh.read(len(view))
        view[: len(data)] = data
        return len(data)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise ParseError(f"not a valid gzip file: {exc}", source=source) from None
    finally:
        view.release()


@dataclass(frozen=True)
class _Parsed:
    """A piece parsed on a worker thread: its run columns (lines counted from the piece's
    start), or the error it raised (line likewise), and how many lines it holds."""

    columns: TrecColumns | None
    error: InputError | None
    lines: int


def _parse_piece(piece: bytearray | _Unended, source: str) -> _Parsed:
    if isinstance(piece, _Unended):
        error = ParseError(
            f"a line longer than {streams.size_text(streams.MAX_LINE_BYTES)} without a line "
            "end: this is not a text file",
            line=1,
        )
        return _Parsed(None, error, 0)
    try:
        parsed: TrecColumns | None = parse_run(piece, source)
    except EmptyInputError:
        parsed = None
    except InputError as exc:
        return _Parsed(None, exc, 0)
    return _Parsed(parsed, None, _line_count(piece, parsed))


def _line_count(piece: bytearray, parsed: TrecColumns | None) -> int:
    """Lines in ``piece``: when its last line is a record, the parser numbered it already
    (counting every line feed again costs about a tenth of a streamed evaluation)."""
    if parsed is not None and len(parsed.lines):
        last = piece[piece.rfind(b"\n", 0, len(piece) - 1) + 1 :].strip()
        if last and not last.startswith(b"#"):
            return int(parsed.lines[-1])
    return piece.count(b"\n")


def iter_run_blocks(
    path: PathLike | BinaryIO, *, block_bytes: int | None = None, workers: int | None = None
) -> Iterator[TrecColumns]:
    """A TREC run as consecutive blocks of whole queries (see the module docstring), parsed
    on ``workers`` threads (default: :func:`assay._parallel.worker_count`), in file order.

    Errors name the file and its line, as :func:`assay.io.trec.read_run` does; a file with no
    records is an :class:`~assay.errors.EmptyInputError`.
    """
    source = source_name(path)
    seen_any = False
    lines = 0  # lines before the current piece
    with _open(path) as fh:
        pieces = _query_pieces(fh, block_bytes or DEFAULT_BLOCK_BYTES, source)
        parse = functools.partial(_parse_piece, source=source)
        for parsed in ordered_map(parse, pieces, workers=workers):
            if parsed.error is not None:
                exc = parsed.error
                line = None if exc.line is None else exc.line + lines
                raise type(exc)(exc.detail, source=source, line=line) from None
            c = parsed.columns
            if c is not None:
                seen_any = True
                yield TrecColumns(c.query, c.doc, c.value, c.lines + lines, source, c.tag)
            lines += parsed.lines
    if not seen_any:
        raise EmptyInputError("the run holds no results", source=source)


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
    return c.rows(0, start), c.rows(start)


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

    from .tabular import pick_columns, text_columns

    p = os.fspath(path)
    try:
        handle = pq.ParquetFile(p)
        check_parquet(handle.metadata, os.path.getsize(p), p)
        # Text stays dictionary-encoded until each batch's decoded size is checked.
        handle = pq.ParquetFile(p, read_dictionary=text_columns(handle.schema_arrow))
    except (pa.ArrowInvalid, OSError) as exc:
        raise ParseError(f"cannot read as Parquet: {exc}", source=p) from None
    carry: TrecColumns | None = None
    first_row = 0
    for batch in handle.iter_batches(batch_size=rows, columns=[query, doc, score]):
        table = pa.Table.from_batches([batch])
        check_decoded_strings(table, os.path.getsize(p), p)
        cols = pick_columns(table, {"query": query, "doc": doc, "score": score}, p)
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
