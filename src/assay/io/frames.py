"""Data frames (pandas, polars) and nested dicts ``{query: {doc: value}}``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import chain
from numbers import Integral, Real
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np
from .._optional import require
from ..errors import InputError, shown

__all__ = [
    "grouped_to_nested",
    "nested_to_columns",
    "pandas_to_arrow",
    "polars_to_arrow",
]


def _arrow_error(exc: Exception) -> str:
    return "; ".join(str(a) for a in exc.args) or type(exc).__name__


def pandas_to_arrow(df: Any) -> pa.Table:
    pd = require("pandas")
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"expected a pandas.DataFrame, got {type(df).__name__}", source="<pandas>")
    try:
        return pa.Table.from_pandas(df, preserve_index=False)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise InputError(
            f"cannot convert the data frame: {_arrow_error(exc)}", source="<pandas>"
        ) from None


def polars_to_arrow(df: Any) -> pa.Table:
    pl = require("polars")
    if isinstance(df, pl.LazyFrame):
        df = df.collect()
    if not isinstance(df, pl.DataFrame):
        raise InputError(f"expected a polars.DataFrame, got {type(df).__name__}", source="<polars>")
    return df.to_arrow()


def _fits_float(value: int) -> bool:
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _bad_value(value: Any, what: str) -> str | None:
    """Why ``value`` cannot be a run score / qrels grade (None: it can)."""
    if what == "run":
        if isinstance(value, bool) or not isinstance(value, Real):
            return "is not a number"
        if isinstance(value, Integral) and not _fits_float(int(value)):
            return "is beyond a 64-bit float"
        if not math.isfinite(value):
            return "is not finite (NaN and infinity are not allowed)"
        return None
    if isinstance(value, bool | Integral):
        return None if -(2**31) <= int(value) < 2**31 else "is out of range (grades are 32-bit)"
    if isinstance(value, Real) and math.isfinite(value) and float(value).is_integer():
        return None
    return "is not an integer grade"


def _id_strings(keys: list[Any], what: str) -> pa.Array:
    """Dict keys as Arrow strings: text as it is, integers (not booleans) in decimal. Any
    other key (None, bytes, tuples, floats) would only become an id by accident (``'None'``,
    ``"b'x'"``), and text that cannot be UTF-8 (lone surrogates) cannot be an id at all."""
    kinds = set(map(type, keys))
    if not kinds <= {str}:
        for bad in keys:
            if isinstance(bad, bool) or not isinstance(bad, str | Integral):
                raise InputError(
                    f"{what} is {shown(repr(bad))} ({type(bad).__name__}); ids are strings "
                    "or integers",
                    source="<dict>",
                )
        keys = [k if isinstance(k, str) else str(int(k)) for k in keys]
    try:
        return pa.array(keys, pa.string())
    except UnicodeEncodeError:
        bad = next(k for k in keys if not _encodable(k))
        raise InputError(
            f"{what} {shown(bad)} is not valid Unicode text (a lone surrogate)", source="<dict>"
        ) from None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _values_array(values: list[Any]) -> np.ndarray:
    """The values as one NumPy array; lists or arrays among them give an object or a 2-D
    array (never a valid one: the caller then names the first bad value)."""
    if not values:
        return np.zeros(0, dtype=np.float64)
    try:
        return np.asarray(values)
    except (ValueError, TypeError, OverflowError):  # ragged nested sequences
        return np.empty(0, dtype=object)


def nested_to_columns(
    data: Mapping[Any, Mapping[Any, Any]], what: str
) -> tuple[pa.Array, pa.Array, np.ndarray, bool]:
    """Flatten ``{query: {doc: value}}`` into (query, doc, value) columns.

    Python dicts cannot be read without Python-level iteration; this chains the inner keys and
    values once (C-level iteration, no per-item Python code) and gives the query column as a
    dictionary array (distinct queries + one code per row), so no per-row query string is made.
    The flag says whether (query, doc) pairs are known to be distinct: true when every doc key
    is a string, since keys of one dict are distinct (``str`` could merge 1 and "1").
    """
    if not isinstance(data, Mapping):
        raise InputError(
            f"{what} must be a mapping {{query: {{doc: value}}}}, got {type(data).__name__}",
            source="<dict>",
        )
    inners = list(data.values())
    for q, inner in zip(data.keys(), inners, strict=True):
        if not isinstance(inner, Mapping):
            raise InputError(
                f"{what}[{q!r}] must be a mapping {{doc: value}}, got {type(inner).__name__}",
                source="<dict>",
            )
    counts = np.fromiter(map(len, inners), dtype=np.int64, count=len(inners))
    qids = _id_strings(list(data), f"a query id of the {what}")
    if pc.count_distinct(qids).as_py() != len(qids):
        raise InputError(
            f"{what} has query ids that are equal as strings (e.g. 1 and '1')", source="<dict>"
        )
    queries = pa.DictionaryArray.from_arrays(
        from_np(np.repeat(np.arange(len(qids), dtype=np.int32), counts)), qids
    )
    keys = list(chain.from_iterable(inners))
    unique = set(map(type, keys)) <= {str}
    docs = _id_strings(keys, f"a document id of the {what}")
    values = list(chain.from_iterable(inner.values() for inner in inners))
    arr = _values_array(values)
    ok = arr.ndim == 1 and (arr.dtype.kind in "iuf" if what == "run" else arr.dtype.kind in "iub")
    if ok and arr.dtype.kind == "f":
        ok = bool(np.isfinite(arr).all()) and (what == "run" or bool((arr == np.round(arr)).all()))
    if not ok:
        # Error path (or integral floats in qrels): find the first bad value by key.
        for q, inner in data.items():
            for d, v in inner.items():
                why = _bad_value(v, what)
                if why is not None:
                    raise InputError(f"{what}[{q!r}][{d!r}] = {v!r} {why}", source="<dict>")
        if what == "run":
            arr = np.asarray(values, dtype=np.float64)
            _warn_big_ints(values, arr)
    if what != "run" and arr.dtype.kind == "f":
        arr = arr.astype(np.int64)
    return queries, docs, arr, unique


def _warn_big_ints(values: list[Any], arr: np.ndarray) -> None:
    """Python ints beyond 64 bits (NumPy kept them as objects) that their float cannot hold:
    a counted warning, as :func:`assay.data` gives for 64-bit integer scores."""
    lost = [
        i
        for i, v in enumerate(values)
        if isinstance(v, int) and abs(v) > 2**53 and math.isfinite(arr[i]) and int(arr[i]) != v
    ]
    if lost:
        import warnings

        from ..errors import InputWarning

        warnings.warn(
            f"<dict>: {len(lost)} integer score{'s' if len(lost) > 1 else ''} beyond 2**53 lost "
            f"precision as 64-bit floats (scores that differ only there tie), e.g. "
            f"{values[lost[0]]} read as {float(arr[lost[0]])!r}",
            InputWarning,
            stacklevel=5,
        )


def grouped_to_nested(
    query_ids: list[str], offsets: np.ndarray, docs: list[str], values: list[Any]
) -> dict[str, dict[str, Any]]:
    """``{query: {doc: value}}`` from rows grouped by query (CSR offsets): one C-level
    ``dict(zip(...))`` per query instead of Python code per row."""
    bounds = offsets.tolist()
    return {
        q: dict(
            zip(docs[bounds[i] : bounds[i + 1]], values[bounds[i] : bounds[i + 1]], strict=True)
        )
        for i, q in enumerate(query_ids)
    }
