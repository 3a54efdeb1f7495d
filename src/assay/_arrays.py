"""Checks of numeric array arguments, shared by every family: one rule for what a vector or
matrix of real numbers must be, and one wording of what is wrong with it.

Messages name the argument (``x``, ``y_true``, ``predictions['a']``) and, where given, the
function (``where``) and what needs the values (``purpose``), so the same mistake reads the
same in statistics, regression and every other family.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .errors import EmptyInputError, InputError

__all__ = ["finite_array", "same_length"]

FloatArray = NDArray[np.float64]
_SHAPE = {1: "one-dimensional", 2: "two-dimensional"}


def finite_array(
    values: ArrayLike, name: str, *, ndim: int = 1, where: str = "", purpose: str = ""
) -> FloatArray:
    """``values`` as a float64 array of ``ndim`` dimensions holding finite real numbers.

    Booleans and integers are accepted as numbers; text, objects and NaN/±inf are not.
    """
    prefix = f"{where}: " if where else ""
    try:
        raw = np.asarray(values)
        if raw.dtype.kind == "O":  # Python numbers mixed with None or other objects
            raw = raw.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{prefix}{name} must hold real numbers ({exc})") from None
    if raw.dtype.kind not in "biuf":
        raise InputError(f"{prefix}{name} must hold real numbers, got values of type {raw.dtype}")
    arr = raw.astype(np.float64, copy=False)
    if arr.ndim != ndim:
        raise InputError(f"{prefix}{name} must be {_SHAPE[ndim]} (got shape {arr.shape})")
    bad = np.argwhere(~np.isfinite(arr))
    if bad.size:
        at = ", ".join(str(int(i)) for i in bad[0])
        need = f"{purpose} need" if purpose else "need"
        count = f"{len(bad)} non-finite value{'s' if len(bad) > 1 else ''} in {name}"
        raise InputError(
            f"{prefix}{name}[{at}] is {float(arr[tuple(bad[0])])!r}; {need} finite values ({count})"
        )
    return arr


def same_length(*arrays: tuple[str, Any], what: str = "values") -> None:
    """Arrays given as ``(name, array)`` pairs have the same, non-zero length."""
    lengths = [(name, len(a)) for name, a in arrays]
    if len({n for _, n in lengths}) > 1:
        shown = " but ".join(f"{name} has {n} {what}" for name, n in lengths)
        raise InputError(f"{shown}; they must be paired one to one")
    if lengths and lengths[0][1] == 0:
        raise EmptyInputError(f"no {what} to evaluate")
