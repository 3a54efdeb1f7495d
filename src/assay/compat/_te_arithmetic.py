"""C's number parsing and trec_eval's exact arithmetic, for :mod:`assay.compat.trec_eval`.

trec_eval prints ``%6.4f``, so a value must be the same double, not merely close, to print the
same bytes: sums are sequential (:func:`seq_sum`, :func:`seg_cumsum`), ``log2`` of an integer
comes from the C library (:func:`log2_int`), parameters are read with C's ``atof``/``atol``
and gain levels sorted with glibc's merge sort and trec_eval's comparator.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..data.ranked import seg_cumsum as seg_cumsum

if TYPE_CHECKING:
    from ..data.ranked import Ranked

MIN_GEO_MEAN = 0.00001  # trec_eval's floor before taking a logarithm (gm_map, gm_bpref)

# ---------------------------------------------------------------- C number parsing


_ATOF = re.compile(
    r"\s*([+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))", re.IGNORECASE
)
_ATOF_HEX = re.compile(
    r"\s*([+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?)"
)
_ATOL = re.compile(r"\s*([+-]?\d+)")


def atof(text: str) -> float:
    """C's ``atof``: the longest numeric prefix, 0.0 when there is none (trec_eval's parameter
    parser uses it, so ``-m P.5x`` means ``P.5`` and ``-m set_F.x`` means ``set_F.0``)."""
    m = _ATOF_HEX.match(text)
    if m:
        body = m.group(1)
        if "p" not in body.lower():
            body += "p0"
        try:
            return float.fromhex(body)
        except ValueError:  # pragma: no cover - the pattern only matches valid hex floats
            return 0.0
    m = _ATOF.match(text)
    return float(m.group(1)) if m else 0.0


def atol(text: str) -> int:
    """C's ``atol``: the leading integer (after white space), 0 when there is none."""
    m = _ATOL.match(text)
    return int(m.group(1)) if m else 0


def valid_int(text: str) -> bool:
    """gain_init.c's test of a ``level=gain`` name: an optional sign and at least one digit."""
    body = text[1:] if text[:1] in ("+", "-") else text
    return bool(body) and all("0" <= c <= "9" for c in body)


def c_int_diff(a: float, b: float) -> int:
    """``(int)(a - b)``, the comparison gain_init.c sorts gains with.

    QUIRK: the difference is truncated to an int, so two gains less than 1 apart compare as
    equal, and a difference beyond the int range (or NaN) gives INT_MIN on x86-64.
    """
    d = a - b
    if not math.isfinite(d) or abs(d) >= 2.0**31:
        return -(2**31)
    return int(d)


def glibc_msort(items: list[Any], cmp: Callable[[Any, Any], int]) -> list[Any]:
    """glibc 2.36's ``qsort`` for small arrays: a top-down merge sort (first half ``n // 2``),
    merging from the left half while ``cmp(left, right) <= 0``.

    trec_eval sorts gain levels with a comparator that is not a total order (see
    :func:`c_int_diff`), so the result depends on the algorithm; this is the one trec_eval runs.
    """
    n = len(items)
    if n <= 1:
        return list(items)
    n1 = n // 2
    left = glibc_msort(items[:n1], cmp)
    right = glibc_msort(items[n1:], cmp)
    out: list[Any] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if cmp(left[i], right[j]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    out.extend(left[i:])
    out.extend(right[j:])
    return out


# ---------------------------------------------------------------- exact arithmetic helpers


_LOG2_TABLE = np.zeros(0)


def log2_int(n: np.ndarray) -> np.ndarray:
    """glibc's ``log2`` of positive integers, from a cached table (numpy's vectorised log2
    differs from glibc's in the last bit for some integers)."""
    global _LOG2_TABLE
    n = np.asarray(n, dtype=np.int64)
    top = int(n.max()) if n.size else 0
    if top >= len(_LOG2_TABLE):
        size = max(top + 1, 2 * len(_LOG2_TABLE), 4096)
        _LOG2_TABLE = np.fromiter(
            (math.log2(i) if i > 0 else -math.inf for i in range(size)), np.float64, size
        )
    out: np.ndarray = _LOG2_TABLE[n]
    return out


def log2_any(x: np.ndarray) -> np.ndarray:
    """log2 of doubles: glibc's for positive integral values, numpy's otherwise."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out: np.ndarray = np.log2(x)
    whole = np.isfinite(x) & (x >= 1) & (x < 2.0**31) & (x == np.floor(x))
    if whole.any():
        out[whole] = log2_int(x[whole].astype(np.int64))
    return out


def seq_sum(values: np.ndarray) -> float:
    """0.0 + v0 + v1 + ... in order: trec_eval's accumulation over topics."""
    v = np.asarray(values, dtype=np.float64)
    return float(np.cumsum(np.concatenate(([0.0], v)))[-1])


def seg_total(r: Ranked, x: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Per-topic sum in rank order (``np.bincount`` adds sequentially from 0.0)."""
    return r.seg_sum(x, mask)


def format_value(value: float) -> str:
    """``printf("%6.4f")`` as glibc prints it (NaN with its sign: 0/0 on x86-64 is -nan)."""
    if math.isnan(value):
        text = "-nan" if math.copysign(1.0, value) < 0 else "nan"
        return f"{text:>6}"
    return f"{value:6.4f}"
