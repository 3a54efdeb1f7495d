"""Data frames (pandas, polars) and nested dicts ``{query: {doc: value}}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from .._compat import require
from ..errors import InputError


def pandas_to_arrow(df: Any) -> pa.Table:
    require("pandas")
    return pa.Table.from_pandas(df, preserve_index=False)


def polars_to_arrow(df: Any) -> pa.Table:
    require("polars")
    return df.to_arrow()


def nested_to_columns(data: Mapping[Any, Mapping[Any, Any]], what: str
                      ) -> tuple[list[str], list[str], np.ndarray]:
    """Flatten ``{query: {doc: value}}``. Python dicts cannot be read without a Python loop;
    this is one pass building three flat lists, then everything is columnar."""
    if not isinstance(data, Mapping):
        raise InputError(f"{what} must be a mapping {{query: {{doc: value}}}}, got {type(data).__name__}")
    queries: list[str] = []
    docs: list[str] = []
    values: list[Any] = []
    for q, inner in data.items():
        if not isinstance(inner, Mapping):
            raise InputError(f"{what}[{q!r}] must be a mapping {{doc: value}}, "
                             f"got {type(inner).__name__}")
        qs = str(q)
        queries.extend([qs] * len(inner))
        docs.extend(map(str, inner.keys()))
        values.extend(inner.values())
    try:
        arr = np.asarray(values, dtype=np.float64 if what == "run" else None)
    except (TypeError, ValueError):
        raise InputError(f"{what} values must be numbers") from None
    if what != "run" and arr.dtype.kind not in "iub":
        if arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise InputError("qrels grades must be integers")
    return queries, docs, arr


def columns_to_nested(query: pa.Array, doc: pa.Array, value: pa.Array) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for q, d, v in zip(query.to_pylist(), doc.to_pylist(), value.to_pylist(), strict=True):
        inner = out.get(q)
        if inner is None:
            inner = out[q] = {}
        inner[d] = v
    return out
