"""Reading whitespace-separated text tables (TREC qrels and runs) with pyarrow.

The rules are trec_eval's: a line ends at ``\\n``; fields are separated by runs of ASCII white
space (C ``isspace``: space, tab, ``\\v``, ``\\f``, ``\\r``), so CRLF line ends are harmless;
a line whose first character is ``#`` is a comment (a ``#`` elsewhere is data); blank lines are
skipped. A UTF-8 byte order mark at the start of the file is ignored.

Two paths give identical results:

* a fast path: pyarrow's multithreaded CSV reader with a single-character delimiter (tab or
  space) sniffed from the first line. It is taken only when the bytes cannot make it disagree
  with the exact path: no other white space character anywhere, ``\\r`` only in ``\\r\\n``,
  every line with exactly the sniffed number of non-empty fields, no comment or blank line.
* an exact path: the bytes are split into lines at ``\\n``, checked for UTF-8, comment and
  blank lines are set aside, and lines are split on runs of white space. It reports the
  file's own line number in every error.
"""

from __future__ import annotations

import io
import math
import mmap
import os
import re
import sys
import warnings
from dataclasses import dataclass
from typing import BinaryIO, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from .._arrow import from_np, to_np
from .._files import atomic_open, atomic_path
from ..errors import EmptyInputError, InputError, InputWarning, ParseError, shown
from .streams import PathLike, read_bytes, source_name

__all__ = [
    "HEXADECIMAL",
    "PathLike",
    "TextColumns",
    "check_writable_ids",
    "first_hexadecimal",
    "first_uncastable",
    "parse_number",
    "parse_numbers",
    "parse_text_table",
    "read_bytes",
    "read_text",
    "read_text_table",
    "source_name",
    "text_lines",
    "without_plus",
    "write_text",
]


#: Arrow's CSV block: Arrow parses blocks on its threads, so a block well under the text's
#: size lets a file of a few megabytes use every core (a 5 MB qrels file: 26 ms in one
#: 16 MiB block, 8 ms in 1 MiB blocks, on 2 cores).
_ARROW_BLOCK = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
# ASCII white space other than the delimiter, and "\n" (the line end): if any of these occurs
# in the bytes, only the exact path splits fields the way trec_eval does.
_OTHER_SPACE = {" ": (b"\t", b"\x0b", b"\x0c"), "\t": (b" ", b"\x0b", b"\x0c")}


@dataclass
class TextColumns:
    """Columns of a text table, as strings, with the 1-based line number of every row."""

    columns: list[pa.Array]
    line: np.ndarray  # int64, 1-based line numbers in the source
    last_line_tokens: list[str]
    source: str


def _sniff(data: bytes) -> tuple[str, int] | None:
    """Delimiter and field count of the first line, if the fast path may apply."""
    end = data.find(b"\n", 0, 1 << 16)
    line = (data[:end] if end >= 0 else data[: 1 << 16]).rstrip(b"\r")
    if not line.strip() or line.startswith(b"#"):
        return None  # comments and blank lines need the exact path's line bookkeeping
    delim = "\t" if b"\t" in line else " "
    return delim, line.count(delim.encode()) + 1


def _fast_safe(data: bytes | bytearray | mmap.mmap, delim: str) -> bool:
    """Whether splitting at ``delim`` and ``\\n``/``\\r\\n`` can equal splitting on white space:
    no other white space character anywhere (single-byte searches only). Empty fields, comment
    and blank lines are caught by :func:`_fast` on the parsed columns."""
    if any(data.find(ch) >= 0 for ch in _OTHER_SPACE[delim]):
        return False
    if data.find(b"\r") < 0:
        return True
    # pyarrow's CSV reader also ends a line at a bare "\r"; trec_eval does not.
    return isinstance(data, bytes | bytearray) and data.count(b"\r") == data.count(b"\r\n")


def _last_line(data: bytes | bytearray | mmap.mmap, delim: str) -> list[str]:
    tail = bytes(data[max(0, len(data) - (1 << 16)) :]).rstrip(b"\r\n")
    line = tail.rsplit(b"\n", 1)[-1].rstrip(b"\r")
    return line.decode("utf-8", "replace").split(delim)


def _fast(
    source: pa.NativeFile | str,
    ncols: int,
    delim: str,
    want: list[int],
    numeric: dict[int, pa.DataType],
    ascii_only: bool = False,
) -> list[pa.Array] | None:
    """The wanted columns (``numeric`` ones already parsed), or None where the exact path must
    decide. Every field is read (as text, so the file's UTF-8 is checked as
    the exact path checks it) to see that none is empty; only the wanted columns are kept.
    Reading the others as plain strings rather than dictionary-encoding them saves hashing
    every rank and tag (about a third of the parse of a 7M-line run). Text known to be ASCII
    (``ascii_only``) is read as bytes, without a UTF-8 check, and viewed as strings."""
    names = [f"c{i}" for i in range(ncols)]
    text = pa.binary() if ascii_only else pa.string()
    try:
        table = pcsv.read_csv(
            source,
            read_options=pcsv.ReadOptions(column_names=names, block_size=_ARROW_BLOCK),
            parse_options=pcsv.ParseOptions(
                delimiter=delim,
                quote_char=False,
                escape_char=False,
                double_quote=False,
                newlines_in_values=False,
                ignore_empty_lines=False,
            ),
            convert_options=pcsv.ConvertOptions(
                column_types={n: numeric.get(i, text) for i, n in enumerate(names)},
                strings_can_be_null=False,
                null_values=[],  # "NaN", "NA" are not nulls here: the checks see them
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # ragged or blank lines, bad numbers, invalid UTF-8: the exact path says where
    if table.num_rows == 0:
        return None
    for i, name in enumerate(names):
        col = table.column(name)
        if i in numeric and i in want:
            if pa.types.is_floating(numeric[i]) and not np.isfinite(to_np(col)).all():
                return None  # the exact path quotes the offending text and its line
            continue
        if pc.min(pc.binary_length(col)).as_py() == 0:
            return None  # doubled, leading or trailing delimiters
    if pc.any(pc.starts_with(table.column(names[0]), "#")).as_py():
        return None  # comment lines
    cols = [table.column(names[i]).combine_chunks() for i in want]
    return [c.view(pa.string()) if c.type == pa.binary() else c for c in cols]


def _plain_file(path: PathLike | BinaryIO) -> str | None:
    """A regular, non-empty, uncompressed file without a BOM: readable by mmap and Arrow."""
    if not isinstance(path, str | os.PathLike):
        return None
    p = os.fspath(path)
    try:
        if p == "-" or not os.path.isfile(p) or os.path.getsize(p) == 0:
            return None
        with open(p, "rb") as fh:
            head = fh.read(3)
    except OSError:
        return None
    return None if head[:2] == _GZIP_MAGIC or head[:3] == _BOM else p


def _try_fast(
    data: bytes | bytearray | mmap.mmap,
    reader: pa.NativeFile | str,
    source: str,
    min_cols: int,
    max_cols: int | None,
    want: list[int],
    numeric: dict[int, pa.DataType],
) -> TextColumns | None:
    """The table by the fast path (lines numbered 1..n: it takes no comment or blank line),
    or None where the exact path must read it."""
    if data[:3] == _BOM:
        # Arrow would drop it; here it is data (a file's own BOM is gone before this point),
        # part of the first id, as the exact path reads it.
        return None
    sniff = _sniff(bytes(data[: 1 << 16]))
    if sniff is None:
        return None
    delim, ncols = sniff
    if ncols < min_cols or (max_cols is not None and ncols > max_cols):
        return None
    if not _fast_safe(data, delim):
        return None
    last = _last_line(data, delim)
    if len(last) != ncols:
        return None
    ascii_only = _is_ascii(data)
    cols = _fast(reader, ncols, delim, want, numeric, ascii_only)
    if cols is None:
        return None
    return TextColumns(cols, np.arange(1, len(cols[0]) + 1, dtype=np.int64), last, source)


def _is_ascii(data: bytes | bytearray | mmap.mmap) -> bool:
    """Whether every byte is below 0x80 (a memory map has no ``isascii``; one NumPy pass)."""
    if isinstance(data, mmap.mmap):
        return len(data) == 0 or int(np.frombuffer(data, dtype=np.uint8).max()) < 0x80
    return data.isascii()


def _split_lines(data: bytes | bytearray) -> pa.Array:
    """Lines (each with its own trailing ``\\n``, if any) as a zero-copy binary array."""
    nl = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 0x0A)
    ends = nl + 1
    if len(data) and (len(nl) == 0 or ends[-1] != len(data)):
        ends = np.append(ends, len(data))
    offsets = np.concatenate([[0], ends]).astype(np.int64)
    return pa.Array.from_buffers(
        pa.large_binary(), len(offsets) - 1, [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )


def text_lines(data: bytes | bytearray, source: str) -> pa.Array:
    """The lines of ``data`` (each with its ``\\n``) as UTF-8 strings, or a :class:`ParseError`
    naming the first line that is not valid UTF-8."""
    raw = _split_lines(data)
    try:
        return raw.cast(pa.large_string())
    except pa.ArrowInvalid:
        raise ParseError(
            "undecodable bytes: the file is not valid UTF-8",
            source=source,
            line=_locate_bad_utf8(raw),
        ) from None


def _locate_bad_utf8(lines: pa.Array) -> int:
    for i, raw in enumerate(lines.to_pylist(), start=1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return i
    return 1  # pragma: no cover


#: The other TREC file a line of so many fields looks like (what was read -> fields -> hint).
_LOOKS_LIKE = {
    ("qrels", 6): "; this looks like a run (query Q0 doc rank score tag), not qrels: give the "
    "qrels file first",
    ("run", 4): "; this looks like qrels (query iteration doc grade), not a run: are the files "
    "given in the right order?",
}


def _swapped(what: str, fields: int) -> str:
    """A hint when a line has the shape of the other TREC file: qrels and run swapped."""
    return _LOOKS_LIKE.get((what, fields), "")


def _show_line(text: str) -> str:
    return shown(text.rstrip("\r\n"), 120)


def parse_number(text: str, source: str, line: int) -> float:
    """``text`` as a finite float, or a :class:`ParseError` at ``source:line``."""
    try:
        value = float(text)
    except ValueError:
        raise ParseError(f"not a number: {shown(text)}", source=source, line=line) from None
    if not math.isfinite(value):
        raise ParseError(f"not a finite number: {shown(text)}", source=source, line=line)
    if not _DECIMAL.fullmatch(text.strip(" \t\r\x0b\x0c")):
        # float() also reads "1_000", non-ASCII digits and Unicode white space around them.
        raise ParseError(f"not a number: {shown(text)}", source=source, line=line)
    return value


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def read_text_table(
    path: PathLike | BinaryIO,
    *,
    min_cols: int,
    max_cols: int | None,
    want: list[int],
    what: str,
    numeric: dict[int, pa.DataType] | None = None,
) -> TextColumns:
    """Read the white-space separated columns ``want`` (0-based) of a text table.

    Every data line must have at least ``min_cols`` and at most ``max_cols`` fields
    (``None``: no upper bound; extra fields are ignored). Columns in ``numeric`` may come back
    already parsed (fast path); :func:`parse_numbers` accepts either form.
    """
    source = source_name(path)
    numeric = numeric or {}
    plain = _plain_file(path)
    fast = None
    if plain is not None:
        # Checks on a memory map, then Arrow reads the file itself: the file is never held
        # in memory whole.
        # CRLF files take the in-memory route, where "\r" can be counted.
        with open(plain, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            if mm.find(b"\r") >= 0:
                plain = None
            else:
                fast = _try_fast(mm, plain, source, min_cols, max_cols, want, numeric)
    if fast is not None:
        return fast
    data = read_bytes(path, source)
    _warn_lone_carriage_returns(data, source)
    fast = (
        _try_fast(data, pa.BufferReader(data), source, min_cols, max_cols, want, numeric)
        if plain is None
        else None
    )
    if fast is not None:
        return fast
    return _exact(data, source, min_cols=min_cols, max_cols=max_cols, want=want, what=what)


def parse_text_table(
    data: bytes | bytearray,
    source: str,
    *,
    min_cols: int,
    max_cols: int | None,
    want: list[int],
    what: str,
    numeric: dict[int, pa.DataType] | None = None,
) -> TextColumns:
    """:func:`read_text_table` of text already in memory (a block of a run read in pieces;
    its file's BOM, if any, already dropped), parsed without another copy."""
    _warn_lone_carriage_returns(data, source)
    fast = _try_fast(data, pa.BufferReader(data), source, min_cols, max_cols, want, numeric or {})
    if fast is not None:
        return fast
    return _exact(data, source, min_cols=min_cols, max_cols=max_cols, want=want, what=what)


def _warn_lone_carriage_returns(data: bytes | bytearray, source: str) -> None:
    """A line ends only at a line feed (trec_eval's rule), so a file with old-Mac line ends
    is one long line of which only the first record counts: say so."""
    if data.find(b"\r") < 0:  # one memchr; counting "\r\n" is a slower two-byte search
        return
    lone = data.count(b"\r") - data.count(b"\r\n")
    if lone > 0:
        warnings.warn(
            f"{source}: {lone} carriage return{'s' if lone > 1 else ''} not followed by a line "
            "feed; lines end only at line feeds, so the text around them is one line (convert "
            "the file with dos2unix or tr '\\r' '\\n')",
            InputWarning,
            stacklevel=4,
        )


def _exact(
    data: bytes | bytearray,
    source: str,
    *,
    min_cols: int,
    max_cols: int | None,
    want: list[int],
    what: str,
) -> TextColumns:
    lines = text_lines(data, source)
    trimmed = pc.ascii_trim_whitespace(lines)
    keep_np = ~to_np(pc.starts_with(lines, "#")) & (to_np(pc.binary_length(trimmed)) > 0)
    keep = from_np(keep_np)
    parts = pc.ascii_split_whitespace(trimmed)
    counts = pc.list_value_length(parts)
    line_no = np.flatnonzero(keep_np).astype(np.int64) + 1
    if len(line_no) == 0:
        raise EmptyInputError(
            f"no {what} lines found (the file is empty or only comments)", source=source
        )
    parts = parts.filter(keep)
    n_fields = to_np(counts.filter(keep))
    bad = n_fields < min_cols
    if max_cols is not None:
        bad |= n_fields > max_cols
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        expect = (
            f"exactly {min_cols}"
            if max_cols == min_cols
            else f"at least {min_cols}"
            if max_cols is None
            else f"{min_cols} to {max_cols}"
        )
        raise ParseError(
            f"expected {expect} white-space separated fields for {what}, found {n_fields[i]}: "
            f"{_show_line(lines[int(line_no[i]) - 1].as_py())}{_swapped(what, int(n_fields[i]))}",
            source=source,
            line=int(line_no[i]),
        )
    # Element i of every row, read through the list offsets, which index the child array
    # directly (pc.list_element would need a Scalar, and Scalars import pandas).
    starts = to_np(parts.offsets).astype(np.int64)[:-1]
    cols = [parts.values.take(from_np(starts + i)).cast(pa.string()) for i in want]
    last = [str(x) for x in parts[len(parts) - 1].as_py()]
    return TextColumns(cols, line_no, last, source)


def _casts(col: pa.Array, dtype: pa.DataType) -> bool:
    try:
        pc.cast(col, dtype)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return False
    return True


def first_uncastable(col: pa.Array, dtype: pa.DataType) -> int:
    """Index of the first value that does not parse (bisection: O(n) work, no Python loop)."""
    lo, hi = 0, len(col)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _casts(col.slice(lo, mid - lo), dtype):
            lo = mid
        else:
            hi = mid
    return lo


def first_hexadecimal(col: pa.Array) -> int | None:
    """Index of the first ``0x…`` value in a text column, or None.

    Arrow's string-to-integer cast reads ``0x10`` as 16 (and ``0xFFFFFFFFFFFFFFFF`` as -1)
    where C's ``atol`` -- trec_eval's reader -- stops at the ``x`` and reads 0; the readers
    refuse both readings rather than pick one silently."""
    if not pa.types.is_string(col.type) and not pa.types.is_large_string(col.type):
        return None
    if not _has_x(col):
        return None
    hexadecimal = pc.match_substring(col, "0x", ignore_case=True)
    if not pc.any(hexadecimal).as_py():
        return None
    return int(np.flatnonzero(to_np(hexadecimal, fill=False))[0])


def _has_x(col: pa.Array) -> bool:
    """Whether an ``x`` or ``X`` byte is in the column's character data (a slice's whole
    buffer: a superset). One pass over bytes; the case-blind substring search it saves
    costs 11 ms on 280k grades."""
    chars = col.buffers()[2]
    if chars is None:
        return False
    data = np.frombuffer(chars, dtype=np.uint8)
    return bool(((data | 0x20) == ord("x")).any())


HEXADECIMAL = "is not a decimal integer (hexadecimal is not accepted)"


def without_plus(col: pa.Array, dtype: pa.DataType) -> pa.Array:
    """Integer text with a leading '+' dropped, where it keeps the cast from working: C's
    atol (trec_eval) reads ``+2`` as 2; Arrow's integer parser refuses it."""
    if _casts(col, dtype):
        return col
    return pc.replace_substring_regex(col, pattern=r"^\+([0-9])", replacement=r"\1")


def parse_numbers(
    col: pa.Array, dtype: pa.DataType, tc: TextColumns, what: str, *, finite: bool = True
) -> np.ndarray:
    """Cast a string column to numbers (or take an already parsed one); on failure name the
    first bad line."""
    if col.type == dtype:
        out = to_np(col)
        if finite and out.dtype.kind == "f" and not np.isfinite(out).all():
            i = int(np.flatnonzero(~np.isfinite(out))[0])
            raise ParseError(
                f"{what} {col[i].as_py()!r} is not finite (NaN and infinity are not allowed)",
                source=tc.source,
                line=int(tc.line[i]),
            )
        return out
    if pa.types.is_integer(dtype):
        hexadecimal = first_hexadecimal(col)
        if hexadecimal is not None:
            raise ParseError(
                f"{what} {col[hexadecimal].as_py()!r} {HEXADECIMAL}",
                source=tc.source,
                line=int(tc.line[hexadecimal]),
            )
        col = without_plus(col, dtype)
    try:
        out = to_np(pc.cast(col, dtype))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        i = first_uncastable(col, dtype)
        kind = "an integer" if pa.types.is_integer(dtype) else "a number"
        raise ParseError(
            f"{what} {col[i].as_py()!r} is not {kind}", source=tc.source, line=int(tc.line[i])
        ) from None
    if finite and out.dtype.kind == "f":
        bad = ~np.isfinite(out)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ParseError(
                f"{what} {col[i].as_py()!r} is not finite (NaN and infinity are not allowed)",
                source=tc.source,
                line=int(tc.line[i]),
            )
    return out


def check_writable_ids(values: pa.Array, what: str, *, first_column: bool) -> None:
    """Ids written to TREC text must read back as the same ids: non-empty, no white space,
    and (in the first column) not starting with '#', which would make the line a comment."""
    bad = pc.match_substring_regex(values, r"[ \t\n\r\x0b\x0c]")
    bad = pc.or_(bad, pc.equal(pc.binary_length(values), 0))
    if first_column:
        bad = pc.or_(bad, pc.starts_with(values, "#"))
    if pc.any(bad).as_py():
        i = int(np.flatnonzero(bad.to_numpy(zero_copy_only=False))[0])
        raise InputError(
            f"{what} id {values[i].as_py()!r} cannot be written as TREC text: ids must be "
            "non-empty and free of white space"
            + (", and query ids must not start with '#'" if first_column else "")
        )


def _text_lines(table: pa.Table, sep: str) -> bytes:
    """Rows joined by ``sep``, one per line, numbers formatted as Arrow's CSV writer does.

    Arrow's CSV writer (about twice as fast) refuses ``"`` in unquoted values; TREC text has
    no quoting, and an id holding ``"`` is a legal id (ids with white space are refused before
    writing), so such tables are joined here."""
    try:
        sink = io.BytesIO()
        options = pcsv.WriteOptions(include_header=False, delimiter=sep, quoting_style="none")
        pcsv.write_csv(table, sink, write_options=options)
        return sink.getvalue()
    except pa.ArrowInvalid:
        pass
    if table.num_rows == 0:
        return b""
    text = pa.large_string()
    columns = [pc.cast(c, text) for c in table.columns]
    rows = pc.binary_join_element_wise(*columns, pa.scalar(sep, text))
    lines = pc.binary_join_element_wise(rows, pa.scalar("\n", text), pa.scalar("", text))
    lines = lines.combine_chunks() if isinstance(lines, pa.ChunkedArray) else lines
    # The character data of a string array is every value back to back: the whole text.
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)
    start, stop = int(offsets[lines.offset]), int(offsets[lines.offset + len(lines)])
    return cast(bytes, lines.buffers()[2].to_pybytes()[start:stop])


def write_text(path: PathLike | BinaryIO, table: pa.Table, *, sep: str = " ") -> None:
    """Write a table as delimiter-separated text without header or quoting (.gz compresses)."""
    data = _text_lines(table, sep)
    if isinstance(path, str | os.PathLike):
        p = os.fspath(path)
        if p == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
            return
        if p.endswith(".gz"):
            with atomic_path(p) as tmp, pa.CompressedOutputStream(tmp, "gzip") as out:
                out.write(data)
            return
        with atomic_open(p) as fh:
            fh.write(data)
        return
    path.write(data)


def read_text(path: PathLike | BinaryIO) -> str:
    """The whole input as text (see :func:`read_bytes`); invalid UTF-8 is a
    :class:`ParseError` naming the line."""
    source = source_name(path)
    data = read_bytes(path, source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ParseError("not valid UTF-8", source=source, line=line) from None
