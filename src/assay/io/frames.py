"""Data frames (pandas, polars) and nested dicts ``{query: {doc: value}}``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from numbers import Integral, Real
from typing import Any

import numpy as np
import pyarrow as pa

from .._compat import require
from ..errors import InputError


def _arrow_error(exc: Exception) -> str:
    return "; ".join(str(a) for a in exc.args) or type(exc).__name__


def pandas_to_arrow(df: Any) -> pa.Table:
    pd = require("pandas")
    if not isinstance(df, pd.DataFrame):
        raise InputError(f"expected a pandas.DataFrame, got {type(df).__name__}",
                         source="<pandas>")
    try:
        return pa.Table.from_pandas(df, preserve_index=False)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise InputError(f"cannot convert the data frame: {_arrow_error(exc)}",
                         source="<pandas>") from None


def polars_to_arrow(df: Any) -> pa.Table:
    pl = require("polars")
    if isinstance(df, pl.LazyFrame):
        df = df.collect()
    if not isinstance(df, pl.DataFrame):
        raise InputError(f"expected a polars.DataFrame, got {type(df).__name__}",
                         source="<polars>")
    return df.to_arrow()


def _bad_value(value: Any, what: str) -> str | None:
    """Why ``value`` cannot be a run score / qrels grade (None: it can)."""
    if what == "run":
        if isinstance(value, bool) or not isinstance(value, Real):
            return "is not a number"
        if not math.isfinite(value):
            return "is not finite (NaN and infinity are not allowed)"
        return None
    if isinstance(value, bool | Integral):
        return None
    if isinstance(value, Real) and math.isfinite(value) and float(value).is_integer():
        return None
    return "is not an integer grade"


def nested_to_columns(data: Mapping[Any, Mapping[Any, Any]], what: str
                      ) -> tuple[list[str], list[str], np.ndarray]:
    """Flatten ``{query: {doc: value}}``. Python dicts cannot be read without a Python loop;
    this is one pass building three flat lists, then everything is columnar."""
    if not isinstance(data, Mapping):
        raise InputError(f"{what} must be a mapping {{query: {{doc: value}}}}, "
                         f"got {type(data).__name__}", source="<dict>")
    queries: list[str] = []
    docs: list[str] = []
    values: list[Any] = []
    for q, inner in data.items():
        if not isinstance(inner, Mapping):
            raise InputError(f"{what}[{q!r}] must be a mapping {{doc: value}}, "
                             f"got {type(inner).__name__}", source="<dict>")
        qs = str(q)
        queries.extend([qs] * len(inner))
        docs.extend(map(str, inner.keys()))
        values.extend(inner.values())
    arr = np.asarray(values) if values else np.zeros(0, dtype=np.float64)
    ok = arr.dtype.kind in "iuf" if what == "run" else arr.dtype.kind in "iub"
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
    if what != "run" and arr.dtype.kind == "f":
        arr = arr.astype(np.int64)
    return queries, docs, arr


def columns_to_nested(query: pa.Array, doc: pa.Array, value: pa.Array) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for q, d, v in zip(query.to_pylist(), doc.to_pylist(), value.to_pylist(), strict=True):
        inner = out.get(q)
        if inner is None:
            inner = out[q] = {}
        inner[d] = v
    return out
