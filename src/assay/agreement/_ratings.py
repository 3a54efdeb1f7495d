"""Ratings as the agreement family reads them: the input layouts of a units × raters table.

- **wide**: a units × raters matrix (nested sequences, NumPy array, pandas DataFrame) with
  missing values as NaN or None (``pd.NA`` too).
- **long**: a sequence of ``(unit, rater, value)`` triples; a pyarrow/pandas/polars table or a
  dict of columns named ``unit``, ``rater`` and ``value`` (also accepted: ``item``/``subject``
  for the unit, ``coder``/``annotator`` for the rater, ``label``/``rating``/``code`` for the
  value). The same (unit, rater) twice is an :class:`~assay.errors.InputError`.
- **counts** (``counts=True``): a units × values matrix of how many raters gave each value;
  ``values=`` names the columns' values (default ``0, 1, ..., V-1``; a DataFrame's numeric
  column names are used when ``values`` is not given).

Values are factorised to codes over the value domain (the sorted distinct values).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import InputError, InputWarning
from ..metrics.label_sets import caller_level, spelling_twins

FloatArray = NDArray[np.float64]
#: Ratings in any layout of the module documentation: a units × raters matrix (nested
#: sequences, NumPy array, data frame), (unit, rater, value) triples, a table or a dict of
#: columns, or a units × values count matrix.
RatingsData = ArrayLike | Mapping[str, Sequence[Any]]

_UNIT_NAMES = ("unit", "item", "subject", "unit_id", "item_id")
_RATER_NAMES = ("rater", "coder", "annotator", "observer", "rater_id", "coder_id")
_VALUE_NAMES = ("value", "label", "rating", "code", "category")


@dataclass
class Ratings:
    """Non-missing ratings as (unit index, value code) pairs over a sorted domain."""

    unit: NDArray[np.int64]
    code: NDArray[np.int64]
    n_units: int
    domain: NDArray[Any]
    counts: FloatArray | None = None  # units x values, when given as counts


def is_missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float | np.floating):
        return bool(np.isnan(v))
    return type(v).__name__ in ("NAType", "NaTType")  # pandas' NA and NaT, without pandas


def factorise(values: Sequence[Any] | NDArray[Any]) -> tuple[NDArray[np.int64], NDArray[Any]]:
    arr = np.asarray(values)
    if arr.dtype.kind in "biuf" and arr.size:
        # Small integral ranges (the usual rating scales): counting instead of sorting.
        lo, hi = arr.min(), arr.max()
        if hi - lo < (1 << 20) and (arr.dtype.kind != "f" or (arr == np.floor(arr)).all()):
            shifted = (arr - lo).astype(np.int64).ravel()
            present = np.bincount(shifted, minlength=int(hi - lo) + 1) > 0
            rank = np.cumsum(present) - 1
            domain = (np.nonzero(present)[0] + lo).astype(arr.dtype)
            return rank[shifted].astype(np.int64), domain
        domain, codes = np.unique(arr, return_inverse=True)
        return codes.astype(np.int64).ravel(), domain
    if arr.dtype.kind in "US":
        domain, codes = np.unique(arr, return_inverse=True)
        return codes.astype(np.int64).ravel(), domain
    index: dict[Any, int] = {}
    raw = np.fromiter(
        (index.setdefault(v, len(index)) for v in arr.ravel().tolist()), np.int64, arr.size
    )
    keys = list(index)
    try:
        order = sorted(range(len(keys)), key=lambda i: keys[i])
    except TypeError:
        order = list(range(len(keys)))
    rank = np.empty(len(keys), np.int64)
    rank[order] = np.arange(len(keys))
    domain = np.empty(len(keys), dtype=object)
    domain[:] = [keys[i] for i in order]
    return rank[raw], domain


def _columns(data: Any) -> dict[str, Any] | None:
    """Named columns of a pyarrow/pandas/polars table or a dict, else None."""
    if isinstance(data, Mapping):
        return {str(k): v for k, v in data.items()}
    mod = type(data).__module__
    if mod.startswith("pyarrow") and hasattr(data, "column_names"):
        return {name: data.column(name).to_pylist() for name in data.column_names}
    if mod.startswith("polars") and hasattr(data, "columns"):
        return {str(c): data[c].to_list() for c in data.columns}
    return None


def _pick(cols: Mapping[str, Any], names: Sequence[str]) -> str | None:
    lower = {k.lower(): k for k in cols}
    return next((lower[n] for n in names if n in lower), None)


def _long_columns(cols: Mapping[str, Any]) -> tuple[Any, Any, Any] | None:
    u, r, v = _pick(cols, _UNIT_NAMES), _pick(cols, _RATER_NAMES), _pick(cols, _VALUE_NAMES)
    if u is None or r is None or v is None:
        return None
    return cols[u], cols[r], cols[v]


def _from_long(units: Any, raters: Any, values: Any, where: str) -> Ratings:
    units, raters, values = list(units), list(raters), list(values)
    if not (len(units) == len(raters) == len(values)):
        raise InputError(f"{where}: unit, rater and value columns differ in length")
    keep = [i for i, v in enumerate(values) if not is_missing(v)]
    ucode, udom = factorise(np.asarray(units, dtype=object))
    rcode, _ = factorise(np.asarray(raters, dtype=object))
    pair = ucode * (int(rcode.max(initial=0)) + 1) + rcode
    _, first, cnt = np.unique(pair, return_index=True, return_counts=True)
    if (cnt > 1).any():
        i = int(first[np.argmax(cnt > 1)])
        raise InputError(
            f"{where}: unit {units[i]!r} rated by rater {raters[i]!r} more than once", line=i + 1
        )
    vals = values_array([values[i] for i in keep])
    code, domain = factorise(vals)
    return Ratings(ucode[keep], code, len(udom), domain)


def values_array(vals: list[Any]) -> NDArray[Any]:
    if all(isinstance(v, (int, float, np.integer, np.floating)) for v in vals):
        return np.asarray(vals, dtype=np.float64)
    if all(isinstance(v, str) for v in vals):
        return np.asarray(vals, dtype=str)
    arr = np.empty(len(vals), dtype=object)
    arr[:] = vals
    return arr


def _from_wide(data: Any, where: str) -> Ratings:
    if hasattr(data, "to_numpy") and hasattr(data, "columns"):
        data = data.to_numpy()
    try:
        arr = np.asarray(data, dtype=np.float64)
        numeric = True
    except (TypeError, ValueError):
        arr = np.asarray(data, dtype=object)
        numeric = False
    if arr.ndim != 2:
        raise InputError(f"{where}: expected a units x raters matrix, got {arr.ndim} dimension(s)")
    n_units = arr.shape[0]
    if numeric:
        ok = ~np.isnan(arr)
        if np.isinf(arr[ok]).any():
            raise InputError(f"{where}: infinite value in the data")
        unit = np.nonzero(ok)[0].astype(np.int64)
        code, domain = factorise(arr[ok])
        return Ratings(unit, code, n_units, domain)
    flat = arr.ravel().tolist()
    keep = [i for i, v in enumerate(flat) if not is_missing(v)]
    unit = np.asarray(keep, dtype=np.int64) // max(arr.shape[1], 1)
    code, domain = factorise(values_array([flat[i] for i in keep]))
    return Ratings(unit, code, n_units, domain)


def _from_counts(data: Any, values: Any, where: str) -> Ratings:
    if values is None and hasattr(data, "columns") and hasattr(data, "to_numpy"):
        try:
            values = np.asarray(list(data.columns), dtype=np.float64)
        except (TypeError, ValueError):
            values = np.asarray([str(c) for c in data.columns])
    if hasattr(data, "to_numpy"):
        data = data.to_numpy()
    try:
        c = np.asarray(data, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{where}: counts must be numbers") from None
    if c.ndim != 2:
        raise InputError(f"{where}: counts must be a units x values matrix")
    if not np.isfinite(c).all() or (c < 0).any() or (c != np.round(c)).any():
        raise InputError(f"{where}: counts must be non-negative integers")
    dom = np.arange(c.shape[1], dtype=np.float64) if values is None else np.asarray(values)
    if dom.ndim != 1 or len(dom) != c.shape[1]:
        raise InputError(f"{where}: values= must name the {c.shape[1]} count columns")
    order = np.argsort(dom, kind="stable")
    if len(np.unique(dom)) != len(dom):
        raise InputError(f"{where}: values= has duplicates")
    dom, c = dom[order], c[:, order]
    ci = c.astype(np.int64)
    unit = np.repeat(np.arange(c.shape[0], dtype=np.int64), ci.sum(axis=1))
    code = np.repeat(np.tile(np.arange(c.shape[1], dtype=np.int64), c.shape[0]), ci.ravel())
    return Ratings(unit, code, c.shape[0], dom, counts=c)


def ratings(data: Any, counts: bool, values: Any, where: str) -> Ratings:
    """The ratings of ``data`` (any layout), warning when two categories differ only in
    spelling."""
    r = _ratings(data, counts, values, where)
    said = spelling_twins([v.item() if hasattr(v, "item") else v for v in r.domain], "ratings")
    if said is not None:
        warnings.warn(said, InputWarning, stacklevel=caller_level())
    return r


def _ratings(data: Any, counts: bool, values: Any, where: str) -> Ratings:
    if counts:
        return _from_counts(data, values, where)
    cols = _columns(data)
    if cols is None and hasattr(data, "columns") and hasattr(data, "to_numpy"):  # pandas
        names = {str(c): c for c in data.columns}
        triple = _long_columns(names)
        if triple is not None:
            u, r, v = triple
            return _from_long(data[u].tolist(), data[r].tolist(), data[v].tolist(), where)
        return _from_wide(data, where)
    if cols is not None:
        triple = _long_columns(cols)
        if triple is None:
            raise InputError(
                f"{where}: a table or dict needs unit, rater and value columns; got {sorted(cols)}"
            )
        return _from_long(*triple, where)
    if (
        isinstance(data, Sequence)
        and len(data) > 0
        and all(isinstance(t, tuple) and len(t) == 3 for t in data)
    ):
        u, r, v = zip(*data, strict=True)
        return _from_long(u, r, v, where)
    return _from_wide(data, where)


def unit_counts(r: Ratings) -> Any:
    """Units x values count matrix: dense when small, else scipy.sparse CSR."""
    V = len(r.domain)
    if r.counts is not None:
        return r.counts
    if r.n_units * V <= max(4 * len(r.unit), 1 << 16):
        flat = np.bincount(r.unit * V + r.code, minlength=r.n_units * V)
        return flat.reshape(r.n_units, V).astype(np.float64)
    from scipy import sparse

    return sparse.csr_matrix(
        (np.ones(len(r.unit)), (r.unit, r.code)), shape=(r.n_units, V), dtype=np.float64
    )
