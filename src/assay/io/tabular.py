"""CSV/TSV, Parquet and JSON Lines tables with a column mapping, parsed by pyarrow."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from ..errors import EmptyInputError, InputError, OptionError, ParseError

__all__ = [
    "FORMATS",
    "check_format",
    "check_text",
    "detect_format",
    "pick_columns",
    "read_delimited",
    "read_jsonl",
    "read_parquet",
]


PathLike = str | os.PathLike[str]

_EXT = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".tsv": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}


def detect_format(path: PathLike) -> str:
    """'trec' unless the extension (before .gz) names a tabular format."""
    p = os.fspath(path).lower()
    if p.endswith(".gz"):
        p = p[:-3]
    for ext, fmt in _EXT.items():
        if p.endswith(ext):
            return fmt
    return "trec"


FORMATS = ("trec", "csv", "tsv", "parquet", "jsonl")


def check_format(fmt: str, path: PathLike) -> str:
    """``fmt`` if it is a format assay reads, else an :class:`OptionError`."""
    from .._options import InputFormat, choice

    try:
        return str(choice(fmt, InputFormat, "format"))
    except OptionError as exc:
        raise OptionError(f"{os.fspath(path)}: {exc}", option="format") from None


def _check_file(path: PathLike) -> str:
    p = os.fspath(path)
    if not os.path.exists(p):
        raise ParseError("no such file", source=p)
    if os.path.isdir(p):
        raise ParseError("is a directory, expected a file", source=p)
    if not os.access(p, os.R_OK):
        raise ParseError("cannot read the file: permission denied", source=p)
    return p


def read_delimited(
    path: PathLike, delimiter: str | None = None, strings: Sequence[str] = ()
) -> pa.Table:
    """A CSV/TSV file with a header row. Columns named in ``strings`` (the ids) are read as
    text, never inferred as numbers (``007`` stays ``007``); an empty cell is a missing value."""
    import pyarrow.csv as pcsv

    p = _check_file(path)
    if delimiter is None:
        delimiter = "\t" if detect_format(p) == "tsv" else ","
    try:
        table = pcsv.read_csv(
            p,
            parse_options=pcsv.ParseOptions(delimiter=delimiter),
            convert_options=pcsv.ConvertOptions(
                column_types={name: pa.string() for name in strings},
                strings_can_be_null=True,
                null_values=[""],
            ),
        )
    except (pa.ArrowInvalid, OSError) as exc:
        if "Empty CSV file" in str(exc):
            raise EmptyInputError("the file is empty (no header, no data rows)", source=p) from None
        raise ParseError(f"cannot parse as delimited text: {_arrow_msg(exc)}", source=p) from None
    if table.num_rows == 0:
        raise EmptyInputError("no data rows", source=p)
    return table


def read_parquet(path: PathLike) -> pa.Table:
    import pyarrow.parquet as pq

    p = _check_file(path)
    try:
        table = pq.read_table(p)
    except (pa.ArrowInvalid, OSError) as exc:
        raise ParseError(f"cannot read as Parquet: {_arrow_msg(exc)}", source=p) from None
    if table.num_rows == 0:
        raise EmptyInputError("no data rows", source=p)
    return check_text(table, p, first_line=None)


def read_jsonl(path: PathLike) -> pa.Table:
    import pyarrow.json as pj

    p = _check_file(path)
    try:
        table = pj.read_json(p)
    except (pa.ArrowInvalid, OSError) as exc:
        found = _locate_json_error(p)
        if found is not None:
            raise ParseError(found[1], source=p, line=found[0]) from None
        raise ParseError(f"cannot parse as JSON Lines: {_arrow_msg(exc)}", source=p) from None
    if table.num_rows == 0:
        raise EmptyInputError("no data rows", source=p)
    return check_text(table, p, first_line=None)


def check_text(table: pa.Table, source: str, first_line: int | None) -> pa.Table:
    """Refuse column names and text cells that are not valid UTF-8: Arrow's JSON and
    Parquet readers accept them, and they fail later, far from the file. ``first_line`` is the
    line of the first row when rows are lines (else errors name the row)."""
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
            where = f"row {row + 1}" if first_line is None else f"line {first_line + row}"
            raise ParseError(
                f"column {name!r} holds text that is not valid UTF-8 at {where}",
                source=source,
                line=None if first_line is None else first_line + row,
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


def _locate_json_error(p: str) -> tuple[int, str] | None:
    """Error path only: the 1-based line of the first JSON Lines problem, and what it is."""
    import gzip
    import json

    kinds: dict[str, tuple[str, int]] = {}
    try:
        fh = gzip.open(p, "rb") if p.endswith(".gz") else open(p, "rb")  # noqa: SIM115
        with fh:
            for no, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                try:
                    obj = json.loads(raw)
                except UnicodeDecodeError:
                    return no, "undecodable bytes: the file is not valid UTF-8"
                except ValueError as exc:
                    return no, f"invalid JSON: {exc}"
                except RecursionError:
                    return no, "invalid JSON: nested too deeply"
                if not isinstance(obj, dict):
                    return no, f"expected a JSON object, got a {_json_kind(obj)}"
                for key, value in obj.items():
                    kind = _json_kind(value)
                    if kind == "null":
                        continue
                    prev = kinds.setdefault(key, (kind, no))
                    if prev[0] != kind:
                        return no, (
                            f"field {key!r} is a {kind} here but a {prev[0]} on line "
                            f"{prev[1]}; a field must have one type in every line"
                        )
    except (OSError, EOFError):
        return None
    return None


def _arrow_msg(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def pick_columns(table: pa.Table, mapping: dict[str, str], source: str | None) -> dict[str, Any]:
    """Select columns by the user's names; a missing column names what is there."""
    out = {}
    names = table.column_names
    for role, name in mapping.items():
        if names.count(name) > 1:
            raise InputError(
                f"the header names column {name!r} {names.count(name)} times; the {role} "
                "column must be named once",
                source=source,
            )
        if name not in names:
            raise InputError(
                f"no column {name!r} for the {role} (columns: {', '.join(table.column_names)}); "
                f"map it with {role}='<column>' (on the command line: --{role}-column)",
                source=source,
            )
        out[role] = _plain(table.column(name))
    return out


def _plain(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Dictionary-encoded columns decoded, half floats widened: the forms Parquet writers
    produce that the rest of assay need not know about."""
    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    if pa.types.is_float16(column.type):
        column = column.cast(pa.float64())
    return column
