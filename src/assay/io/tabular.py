"""CSV/TSV, Parquet and JSON Lines tables with a column mapping, parsed by pyarrow."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from ..errors import AssayError, EmptyInputError, InputError, ParseError, shown
from .formats import FORMATS, check_format, detect_format
from .limits import check_decoded_strings, check_json_depth, check_parquet
from .rows import RowLines, csv_header, csv_records, first_bad_row, json_failure_line
from .streams import first_bad_utf8_line, is_regular_file, read_bytes, source_name, stdin

__all__ = [
    "FORMATS",
    "TableFile",
    "check_format",
    "check_text",
    "column_problem",
    "detect_format",
    "pick_columns",
    "read_delimited",
    "read_jsonl",
    "read_parquet",
]


PathLike = str | os.PathLike[str]


def _check_file(path: PathLike) -> str:
    p = os.fspath(path)
    if p == "-":
        return p
    if not os.path.exists(p):
        raise ParseError("no such file", source=p)
    if os.path.isdir(p):
        raise ParseError("is a directory, expected a file", source=p)
    if not os.access(p, os.R_OK):
        raise ParseError("cannot read the file: permission denied", source=p)
    return p


@dataclass(frozen=True)
class TableFile:
    """A table read from a file, with what messages need to locate its rows: ``lines`` maps
    a row to the line where it starts (CSV/TSV, JSON Lines); Parquet rows are named by
    number (``lines`` is None)."""

    table: pa.Table
    source: str
    lines: RowLines | None = None


def _bytes_or_path(p: str, source: str) -> tuple[Any, Callable[[], bytes]]:
    """What Arrow reads (a plain regular file by its path, so it is never held whole in
    memory; anything else -- stdin, a pipe, a device, gzip -- as bytes read within bounds),
    and how to get the bytes again for a message."""
    if p != "-" and is_regular_file(p):
        with open(p, "rb") as fh:
            magic = fh.read(2)
        if magic != b"\x1f\x8b":
            return pa.OSFile(p), lambda: read_bytes(p, source)
    data = read_bytes(p, source)
    return pa.BufferReader(data), lambda: data


def read_delimited(
    path: PathLike, columns: Mapping[str, str], delimiter: str | None = None
) -> TableFile:
    """The ``columns`` (role -> column name) of a CSV/TSV file with a header row, as text (ids stay ids: ``007``;
    values go through assay's own checked parsers); an empty cell is a missing value. Errors
    name the file and the line."""
    import pyarrow.csv as pcsv

    p = _check_file(path)
    source = source_name(p)
    if delimiter is None:
        delimiter = "\t" if detect_format(p) == "tsv" else ","
    reader, load = _bytes_or_path(p, source)
    header_line = _check_header(reader, load, source, delimiter, columns)
    try:
        table = pcsv.read_csv(
            reader,
            parse_options=pcsv.ParseOptions(delimiter=delimiter),
            convert_options=pcsv.ConvertOptions(
                column_types={name: pa.string() for name in columns.values()},
                include_columns=list(dict.fromkeys(columns.values())),
                strings_can_be_null=True,
                null_values=[""],
            ),
        )
    except (pa.ArrowInvalid, OSError, UnicodeDecodeError) as exc:
        raise _csv_error(exc, load, source, delimiter) from None
    if table.num_rows == 0:
        raise EmptyInputError("no data rows", source=source, line=header_line + 1)
    return TableFile(table, source, RowLines(load, "csv", delimiter))


def _check_header(
    reader: Any,
    load: Callable[[], bytes],
    source: str,
    delimiter: str,
    columns: Mapping[str, str],
) -> int:
    """The header's line, once its names are checked: UTF-8, and each wanted column named
    exactly once (Arrow would read the first of two, or fail without a line)."""
    head = _head(reader, load)
    text = head.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    if len(head) == _HEAD and len(csv_records(text, delimiter, 2)) < 2:
        text = load().decode("utf-8", "surrogateescape").removeprefix("\ufeff")  # a long header
    if text.startswith("\ufeff"):
        raise ParseError("a second byte order mark starts the file", source=source, line=1)
    found = csv_header(text, delimiter)
    if found is None:
        raise EmptyInputError("the file is empty (no header, no data rows)", source=source)
    line, names = found
    if not all(_encodable(n) for n in names):
        raise ParseError(
            "the header names a column in text that is not valid UTF-8", source=source, line=line
        )
    line, names = found
    problem = column_problem(names, columns, source, line)
    if problem is not None:
        raise problem
    return line


_HEAD = 1 << 20


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _head(reader: Any, load: Callable[[], bytes]) -> bytes:
    """The first bytes of the input (enough for its header), the reader rewound."""
    if isinstance(reader, pa.BufferReader):
        return bytes(load()[:_HEAD])
    head = reader.read(_HEAD)
    reader.seek(0)
    return bytes(head)


def _csv_error(
    exc: Exception, load: Callable[[], bytes], source: str, delimiter: str
) -> InputError:
    """The ParseError for a CSV that Arrow could not read, with the line found from the bytes."""
    message = _arrow_msg(exc)
    try:
        data = load()
    except AssayError:
        return ParseError(f"cannot parse as delimited text: {message}", source=source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data[: bad.start].count(b"\n") + 1
        return ParseError(
            "undecodable bytes: the file is not valid UTF-8", source=source, line=line
        )
    found = first_bad_row(text.removeprefix("\ufeff"), delimiter)
    if found is not None:
        return ParseError(found[1], source=source, line=found[0])
    if "\n" not in text.rstrip("\r\n"):  # a header without a line end: Arrow cannot tell
        return EmptyInputError("no data rows", source=source, line=2)
    return ParseError(f"cannot parse as delimited text: {message}", source=source)


def read_parquet(path: PathLike) -> TableFile:
    import pyarrow.parquet as pq

    p = _check_file(path)
    source = source_name(p)
    if p == "-" or not is_regular_file(p):
        reader: Any = _parquet_stream(p, source)
    else:
        reader = p
    try:
        # ParquetFile, not read_table: read_table goes through pyarrow.dataset, whose import
        # pulls in pandas (0.16 s of a 0.5 s evaluation of a 100k-row run).
        handle = pq.ParquetFile(reader)
        check_parquet(handle.metadata, _byte_size(reader), source)
        schema = handle.schema_arrow
        text = text_columns(schema)
        if text:  # kept as dictionaries until their decoded size is known to be bounded
            handle = pq.ParquetFile(reader, read_dictionary=text)
        table = handle.read()
        check_decoded_strings(table, _byte_size(reader), source)
        if text:
            table = table.cast(schema)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as exc:
        raise ParseError(f"cannot read as Parquet: {_arrow_msg(exc)}", source=source) from None
    if table.num_rows == 0:
        raise EmptyInputError("no data rows", source=source)
    return TableFile(check_text(table, source), source)


def text_columns(schema: pa.Schema) -> list[str]:
    """The string and binary columns of a Parquet schema (read as dictionaries)."""
    kinds = (pa.types.is_string, pa.types.is_large_string, pa.types.is_binary)
    return [f.name for f in schema if any(kind(f.type) for kind in kinds)]


def _byte_size(reader: str | pa.BufferReader) -> int:
    return os.path.getsize(reader) if isinstance(reader, str) else int(reader.size())


def _parquet_stream(p: str, source: str) -> pa.BufferReader:
    """A Parquet file from a pipe or stdin: read whole once its first bytes say it is one
    (``/dev/zero`` would otherwise be read until memory runs out)."""
    fh = stdin() if p == "-" else open(p, "rb")  # noqa: SIM115
    try:
        head = fh.read(4)
        if head != b"PAR1":
            raise ParseError("not a Parquet file (it does not start with PAR1)", source=source)
        return pa.BufferReader(head + fh.read())
    finally:
        if p != "-":
            fh.close()


def read_jsonl(path: PathLike) -> TableFile:
    """JSON Lines, one object per row. The file is read into memory and checked to be UTF-8
    first (Arrow's JSON reader lets some invalid bytes through)."""
    import pyarrow.json as pj

    p = _check_file(path)
    source = source_name(p)
    data = read_bytes(p, source)
    load = lambda: data  # noqa: E731
    line = _bad_utf8_line(load)
    if line is not None:
        raise ParseError("undecodable bytes: the file is not valid UTF-8", source=source, line=line)
    if not data.strip(b" \t\r\n"):
        raise EmptyInputError("the file is empty (no JSON object)", source=source)
    check_json_depth(data, source)  # Arrow's parser would crash on deep nesting
    try:
        table = pj.read_json(pa.BufferReader(data), read_options=_json_options(len(data)))
    except (pa.ArrowInvalid, OSError) as exc:
        found = _locate_json_error(load)
        if found is not None:
            raise ParseError(found[1], source=source, line=found[0]) from None
        raise ParseError(
            f"cannot parse as JSON Lines: {_arrow_msg(exc)}",
            source=source,
            line=json_failure_line(data.decode("utf-8")),
        ) from None
    if table.num_rows == 0:
        raise EmptyInputError("no data rows", source=source)
    lines = RowLines(load, "jsonl")
    return TableFile(check_text(table, source, lines), source, lines)


def _json_options(size: int) -> Any:
    """Blocks large enough for any object of the file (an object may not straddle two
    blocks), and never smaller than Arrow's default."""
    import pyarrow.json as pj

    return pj.ReadOptions(block_size=max(1 << 20, min(size + 1, (1 << 31) - 1)))


def _bad_utf8_line(load: Callable[[], bytes]) -> int | None:
    """The line of the first bytes that are not UTF-8 (None: all are, or no bytes)."""
    try:
        data = load()
    except AssayError:
        return None
    return first_bad_utf8_line(data)


def check_text(table: pa.Table, source: str, lines: RowLines | None = None) -> pa.Table:
    """Refuse column names and text cells that are not valid UTF-8: Arrow's JSON and
    Parquet readers accept them, and they fail later, far from the file. ``lines`` locates
    rows (else errors name the row)."""
    try:
        names = table.column_names
    except UnicodeDecodeError:
        raise ParseError("a column name is not valid UTF-8", source=source) from None
    for name, column in zip(names, table.columns, strict=True):
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            continue
        try:
            column.validate(full=True)
        except pa.ArrowInvalid:
            row = _first_invalid_utf8(column)
            line = None if lines is None else lines[row]
            where = f"row {row + 1}" if line is None else f"line {line}"
            raise ParseError(
                f"column {shown(name)} holds text that is not valid UTF-8 at {where}",
                source=source,
                line=line,
            ) from None
    return table


def _first_invalid_utf8(column: pa.ChunkedArray) -> int:
    """Error path only: the index of the first cell that does not decode."""
    for i, value in enumerate(column.cast(pa.binary()).to_pylist()):
        if value is None:
            continue
        try:
            value.decode("utf-8")
        except UnicodeDecodeError:
            return i
    return 0


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _locate_json_error(load: Callable[[], bytes]) -> tuple[int, str] | None:
    """Error path only: the 1-based line of the first JSON Lines problem, and what it is."""
    import json

    try:
        data = load()
    except AssayError:
        return None
    kinds: dict[str, tuple[str, int]] = {}
    for no, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip(b" \t\r"):
            continue
        try:
            obj = json.loads(
                raw.decode("utf-8"), parse_float=_json_float, parse_constant=_no_constant
            )
        except UnicodeDecodeError:
            return no, "undecodable bytes: the file is not valid UTF-8"
        except ValueError as exc:
            return no, f"invalid JSON: {exc}"
        except RecursionError:
            return no, "invalid JSON: nested too deeply"
        if not isinstance(obj, dict):
            return no, f"expected a JSON object, got a {_json_kind(obj)}"
        try:  # Python's json takes a \\u escape of a lone surrogate; Arrow does not
            json.dumps(obj, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return no, "invalid JSON: a \\u escape stands for a lone surrogate, not a character"
        for key, value in obj.items():
            kind = _json_kind(value)
            if kind == "null":
                continue
            prev = kinds.setdefault(key, (kind, no))
            if prev[0] != kind:
                return no, (
                    f"field {shown(key)} is a {kind} here but a {prev[0]} on line "
                    f"{prev[1]}; a field must have one type in every line"
                )
    return None


def _json_float(text: str) -> float:
    """A JSON number as Arrow reads it: ``1e400`` does not fit a double."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:30]} is too large for a double")
    return value


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not JSON (Python writes it for a non-finite float)")


def _arrow_msg(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def pick_columns(table: pa.Table, mapping: dict[str, str], source: str | None) -> dict[str, Any]:
    """Select columns by the user's names; a missing column names what is there."""
    problem = column_problem(table.column_names, mapping, source, None)
    if problem is not None:
        raise problem
    return {role: _plain(table.column(name)) for role, name in mapping.items()}


def column_problem(
    names: list[str], mapping: Mapping[str, str], source: str | None, line: int | None
) -> InputError | None:
    """The error for a wanted column (``mapping``: role -> name) that the header ``names``
    lack or name twice, or None."""
    for role, name in mapping.items():
        count = names.count(name)
        if count > 1:
            return InputError(
                f"the header names column {shown(name)} {count} times; the {role} column "
                "must be named once",
                source=source,
                line=line,
            )
        if count == 0:
            listed = ", ".join(shown(n, 30) for n in names[:20]) + (
                ", …" if len(names) > 20 else ""
            )
            return InputError(
                f"no column {shown(name)} for the {role} (columns: {listed}); "
                f"map it with {role}='<column>' (on the command line: --{role}-column)",
                source=source,
                line=line,
            )
    return None


def _plain(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Dictionary-encoded columns decoded, half floats widened: the forms Parquet writers
    produce that the rest of assay need not know about."""
    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    if pa.types.is_float16(column.type):
        column = column.cast(pa.float64())
    return column
