"""Caps on the work a small input can ask for (docs/inputs.md, "Caps").

A file of a few bytes can claim a feature index of a hundred million, expand a
thousandfold out of gzip or a zip member, or declare an array shape that its data does
not hold. Each cap below is checked before the work or the allocation it bounds, and a
refusal is one :class:`~assay.errors.InputError` naming the file and the environment
variable that lifts the cap, for the rare real input that needs more.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..errors import InputError, OptionError, ParseError

__all__ = [
    "DENSE_BYTES",
    "DENSE_RATIO",
    "EXPANSION",
    "EXPANSION_FLOOR",
    "MAX_CLASSES",
    "MAX_FEATURES",
    "MAX_NEIGHBOURS",
    "check_decoded_strings",
    "check_dense",
    "check_expansion",
    "check_json_depth",
    "check_neighbours",
    "check_parquet",
    "expansion_cap",
    "limit",
]

#: Most features (highest index) of a LETOR file (``max_features=``, ``ASSAY_MAX_FEATURES``).
MAX_FEATURES = 1 << 20
#: Most distinct labels of a classification (``ASSAY_MAX_CLASSES``): its confusion matrix
#: has one cell per pair of them.
MAX_CLASSES = 2048
#: Most (query, neighbour) pairs one k-NN evaluation ranks (``ASSAY_MAX_NEIGHBOURS``): each
#: query ranks its R (or k) nearest references, so one class over 20,000 small vectors (a
#: 1 MB file) asks for 2e8 and 80 s; 2**24 takes about 5 s here.
MAX_NEIGHBOURS = 1 << 24
#: Bytes out per compressed byte in (gzip, a zip member), beyond EXPANSION_FLOOR
#: (``ASSAY_MAX_EXPANSION``): text compresses 3-20 fold, a bomb a thousandfold.
EXPANSION = 32
#: Bytes any compressed input may expand to, whatever its ratio.
EXPANSION_FLOOR = 32 << 20
#: Largest dense matrix built from a file, in bytes (``ASSAY_MAX_DENSE_BYTES``), unless it
#: is at most DENSE_RATIO times the bytes read: a dense file's matrix is never larger.
DENSE_BYTES = 256 << 20
DENSE_RATIO = 4


def limit(variable: str, default: int) -> int:
    """A cap: ``default``, or the positive integer in the environment ``variable``."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise OptionError(f"{variable} must be a positive integer, got {text[:40]!r}")
    return value


def expansion_cap(compressed: int) -> int:
    """The most bytes ``compressed`` bytes of gzip or deflate may expand to."""
    return max(EXPANSION_FLOOR, limit("ASSAY_MAX_EXPANSION", EXPANSION) * compressed)


def check_neighbours(n_queries: int, n: int, remedy: str) -> None:
    """Refuse ranking ``n`` neighbours for each of ``n_queries`` queries beyond
    ASSAY_MAX_NEIGHBOURS pairs, before any search; ``remedy`` says how to ask for fewer."""
    cap = limit("ASSAY_MAX_NEIGHBOURS", MAX_NEIGHBOURS)
    if n_queries * n > cap:
        raise InputError(
            f"{n_queries} queries x {n} neighbours each is more than the {cap:,} (query, "
            f"neighbour) pairs ranked by default; {remedy}, or set ASSAY_MAX_NEIGHBOURS to "
            "allow more"
        )


def check_expansion(produced: int, compressed: int, source: str) -> None:
    """Refuse ``produced`` bytes out of ``compressed`` beyond :func:`expansion_cap`."""
    if produced > expansion_cap(compressed):
        ratio = limit("ASSAY_MAX_EXPANSION", EXPANSION)
        raise InputError(
            f"decompresses to more than {produced >> 20} MiB from {compressed} bytes, over "
            f"{ratio} times its size: a compression bomb? (set ASSAY_MAX_EXPANSION to allow "
            "more)",
            source=source,
        )


#: Bytes a decoded Parquet value is counted as (a number; a string's offset and text).
PARQUET_VALUE_BYTES = 8


def check_parquet(metadata: Any, file_bytes: int, source: str) -> None:
    """Refuse a Parquet file whose values, decoded, would exceed :func:`expansion_cap` of its
    size: run-length and dictionary encoding let a few hundred kilobytes claim billions of
    rows, and its metadata says how many before any is decoded."""
    values = 0
    for g in range(metadata.num_row_groups):
        group = metadata.row_group(g)
        values += sum(group.column(c).num_values for c in range(group.num_columns))
    values = max(values, metadata.num_rows)
    if values * PARQUET_VALUE_BYTES > expansion_cap(file_bytes):
        ratio = limit("ASSAY_MAX_EXPANSION", EXPANSION)
        raise InputError(
            f"{metadata.num_rows} rows ({values} values) in {file_bytes} bytes of Parquet would "
            f"decode to over {ratio} times the file's size: a compression bomb? (set "
            "ASSAY_MAX_EXPANSION to allow more)",
            source=source,
        )


def check_decoded_strings(table: Any, file_bytes: int, source: str) -> None:
    """Refuse a table read with its text columns dictionary-encoded (as Parquet stores them)
    when decoding them would exceed :func:`expansion_cap` of the file: one megabyte of text
    in a dictionary, referenced by every row, is a gigabyte per thousand rows."""
    import pyarrow as pa
    import pyarrow.compute as pc

    total = 0
    for column in table.columns:
        if not pa.types.is_dictionary(column.type):
            continue
        for chunk in column.chunks:
            # Summed in Arrow (nulls skipped): to_numpy of an array with nulls, and
            # pc.fill_null, import pandas (0.16 s).
            lengths = pc.binary_length(chunk.dictionary)
            total += pc.sum(pc.take(lengths, chunk.indices)).as_py() or 0
    if total > expansion_cap(file_bytes):
        raise InputError(
            f"its text would decode to {total >> 20} MiB from {file_bytes} bytes of Parquet, "
            f"over {limit('ASSAY_MAX_EXPANSION', EXPANSION)} times the file's size: a "
            "compression bomb? (set ASSAY_MAX_EXPANSION to allow more)",
            source=source,
        )


def check_dense(
    shape: tuple[int, ...], itemsize: int, *, read_bytes: int | None, source: str | None
) -> None:
    """Refuse a dense array of ``shape`` before it is allocated, when it is larger than
    DENSE_BYTES and than DENSE_RATIO times the ``read_bytes`` it comes from."""
    size = itemsize
    for n in shape:
        size *= max(int(n), 0)
    cap = limit("ASSAY_MAX_DENSE_BYTES", DENSE_BYTES)
    if size <= cap or (read_bytes is not None and size <= DENSE_RATIO * read_bytes):
        return
    dims = " x ".join(str(int(n)) for n in shape)
    raise InputError(
        f"a dense {dims} matrix would take {size / 2**20:.0f} MiB, more than the "
        f"{cap / 2**20:.0f} MiB allowed for an input of this size (set ASSAY_MAX_DENSE_BYTES "
        "to allow more)",
        source=source,
    )


#: Deepest nesting of arrays and objects in a JSON Lines row: Arrow's parser recurses once a
#: level and overflows the stack (a crash, not an error) somewhere past 5,000.
MAX_JSON_DEPTH = 512
_JSON_PIECE = 4 << 20


def check_json_depth(data: bytes, source: str) -> None:
    """Refuse JSON Lines whose rows nest deeper than MAX_JSON_DEPTH, naming the line. Each
    line is one row, so string and depth state start afresh at each line end, and the file
    is scanned in pieces of whole lines."""
    start = lines = 0
    while start < len(data):
        end = _piece_end(data, start)
        buf = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
        depth, at = _deepest(buf)
        if depth > MAX_JSON_DEPTH:
            raise ParseError(
                f"invalid JSON: nested too deeply ({depth} levels deep, more than the "
                f"{MAX_JSON_DEPTH} read)",
                source=source,
                line=lines + int(np.count_nonzero(buf[:at] == 10)) + 1,
            )
        lines += int(np.count_nonzero(buf == 10))
        start = end


def _piece_end(data: bytes, start: int) -> int:
    """The end of about _JSON_PIECE bytes of whole lines from ``start`` (or of one longer
    line)."""
    if len(data) - start <= _JSON_PIECE:
        return len(data)
    end = data.rfind(b"\n", start, start + _JSON_PIECE) + 1
    if end > start:
        return end
    end = data.find(b"\n", start + _JSON_PIECE) + 1
    return end if end > 0 else len(data)


def _deepest(buf: np.ndarray) -> tuple[int, int]:
    """The deepest nesting of brackets and braces outside strings, counted afresh on each
    line, and where it is reached."""
    if len(buf) == 0:
        return 0, 0
    index = np.arange(len(buf), dtype=np.int64)
    quotes = np.flatnonzero(buf == 34)
    if len(quotes):
        # A quote is escaped when an odd run of backslashes comes just before it.
        plain = np.maximum.accumulate(np.where(buf != 92, index, -1))
        before = np.maximum(quotes - 1, 0)
        run = np.where(quotes > 0, before - plain[before], 0)
        quotes = quotes[run % 2 == 0]
    # Running sums with a leading 0: sums[i + 1] - sums[line_start[i]] is the line's so far.
    line_start = np.maximum.accumulate(np.where(buf == 10, index + 1, 0))
    toggles = np.zeros(len(buf) + 1, dtype=np.int32)
    toggles[quotes + 1] = 1
    quoted = np.cumsum(toggles, dtype=np.int32)
    outside = (quoted[1:] - quoted[line_start]) % 2 == 0
    step = np.zeros(len(buf) + 1, dtype=np.int32)
    step[1:] = (buf == 91).astype(np.int32) + (buf == 123) - (buf == 93) - (buf == 125)
    step[1:] *= outside
    sums = np.cumsum(step, dtype=np.int32)
    level = sums[1:] - sums[line_start]
    at = int(np.argmax(level))
    return int(level[at]), at
