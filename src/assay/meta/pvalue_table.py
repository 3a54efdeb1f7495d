"""Reading one p-value per dataset from a table (CSV/TSV, Parquet or JSON Lines with a header),
the input of ``assay meta replicability``: a dataset column and a p-value column, and
optionally system and baseline columns to pick one comparison out of several per dataset."""

from __future__ import annotations

import os
from typing import Any

import pyarrow as pa

from ..errors import DuplicateError, InputError, ParseError, shown

__all__ = ["read_pvalues"]

PathLike = str | os.PathLike[str]


def read_pvalues(
    path: PathLike,
    *,
    system: str | None = None,
    baseline: str | None = None,
    dataset_column: str = "dataset",
    p_value_column: str = "p_value",
    system_column: str = "system",
    baseline_column: str = "baseline",
    format: str | None = None,
) -> dict[str, float]:
    """One p-value per dataset from a table file, for :func:`assay.meta.replicability`.

    With ``system`` (and ``baseline``) only the rows whose system (and baseline) column
    holds that name are read; a dataset left with two rows is an error naming its line.

    Parameters
    ----------
    path : str or PathLike
        A CSV, TSV, Parquet or JSON Lines file with a header.
    system, baseline : str, optional
        The comparison to read (rows of other systems or baselines are skipped).
    dataset_column, p_value_column, system_column, baseline_column : str
        The columns' names.
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        The format (default: from the extension).

    Returns
    -------
    dict of str to float
        Dataset → p-value, in the file's order.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from assay.meta import read_pvalues
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "pvalues.csv"
    >>> _ = path.write_text("dataset,system,p_value\\nnews,crf,0.01\\nnews,bert,0.002\\n"
    ...                     "web,bert,0.04\\n")
    >>> read_pvalues(path, system="bert")
    {'news': 0.002, 'web': 0.04}
    """
    from ..io.formats import check_format, detect_format
    from ..io.tabular import pick_columns, read_delimited, read_jsonl, read_parquet
    from ..io.text import parse_number

    fmt = check_format(format or detect_format(path), path)
    if fmt == "trec":
        raise InputError(
            "expected a table with a header row (CSV, TSV, Parquet or JSON Lines; name the "
            "format with format=, on the command line --input-format)",
            source=os.fspath(path),
        )
    wanted = {"dataset": dataset_column, "p_value": p_value_column}
    if system is not None:
        wanted["system"] = system_column
    if baseline is not None:
        wanted["baseline"] = baseline_column
    if fmt in ("csv", "tsv"):
        read = read_delimited(path, wanted, "\t" if fmt == "tsv" else ",")
    else:
        read = read_parquet(path) if fmt == "parquet" else read_jsonl(path)
    cols = {
        role: _values(col) for role, col in pick_columns(read.table, wanted, read.source).items()
    }

    def line(row: int) -> int | None:
        return None if read.lines is None else read.lines[row]

    out: dict[str, float] = {}
    first: dict[str, int] = {}
    for row, name in enumerate(cols["dataset"]):
        if system is not None and _text(cols["system"][row]) != system:
            continue
        if baseline is not None and _text(cols["baseline"][row]) != baseline:
            continue
        if name is None:
            raise ParseError("the dataset is missing", source=read.source, line=line(row))
        key = str(name)
        if key in out:
            raise DuplicateError(
                f"dataset {shown(key)} has a second p-value (first on line {line(first[key])}); "
                "pick one comparison with --system / --baseline",
                source=read.source,
                line=line(row),
            )
        out[key] = _pvalue(cols["p_value"][row], read.source, line(row), parse_number)
        first[key] = row
    if not out:
        raise InputError(f"no row for system={system!r}, baseline={baseline!r}", source=read.source)
    return out


def _text(value: Any) -> str | None:  # Any: a cell
    return None if value is None else str(value)


def _values(column: pa.ChunkedArray) -> list[Any]:  # Any: the cells, text or numbers
    return list(column.to_pylist())


def _pvalue(value: Any, source: str, line: int | None, parse: Any) -> float:  # Any: a cell
    if value is None:
        raise ParseError("the p-value is missing", source=source, line=line)
    if isinstance(value, str):
        p = float(parse(value, source, line or 0))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        p = float(value)
    else:
        raise ParseError(f"the p-value {value!r} is not a number", source=source, line=line)
    if not 0.0 <= p <= 1.0:
        raise ParseError(f"the p-value {p} is not in [0, 1]", source=source, line=line)
    return p
