"""Readers of embedding matrices (one row per item) for :mod:`assay.embeddings`.

The format comes from the file name:

- ``.npy`` — one 2-D numeric array (no pickles);
- ``.npz`` — the array named by ``key``, else the only array, else the one named
  ``embeddings``;
- ``.parquet`` — the list or fixed-size-list column named by ``key`` (or the only list
  column), one list per row, all of one length; or, with no list column, every column, one
  per dimension (numeric);
- ``.csv`` / ``.tsv`` — one row per item, one number per field; a first line that is not
  all numbers is a header.

Labels are read with :func:`assay.classification.read_labels` (one per line). Values must be
finite: a NaN or an infinity is an :class:`~assay.errors.InputError` naming the row (the
line, in CSV) and the column. float32 arrays stay float32; everything else becomes float64.
"""

from __future__ import annotations

import math
import os
import re
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from ..errors import EmptyInputError, InputError, ParseError
from ..io.limits import check_expansion, check_parquet

__all__ = ["embeddings_shape", "read_embeddings"]

PathLike = str | os.PathLike[str]


def read_embeddings(
    path: PathLike, *, key: str | None = None
) -> NDArray[np.float32] | NDArray[np.float64]:
    """The embeddings of ``path`` as a (items x dimensions) float32 or float64 array.

    ``.npy`` and ``.npz`` are checked from their headers before their data is read (see
    :func:`embeddings_shape`, which also tells a caller the row count first).

    Parameters
    ----------
    path
        An ``.npy``, ``.npz``, ``.parquet``, ``.csv`` or ``.tsv`` file.
    key
        The array of an ``.npz`` or the list column of a ``.parquet`` file.

    Returns
    -------
    numpy.ndarray
        Items × dimensions.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import read_embeddings
    >>> np.save("emb.npy", np.eye(3, dtype=np.float32))
    >>> read_embeddings("emb.npy").shape
    (3, 3)
    """
    source = os.fspath(path)
    lower = source.lower()
    if lower.endswith(".npy"):
        arr = _npy(source)
    elif lower.endswith(".npz"):
        arr = _npz(source, key)
    elif lower.endswith(".parquet"):
        arr = _parquet(source, key)
    elif lower.endswith((".csv", ".tsv")):
        arr, first_line = _delimited(source, "\t" if lower.endswith(".tsv") else ",")
        return _checked(arr, source, first_line)
    else:
        raise InputError(
            "unknown embeddings format; expected .npy, .npz, .parquet, .csv or .tsv", source=source
        )
    return _checked(arr, source, None)


def _checked(arr: NDArray[Any], source: str, first_line: int | None) -> NDArray[Any]:
    """A 2-D numeric, finite, non-empty array (float32 kept, else float64)."""
    if arr.dtype.kind not in "biuf":
        raise InputError(
            f"embeddings must be numbers, got values of type {arr.dtype}", source=source
        )
    if arr.ndim != 2:
        raise InputError(
            f"embeddings must be a 2-D array (items x dimensions), got shape {arr.shape}",
            source=source,
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise EmptyInputError(f"no embeddings (shape {arr.shape})", source=source)
    if arr.dtype != np.float32:
        arr = arr.astype(np.float64)
    bad = ~np.isfinite(arr)
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        value = float(arr[row, col])
        if first_line is None:
            raise InputError(
                f"row {row}, column {col} is {value!r}; embeddings must be finite", source=source
            )
        raise InputError(
            f"column {col + 1} is {value!r}; embeddings must be finite",
            source=source,
            line=first_line + row,
        )
    return arr


def _npy(source: str) -> NDArray[Any]:
    with open(source, "rb") as fh:
        _checked_header(fh, os.path.getsize(source), source)
    try:
        return cast(NDArray[Any], np.load(source, allow_pickle=False))
    except ValueError as exc:
        raise InputError(f"not a numeric .npy array ({exc})", source=source) from None


def _npz(source: str, key: str | None) -> NDArray[Any]:
    try:
        archive = np.load(source, allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise InputError(f"not an .npz archive ({exc})", source=source) from None
    with archive:
        key = _npz_key(list(archive.files), key, source)
        _npz_header(archive.zip, key, source)
        try:
            return cast(NDArray[Any], archive[key])
        except ValueError as exc:
            raise InputError(f"array {key!r} is not numeric ({exc})", source=source) from None


def _npz_key(names: list[str], key: str | None, source: str) -> str:
    """The array to read: ``key``, else the only one, else ``embeddings``."""
    if key is None:
        if len(names) == 1:
            return names[0]
        if "embeddings" in names:
            return "embeddings"
        raise InputError(
            f"holds several arrays ({', '.join(names)}); name one (key)", source=source
        )
    if key not in names:
        raise InputError(
            f"has no array {key!r}; arrays: {', '.join(names) or 'none'}", source=source
        )
    return key


# ---------------------------------------------------------------- headers before data


def embeddings_shape(path: PathLike, *, key: str | None = None) -> tuple[int, ...] | None:
    """The shape of the embeddings of a ``.npy`` or ``.npz`` file, read from its header (and
    checked against the bytes it holds) without reading the data; None for other formats."""
    source = os.fspath(path)
    lower = source.lower()
    if lower.endswith(".npy"):
        with open(source, "rb") as fh:
            return _checked_header(fh, os.path.getsize(source), source)
    if lower.endswith(".npz"):
        import zipfile

        try:
            with zipfile.ZipFile(source) as archive:
                names = [n.removesuffix(".npy") for n in archive.namelist()]
                return _npz_header(archive, _npz_key(names, key, source), source)
        except (zipfile.BadZipFile, OSError) as exc:
            raise InputError(f"not an .npz archive ({exc})", source=source) from None
    return None


def _npz_header(archive: Any, key: str, source: str) -> tuple[int, ...]:
    """The shape of member ``key`` of an open zip: its expansion is bounded and its header
    read and checked before anything else of it."""
    import zipfile

    name = key if key in archive.namelist() else f"{key}.npy"
    info = archive.getinfo(name)
    if info.compress_type != zipfile.ZIP_STORED:
        check_expansion(info.file_size, info.compress_size, f"{source}:{name}")
    try:
        with archive.open(name) as fh:
            return _checked_header(fh, info.file_size, f"{source}:{name}")
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise InputError(f"not an .npz archive ({exc})", source=source) from None


def _checked_header(fh: Any, size: int, source: str) -> tuple[int, ...]:
    """The shape in the ``.npy`` header at ``fh``, refused unless the array is numeric, 2-D
    and its data fits the ``size`` bytes of the file (a header can claim any shape)."""
    from numpy.lib import format as npy

    try:
        version = npy.read_magic(fh)
        if version == (1, 0):
            shape, _, dtype = npy.read_array_header_1_0(fh)
        elif version == (2, 0):
            shape, _, dtype = npy.read_array_header_2_0(fh)
        else:
            raise ValueError(f"unsupported .npy version {version}")
    except (ValueError, EOFError, OSError) as exc:
        raise InputError(f"not a numeric .npy array ({exc})", source=source) from None
    if dtype.kind not in "biuf" or dtype.hasobject:
        raise InputError(f"embeddings must be numbers, got values of type {dtype}", source=source)
    if len(shape) != 2:
        raise InputError(
            f"embeddings must be a 2-D array (items x dimensions), got shape {shape}",
            source=source,
        )
    need = math.prod(shape) * dtype.itemsize
    held = size - fh.tell()
    if need > held:
        raise InputError(
            f"the header claims shape {shape} ({need} bytes of data) but the file holds "
            f"{max(held, 0)} bytes after it",
            source=source,
        )
    return tuple(int(n) for n in shape)


def _parquet(source: str, key: str | None) -> NDArray[Any]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        # A single file through ParquetFile: read_table goes through pyarrow.dataset, whose
        # import loads pandas; a directory (a dataset, as Spark writes one) still needs it.
        if os.path.isdir(source):
            table = pq.read_table(source)
        else:
            handle = pq.ParquetFile(source)
            check_parquet(handle.metadata, os.path.getsize(source), source)
            table = handle.read()
    except pa.ArrowException as exc:
        raise InputError(f"not a readable Parquet file ({exc})", source=source) from None
    lists = [
        f.name
        for f in table.schema
        if pa.types.is_list(f.type)
        or pa.types.is_fixed_size_list(f.type)
        or pa.types.is_large_list(f.type)
    ]
    if key is not None:
        if key not in table.column_names:
            raise InputError(
                f"has no column {key!r}; columns: {', '.join(table.column_names)}", source=source
            )
        if key not in lists:
            raise InputError(
                f"column {key!r} is not a list column (one embedding per row)", source=source
            )
        return _list_column(table.column(key), source, key)
    if len(lists) == 1:
        return _list_column(table.column(lists[0]), source, lists[0])
    if lists:
        raise InputError(
            f"has several list columns ({', '.join(lists)}); name one (key)", source=source
        )
    return _wide(table, source)


def _list_column(column: Any, source: str, name: str) -> NDArray[Any]:
    import pyarrow as pa
    import pyarrow.compute as pc

    column = column.combine_chunks()
    if column.null_count:
        row = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
        raise InputError(f"row {row} of column {name!r} is null", source=source)
    lengths = pc.list_value_length(column).to_numpy(zero_copy_only=False)
    if lengths.size and (lengths != lengths[0]).any():
        row = int(np.flatnonzero(lengths != lengths[0])[0])
        raise InputError(
            f"row {row} of column {name!r} has {int(lengths[row])} values but row 0 has {int(lengths[0])}; every embedding needs the same dimension",
            source=source,
        )
    values = pc.list_flatten(column)
    if values.null_count:
        raise InputError(f"column {name!r} holds null values", source=source)
    if not (pa.types.is_floating(values.type) or pa.types.is_integer(values.type)):
        raise InputError(f"column {name!r} holds {values.type}, not numbers", source=source)
    flat: NDArray[Any] = values.to_numpy(zero_copy_only=False)
    width = int(lengths[0]) if lengths.size else 0
    return flat.reshape(len(column), width)


def _wide(table: Any, source: str) -> NDArray[Any]:
    import pyarrow as pa

    for field in table.schema:
        if not (pa.types.is_floating(field.type) or pa.types.is_integer(field.type)):
            raise InputError(
                f"column {field.name!r} holds {field.type}; one numeric column per dimension expected (or one list column)",
                source=source,
            )
        if table.column(field.name).null_count:
            raise InputError(f"column {field.name!r} holds null values", source=source)
    if table.num_columns == 0:
        raise EmptyInputError("no columns", source=source)
    return np.column_stack([table.column(i).to_numpy() for i in range(table.num_columns)])


def _delimited(source: str, delimiter: str) -> tuple[NDArray[Any], int]:
    """Numbers of a CSV/TSV file (pyarrow), with an optional header line, and the line number
    of the first row; a bad field is a ParseError naming its line."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    from ..io.text import read_text

    text = read_text(source)
    lines = [line.removesuffix("\r") for line in text.removesuffix("\n").split("\n")]
    stray = next((i for i, line in enumerate(lines, 1) if "\r" in line), None)
    if stray is not None:  # Arrow would end a row there: one embedding more than lines
        raise ParseError(
            "a carriage return inside a line (lines end at \\n or \\r\\n)",
            source=source,
            line=stray,
        )
    first = lines[0]
    header = bool(first) and not _numeric_line(first, delimiter)
    rows = lines[int(header) :]
    if not any(row.strip() for row in rows):
        raise EmptyInputError("no embeddings", source=source)
    try:
        table = pcsv.read_csv(
            # Arrow cannot infer the columns of a one-field file without a final line end.
            pa.py_buffer(text.encode("utf-8") + (b"" if text.endswith("\n") else b"\n")),
            read_options=pcsv.ReadOptions(autogenerate_column_names=not header),
            parse_options=pcsv.ParseOptions(delimiter=delimiter, ignore_empty_lines=False),
        )
    except pa.ArrowInvalid:
        table = None
    if table is None or not all(
        pa.types.is_floating(t) or pa.types.is_integer(t) for t in table.schema.types
    ):
        _raise_bad_line(rows, delimiter, source, first if header else None)
        raise ParseError("not a table of numbers", source=source)
    if any(table.column(i).null_count for i in range(table.num_columns)):
        _raise_bad_line(rows, delimiter, source, first if header else None)
    columns = [table.column(i).to_numpy() for i in range(table.num_columns)]
    return np.column_stack(columns).astype(np.float64), 1 + int(header)


#: A number as Arrow's CSV reader reads one (ASCII digits; no ``_`` separators, which
#: Python's float() would accept).
_NUMBER = re.compile(
    r"[ \t]*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|(?i:nan|inf|infinity))[ \t]*",
    re.ASCII,
)


def _numeric_line(line: str, delimiter: str) -> bool:
    return all(_NUMBER.fullmatch(x) for x in line.split(delimiter))


def _raise_bad_line(rows: list[str], delimiter: str, source: str, header: str | None) -> None:
    width = None if header is None else len(header.split(delimiter))
    for i, row in enumerate(rows, start=1 + (header is not None)):
        fields = row.split(delimiter)
        if not row.strip():
            raise ParseError("blank line: one embedding per line", source=source, line=i)
        if not _numeric_line(row, delimiter):
            bad = next(f for f in fields if not _numeric_line(f, delimiter))
            raise ParseError(f"{bad.strip()!r} is not a number", source=source, line=i)
        odd = [j for j, f in enumerate(fields, 1) if not math.isfinite(float(f))]
        if odd:  # Arrow reads nan as a missing value and 1e400 as text
            value = float(fields[odd[0] - 1])
            raise ParseError(
                f"column {odd[0]} is {value}; embeddings must be finite", source=source, line=i
            )
        if width is not None and len(fields) != width:
            raise ParseError(
                f"{len(fields)} fields but the first line has {width}", source=source, line=i
            )
        width = len(fields)
