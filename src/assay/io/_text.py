"""Reading whitespace-separated text tables (TREC qrels and runs) with pyarrow.

Two paths give identical results:

* a fast path: pyarrow's multithreaded CSV reader with a single-character delimiter (tab or
  space) sniffed from the first data line. It is taken only when every line has exactly the
  sniffed number of non-empty fields and no field contains other white space, so it cannot
  disagree with splitting on white space.
* an exact path: every line is read as bytes, checked for UTF-8, comment (``#`` in column 1)
  and blank lines are set aside, and lines are split on runs of white space. It reports the
  file's own line number in every error.
"""

from __future__ import annotations

import gzip
import io
import os
import sys
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from ..errors import EmptyInputError, ParseError

PathLike = str | os.PathLike[str]
_GZIP_MAGIC = b"\x1f\x8b"


@dataclass
class TextColumns:
    """Columns of a text table, as strings, with the 1-based line number of every row."""

    columns: list[pa.Array]
    line: np.ndarray  # int64, 1-based line numbers in the source
    last_line_tokens: list[str]
    source: str


def source_name(path: PathLike | BinaryIO) -> str:
    if isinstance(path, str | os.PathLike):
        return "<stdin>" if str(path) == "-" else os.fspath(path)
    return getattr(path, "name", "<stream>")


def _open_bytes(path: PathLike | BinaryIO) -> pa.Buffer | str:
    """A path pyarrow can read (decompressing .gz itself), or a buffer for stdin/streams."""
    if isinstance(path, str | os.PathLike):
        p = os.fspath(path)
        if p == "-":
            data = sys.stdin.buffer.read()
        else:
            if not os.path.exists(p):
                raise ParseError("no such file", source=p)
            if os.path.isdir(p):
                raise ParseError("is a directory, expected a file", source=p)
            with open(p, "rb") as fh:
                head = fh.read(2)
            if head != _GZIP_MAGIC:
                return p
            with gzip.open(p, "rb") as fh:
                data = fh.read()
    else:
        data = path.read()
    if data[:2] == _GZIP_MAGIC:
        data = gzip.decompress(data)
    return pa.py_buffer(data)


def _input(src: pa.Buffer | str) -> pa.NativeFile | str:
    return pa.BufferReader(src) if isinstance(src, pa.Buffer) else src


def _head(src: pa.Buffer | str, n: int = 1 << 16) -> bytes:
    if isinstance(src, pa.Buffer):
        return src.to_pybytes()[:n]
    with open(src, "rb") as fh:
        return fh.read(n)


def _sniff(head: bytes) -> tuple[str, int] | None:
    """Delimiter and field count of the first data line, if the fast path may apply."""
    for raw in head.split(b"\n")[:-1] or [head]:
        line = raw.rstrip(b"\r")
        if not line.strip() or line.startswith(b"#"):
            return None  # comments and blank lines need the exact path's line bookkeeping
        if b"\t" in line:
            return "\t", line.count(b"\t") + 1
        return " ", line.count(b" ") + 1
    return None


def _fast(src: pa.Buffer | str, ncols: int, delim: str) -> list[pa.Array] | None:
    names = [f"c{i}" for i in range(ncols)]
    try:
        table = pcsv.read_csv(
            _input(src),
            read_options=pcsv.ReadOptions(column_names=names, block_size=1 << 24),
            parse_options=pcsv.ParseOptions(
                delimiter=delim,
                quote_char=False,
                escape_char=False,
                double_quote=False,
                newlines_in_values=False,
                ignore_empty_lines=False,
            ),
            convert_options=pcsv.ConvertOptions(
                column_types={n: pa.string() for n in names}, strings_can_be_null=False
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    other = " " if delim == "\t" else "\t"
    cols = []
    for name in names:
        col = table.column(name).combine_chunks()
        if pc.any(pc.equal(pc.binary_length(col), 0)).as_py():
            return None
        if pc.any(pc.match_substring(col, other)).as_py() or pc.any(
            pc.match_substring(col, "\r")
        ).as_py():
            return None
        cols.append(col)
    if table.num_rows == 0:
        return None
    if pc.any(pc.starts_with(cols[0], "#")).as_py():
        return None
    return cols


def _locate_bad_utf8(data: bytes) -> int:
    for i, raw in enumerate(data.split(b"\n"), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return i
    return 1


def read_text_table(
    path: PathLike | BinaryIO,
    *,
    min_cols: int,
    max_cols: int | None,
    want: list[int],
    what: str,
) -> TextColumns:
    """Read the white-space separated columns ``want`` (0-based) of a text table.

    Every data line must have at least ``min_cols`` and at most ``max_cols`` fields
    (``None``: no upper bound; extra fields are ignored).
    """
    source = source_name(path)
    src = _open_bytes(path)
    sniff = _sniff(_head(src))
    if sniff is not None:
        delim, ncols = sniff
        if min_cols <= ncols and (max_cols is None or ncols <= max_cols):
            cols = _fast(src, ncols, delim)
            if cols is not None:
                n = len(cols[0])
                last = [c[n - 1].as_py() for c in cols]
                return TextColumns(
                    [cols[i] for i in want], np.arange(1, n + 1, dtype=np.int64), last, source
                )
    return _exact(src, source, min_cols=min_cols, max_cols=max_cols, want=want, what=what)


def _exact(
    src: pa.Buffer | str,
    source: str,
    *,
    min_cols: int,
    max_cols: int | None,
    want: list[int],
    what: str,
) -> TextColumns:
    try:
        table = pcsv.read_csv(
            _input(src),
            read_options=pcsv.ReadOptions(column_names=["line"], block_size=1 << 24),
            parse_options=pcsv.ParseOptions(
                delimiter="\x1f",  # unit separator: not expected in TREC text
                quote_char=False,
                escape_char=False,
                double_quote=False,
                newlines_in_values=False,
                ignore_empty_lines=False,
            ),
            convert_options=pcsv.ConvertOptions(
                column_types={"line": pa.binary()}, strings_can_be_null=False
            ),
        )
    except pa.ArrowInvalid as exc:
        raise ParseError(f"cannot read {what}: {exc}", source=source) from None
    raw = table.column("line").combine_chunks() if table.num_rows else pa.array([], pa.binary())
    try:
        lines = raw.cast(pa.string())
    except pa.ArrowInvalid:
        if isinstance(src, pa.Buffer):
            data = src.to_pybytes()
        else:
            with open(src, "rb") as fh:
                data = fh.read()
        raise ParseError(
            "undecodable bytes: the file is not valid UTF-8", source=source,
            line=_locate_bad_utf8(data),
        ) from None
    lines = pc.utf8_rtrim(lines, characters="\r")
    line_no = np.arange(1, len(lines) + 1, dtype=np.int64)
    blank = pc.equal(pc.utf8_length(pc.utf8_trim_whitespace(lines)), 0)
    comment = pc.starts_with(lines, "#")
    keep = pc.invert(pc.or_(blank, comment))
    keep_np = keep.to_numpy(zero_copy_only=False)
    lines = lines.filter(keep)
    line_no = line_no[keep_np]
    if len(lines) == 0:
        raise EmptyInputError(f"no {what} lines found (the file is empty or only comments)",
                              source=source)
    parts = pc.utf8_split_whitespace(lines)
    counts = pc.list_value_length(parts).to_numpy()
    bad = counts < min_cols
    if max_cols is not None:
        bad |= counts > max_cols
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        expect = (
            f"exactly {min_cols}" if max_cols == min_cols
            else f"at least {min_cols}" if max_cols is None
            else f"{min_cols} to {max_cols}"
        )
        raise ParseError(
            f"expected {expect} white-space separated fields for {what}, found {counts[i]}: "
            f"{lines[i].as_py()!r}",
            source=source, line=int(line_no[i]),
        )
    cols = [pc.list_element(parts, i) for i in want]
    last = [str(x) for x in parts[len(parts) - 1].as_py()]
    return TextColumns(cols, line_no, last, source)


def parse_numbers(
    col: pa.Array, dtype: pa.DataType, tc: TextColumns, what: str, *, finite: bool = True
) -> np.ndarray:
    """Cast a string column to numbers; on failure name the first bad line."""
    try:
        out = pc.cast(col, dtype).to_numpy(zero_copy_only=False)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        out = None
    if out is not None and (not finite or np.isfinite(out).all()):
        return np.asarray(out)
    # Error path: find the first offending row with a per-value check.
    values = col.to_pylist()
    for i, v in enumerate(values):
        try:
            x = pc.cast(pa.array([v]), dtype)[0].as_py()
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            kind = "an integer" if pa.types.is_integer(dtype) else "a number"
            raise ParseError(f"{what} {v!r} is not {kind}", source=tc.source,
                             line=int(tc.line[i])) from None
        if finite and isinstance(x, float) and not np.isfinite(x):
            raise ParseError(f"{what} {v!r} is not finite (NaN and infinity are not allowed)",
                             source=tc.source, line=int(tc.line[i]))
    raise ParseError(f"cannot parse {what} column", source=tc.source)  # pragma: no cover


def write_text(path: PathLike | BinaryIO, table: pa.Table, *, sep: str = " ") -> None:
    """Write a table as delimiter-separated text without header or quoting (.gz compresses)."""
    opts = pcsv.WriteOptions(include_header=False, delimiter=sep, quoting_style="none")
    if isinstance(path, str | os.PathLike):
        p = os.fspath(path)
        if p == "-":
            sink = io.BytesIO()
            pcsv.write_csv(table, sink, write_options=opts)
            sys.stdout.buffer.write(sink.getvalue())
            sys.stdout.flush()
            return
        if p.endswith(".gz"):
            with pa.CompressedOutputStream(p, "gzip") as out:
                pcsv.write_csv(table, out, write_options=opts)
            return
        pcsv.write_csv(table, p, write_options=opts)
        return
    sink = io.BytesIO()
    pcsv.write_csv(table, sink, write_options=opts)
    path.write(sink.getvalue())
