"""CSV/TSV, Parquet and JSON Lines tables with a column mapping, parsed by pyarrow."""

from __future__ import annotations

import os
from typing import Any

import pyarrow as pa

from ..errors import EmptyInputError, InputError, ParseError

PathLike = str | os.PathLike[str]

_EXT = {
    ".parquet": "parquet", ".pq": "parquet",
    ".csv": "csv", ".tsv": "tsv",
    ".jsonl": "jsonl", ".ndjson": "jsonl",
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


def _check_file(path: PathLike) -> str:
    p = os.fspath(path)
    if not os.path.exists(p):
        raise ParseError("no such file", source=p)
    return p


def read_delimited(path: PathLike, delimiter: str | None = None) -> pa.Table:
    import pyarrow.csv as pcsv

    p = _check_file(path)
    if delimiter is None:
        delimiter = "\t" if detect_format(p) == "tsv" else ","
    try:
        table = pcsv.read_csv(p, parse_options=pcsv.ParseOptions(delimiter=delimiter))
    except pa.ArrowInvalid as exc:
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
    return table


def read_jsonl(path: PathLike) -> pa.Table:
    import pyarrow.json as pj

    p = _check_file(path)
    try:
        table = pj.read_json(p)
    except pa.ArrowInvalid as exc:
        raise ParseError(f"cannot parse as JSON Lines: {_arrow_msg(exc)}", source=p) from None
    if table.num_rows == 0:
        raise EmptyInputError("no data rows", source=p)
    return table


def _arrow_msg(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def pick_columns(table: pa.Table, mapping: dict[str, str], source: str | None) -> dict[str, Any]:
    """Select columns by the user's names; a missing column names what is there."""
    out = {}
    for role, name in mapping.items():
        if name not in table.column_names:
            raise InputError(
                f"no column {name!r} for the {role} (columns: {', '.join(table.column_names)}); "
                f"map it with {role}='<column>'",
                source=source,
            )
        out[role] = table.column(name)
    return out
