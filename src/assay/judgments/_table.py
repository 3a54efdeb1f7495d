"""Reading the family's inputs: a table of named columns from a file (CSV/TSV, Parquet, JSON
Lines), a pandas or polars DataFrame, a pyarrow Table or a mapping of columns; ids as exact
Arrow strings, and where each row came from for messages (the line of a text file, else the
row number)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from ..errors import EmptyInputError, InputError, OptionError, shown
from ..io.rows import RowLines

__all__ = ["Columns", "first_row", "id_strings", "read_columns", "where"]

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class Columns:
    """The wanted columns of one input (role -> combined Arrow array), its name for messages
    and the lines of its rows (None: rows are named by number)."""

    arrays: dict[str, pa.Array]
    source: str
    lines: RowLines | None

    def __len__(self) -> int:
        return len(next(iter(self.arrays.values())))


def _as_table(
    data: Any, format: str | None, wanted: Mapping[str, str]
) -> tuple[pa.Table, str, RowLines | None]:  # Any: a path, frame, table or mapping
    from ..io.formats import check_format, detect_format
    from ..io.tabular import read_delimited, read_jsonl, read_parquet

    if isinstance(data, str | os.PathLike):
        fmt = check_format(format or detect_format(data), data)
        if fmt == "trec":
            raise InputError(
                "expected a table with a header row (CSV, TSV, Parquet or JSON Lines; name the "
                "format with format=, on the command line --input-format)",
                source=os.fspath(data),
            )
        if fmt in ("csv", "tsv"):
            read = read_delimited(data, dict(wanted), "\t" if fmt == "tsv" else ",")
        elif fmt == "parquet":
            read = read_parquet(data)
        else:
            read = read_jsonl(data)
        return read.table, read.source, read.lines
    if isinstance(data, pa.Table):
        return data, "<table>", None
    if isinstance(data, Mapping):
        try:
            return pa.table({k: _column(v) for k, v in data.items()}), "<columns>", None
        except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError) as exc:
            raise InputError(f"cannot read the columns: {exc}", source="<columns>") from None
    module = type(data).__module__.split(".")[0]
    if module == "pandas":
        from ..io.frames import pandas_to_arrow

        return pandas_to_arrow(data), "<pandas>", None
    if module == "polars":
        from ..io.frames import polars_to_arrow

        return polars_to_arrow(data), "<polars>", None
    raise InputError(
        "expected a file path, a pandas or polars DataFrame, a pyarrow Table or a mapping of "
        f"columns, got {type(data).__name__}"
    )


def _column(values: Any) -> pa.Array | pa.ChunkedArray:  # Any: a sequence or array of ids
    if isinstance(values, pa.Array | pa.ChunkedArray):
        return values
    arr = np.asarray(values)
    if arr.dtype.kind in "iu":
        return from_np(arr.astype(np.int64))
    if arr.dtype.kind == "f":
        return from_np(arr.astype(np.float64))
    return pa.array(arr.tolist() if arr.dtype == object else arr)


def read_columns(
    data: Any,  # Any: a path, a DataFrame, a pyarrow Table or a mapping of columns
    columns: Mapping[str, str | None],
    *,
    format: str | None = None,
) -> Columns:
    """The ``columns`` (role -> column name; None: not wanted) of ``data``; a missing column is
    an :class:`InputError` naming what the input has, no rows an :class:`EmptyInputError`."""
    from ..io.tabular import pick_columns

    wanted = {role: name for role, name in columns.items() if name is not None}
    for role, name in wanted.items():
        if not isinstance(name, str) or not name:
            raise OptionError(f"{role}= must name a column, got {name!r}", option=role)
    table, source, lines = _as_table(data, format, wanted)
    picked = pick_columns(table, wanted, source)
    arrays = {
        role: col.combine_chunks() if col.num_chunks != 1 else col.chunk(0)
        for role, col in picked.items()
    }
    if table.num_rows == 0:
        raise EmptyInputError("no rows", source=source)
    return Columns(arrays, source, lines)


def where(cols: Columns, row: int) -> dict[str, Any]:  # Any: keyword arguments of InputError
    """``source=`` and ``line=`` for an error about ``row``; rows of a frame, a table or
    Parquet are named by number in the message (see :func:`first_row`)."""
    line = None if cols.lines is None else cols.lines[row]
    return {"source": cols.source, "line": line}


def at(cols: Columns, row: int) -> str:
    """`` at row N`` when the row has no line (the message then says where), else ``''``."""
    return "" if cols.lines is not None and cols.lines[row] is not None else f" at row {row + 1}"


def first_row(mask: pa.Array | np.ndarray) -> int:
    """The index of the first true value of a boolean mask."""
    values = to_np(mask, fill=False) if isinstance(mask, pa.Array) else mask
    return int(np.flatnonzero(np.asarray(values, dtype=bool))[0])


def id_strings(cols: Columns, role: str, what: str) -> pa.Array:
    """The ``role`` column as exact id strings: integers are written in decimal; nulls, empty
    ids, floats and other types are an :class:`InputError` naming the first offending row."""
    arr = cols.arrays[role]
    if pa.types.is_dictionary(arr.type):
        arr = arr.cast(arr.type.value_type)
    if arr.null_count:
        i = first_row(arr.is_null())
        raise InputError(f"the {what} is missing{at(cols, i)}", **where(cols, i))
    if pa.types.is_integer(arr.type) or pa.types.is_boolean(arr.type):
        arr = pc.cast(arr, pa.string())
    elif pa.types.is_large_string(arr.type) or pa.types.is_string_view(arr.type):
        arr = arr.cast(pa.string())
    elif not pa.types.is_string(arr.type):
        raise InputError(
            f"the {what} column must hold text or integers, got {arr.type}", source=cols.source
        )
    empty = pc.equal(pc.binary_length(arr), 0)
    if pc.any(empty).as_py():
        i = first_row(empty)
        raise InputError(f"the {what} is empty{at(cols, i)}", **where(cols, i))
    return arr


def first_repeat(a: np.ndarray, b: np.ndarray, n_b: int, cols: Columns) -> tuple[int, str] | None:
    """The earliest row whose (``a``, ``b``) codes repeat an earlier row's, and where that
    earlier row is for a message (`` (first at line 3)``), or None when no pair repeats."""
    key = a * max(n_b, 1) + b
    order = np.argsort(key, kind="stable")
    repeat = np.flatnonzero(key[order][1:] == key[order][:-1])
    if len(repeat) == 0:
        return None
    second = int(order[repeat + 1].min())
    first = int(order[np.searchsorted(key[order], key[second])])
    line = where(cols, first)["line"]
    return (
        second,
        f" (first at line {line})" if line is not None else f" (first at row {first + 1})",
    )


def encode(values: pa.Array) -> tuple[np.ndarray, tuple[str, ...]]:
    """Codes (int64) into the distinct values in order of first appearance, and those values."""
    enc = pc.dictionary_encode(values)
    codes = to_np(enc.indices).astype(np.int64, copy=False)
    return codes, tuple(enc.dictionary.to_pylist())


def shown_values(values: tuple[str, ...], limit: int = 8) -> str:
    """Values for a message: quoted, at most ``limit`` of them."""
    head = ", ".join(shown(v, 30) for v in values[:limit])
    return head + (", …" if len(values) > limit else "")
