"""Reading several runs per system from one table: a system column, a seed column, a score
column and, optionally, a unit column (query or item id), from CSV/TSV (with a header row),
Parquet or JSON Lines. The scores come back as :func:`assay.compare_seeds` takes them."""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError, ParseError, shown

__all__ = ["read_seed_scores"]

PathLike = str | os.PathLike[str]


def _table(path: PathLike, columns: dict[str, str], format: str | None) -> Any:
    """The file's TableFile (Any: the io layer's type, imported late)."""
    from ..io.formats import check_format, detect_format
    from ..io.tabular import read_delimited, read_jsonl, read_parquet

    fmt = check_format(format or detect_format(path), path)
    if fmt == "trec":
        raise InputError(
            "expected a table with a header row (CSV, TSV, Parquet or JSON Lines)",
            source=os.fspath(path),
        )
    if fmt in ("csv", "tsv"):
        return read_delimited(path, columns, "\t" if fmt == "tsv" else ",")
    return read_parquet(path) if fmt == "parquet" else read_jsonl(path)


def read_seed_scores(
    path: PathLike,
    *,
    system_column: str = "system",
    seed_column: str = "seed",
    score_column: str = "score",
    unit_column: str | None = None,
    format: str | None = None,
) -> dict[str, NDArray[np.float64]]:
    """Each system's scores per seed from a table with one row per (system, seed) — or per
    (system, seed, unit) with ``unit_column``.

    Systems keep the order of their first row, seeds and units too. Every (system, seed[,
    unit]) must appear once, every score must be a finite number, and with units every seed of
    every system must score the same units; an :class:`~assay.errors.InputError` names the
    file and line otherwise (Parquet rows by number).

    Parameters
    ----------
    path : str or os.PathLike
        A CSV or TSV file with a header row, a Parquet file or JSON Lines.
    system_column, seed_column, score_column : str
        The columns naming the system, the seed and holding the score.
    unit_column : str, optional
        The column naming the unit (query, item) of a per-unit score.
    format : {"csv", "tsv", "parquet", "jsonl"}, optional
        The file's format (default: from its name and content).

    Returns
    -------
    dict of str to numpy.ndarray
        System -> (seeds,) scores, or (seeds, units) with ``unit_column``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from assay.ranking import read_seed_scores
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "seeds.csv"
    >>> _ = path.write_text("system,seed,score\\nbm25,1,0.30\\nbm25,2,0.31\\ndense,1,0.36\\n"
    ...                     "dense,2,0.35\\ndense,3,0.37\\n")
    >>> scores = read_seed_scores(path)
    >>> {name: values.tolist() for name, values in scores.items()}
    {'bm25': [0.3, 0.31], 'dense': [0.36, 0.35, 0.37]}
    """
    from ..io.tabular import pick_columns

    wanted = {"system": system_column, "seed": seed_column, "score": score_column}
    if unit_column is not None:
        wanted["unit"] = unit_column
    read = _table(path, wanted, format)
    picked = pick_columns(read.table, wanted, read.source)
    cells = {role: col.to_pylist() for role, col in picked.items()}
    lines = read.lines

    def where(row: int) -> dict[str, Any]:  # Any: keyword arguments of the errors
        line = None if lines is None else lines[row]
        return {"source": read.source, "line": line}

    def at(row: int) -> str:
        return "" if lines is not None and lines[row] is not None else f" (row {row + 1})"

    table: dict[str, dict[str, dict[str, float]]] = {}
    first: dict[tuple[str, ...], int] = {}
    for row in range(read.table.num_rows):
        key = tuple(_name(cells[r][row], wanted[r], row, where, at) for r in wanted if r != "score")
        score = _score(cells["score"][row], score_column, row, where, at)
        if key in first:
            earlier = first[key]
            said = "" if lines is None else f" (line {lines[earlier]})"
            raise InputError(
                f"{_describe(key)} appears twice{at(row)}, first at row {earlier + 1}{said}",
                **where(row),
            )
        first[key] = row
        system, seed = key[0], key[1]
        unit = key[2] if len(key) > 2 else ""
        table.setdefault(system, {}).setdefault(seed, {})[unit] = score
    return _arrays(table, unit_column is not None, first, where)


def _name(value: Any, column: str, row: int, where: Any, at: Any) -> str:  # Any: a cell
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        raise InputError(f"missing value in column {shown(column)}{at(row)}", **where(row))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _score(value: Any, column: str, row: int, where: Any, at: Any) -> float:  # Any: a cell
    from ..io.text import parse_number

    if value is None:
        raise InputError(f"missing score in column {shown(column)}{at(row)}", **where(row))
    if isinstance(value, str):
        loc = where(row)
        try:
            return parse_number(value, loc["source"], loc["line"])
        except ParseError as exc:
            raise InputError(f"{exc.args[0]} in column {shown(column)}{at(row)}", **loc) from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(
            f"the score {shown(str(value))} in column {shown(column)} is not a number{at(row)}",
            **where(row),
        )
    if not math.isfinite(value):
        raise InputError(
            f"the score in column {shown(column)} is {value!r}; scores must be finite{at(row)}",
            **where(row),
        )
    return float(value)


def _describe(key: tuple[str, ...]) -> str:
    parts = ["system", "seed", "unit"]
    return "(" + ", ".join(f"{p} {shown(k)}" for p, k in zip(parts, key, strict=False)) + ")"


def _arrays(
    table: dict[str, dict[str, dict[str, float]]],
    units: bool,
    first: dict[tuple[str, ...], int],
    where: Any,  # Any: the reader's locator
) -> dict[str, NDArray[np.float64]]:
    out: dict[str, NDArray[np.float64]] = {}
    if not units:
        for system, seeds in table.items():
            out[system] = np.array([v[""] for v in seeds.values()], dtype=np.float64)
        return out
    names: list[str] = list(
        dict.fromkeys(u for seeds in table.values() for v in seeds.values() for u in v)
    )
    for system, seeds in table.items():
        for seed, values in seeds.items():
            missing = [u for u in names if u not in values]
            if missing:
                row = first[(system, seed, next(iter(values)))]
                more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
                raise InputError(
                    f"system {shown(system)}, seed {shown(seed)} has no score for unit "
                    f"{shown(missing[0])}{more}; every seed must score the same "
                    f"{len(names)} units",
                    **where(row),
                )
        out[system] = np.array([[v[u] for u in names] for v in seeds.values()], dtype=np.float64)
    return out
