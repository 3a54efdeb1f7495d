"""Checks shared by the statistics: data arguments (an :class:`~assay.errors.InputError`
naming the function and the argument) and options (validated by :mod:`assay._options`, an
:class:`~assay.errors.OptionError` naming the option)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .. import _options as opt
from .._arrays import finite_array
from ..errors import EmptyInputError, InputError

FloatArray = NDArray[np.float64]


# ---------------------------------------------------------------- options


def option(
    value: Any, kind: Any, name: str, where: str, aliases: Mapping[Any, Any] | None = None
) -> Any:
    """``value`` if it is one of the choices of the ``Literal`` type ``kind`` (compared
    case-insensitively), else an OptionError. ``aliases`` are other accepted spellings."""
    return opt.choice(value, kind, name, aliases=aliases, ignore_case=True, where=where)


def alternative(value: Any, where: str) -> Any:
    return option(value, opt.Alternative, "alternative", where)


def resampling(n_resamples: Any, seed: Any, where: str) -> tuple[int, int]:
    """A valid (n_resamples, seed) pair."""
    return opt.n_resamples(n_resamples, where=where), opt.seed(seed, where=where)


def confidence(value: Any, where: str) -> float:
    return opt.confidence(value, where=where)


def optional_confidence(value: Any, where: str) -> float | None:
    """A confidence level, or None for no interval."""
    return None if value is None else opt.confidence(value, where=where)


def flag(value: Any, name: str, where: str) -> bool:
    return opt.flag(value, name, where=where)


# ---------------------------------------------------------------- paired scores


def vector(x: ArrayLike, name: str, where: str, *, min_n: int = 1) -> FloatArray:
    """A finite one-dimensional float array of at least ``min_n`` values."""
    arr = finite_array(x, name, where=where)
    if arr.shape[0] < min_n:
        raise InputError(f"{where}: {name} needs at least {min_n} values (got {arr.shape[0]})")
    return arr


def matrix(x: ArrayLike, name: str, where: str, *, min_n: int = 1) -> FloatArray:
    """A finite two-dimensional float array of at least ``min_n`` columns."""
    arr = finite_array(x, name, ndim=2, where=where)
    if arr.shape[1] < min_n:
        raise InputError(
            f"{where}: {name} needs at least {min_n} columns (items) (got {arr.shape[1]})"
        )
    return arr


def difference(a: ArrayLike, b: ArrayLike | None, where: str, *, min_n: int) -> FloatArray:
    """a - b (paired by position, equal lengths), or ``a`` itself when ``b`` is None."""
    x = vector(a, "a", where, min_n=min_n)
    if b is None:
        return x
    y = vector(b, "b", where, min_n=min_n)
    if x.shape != y.shape:
        raise InputError(
            f"{where}: a and b must have the same length (got {x.shape[0]} and {y.shape[0]})"
        )
    return x - y


# ---------------------------------------------------------------- correlated pairs


def real_vector(values: ArrayLike, name: str) -> FloatArray:
    """A finite one-dimensional float array (the correlations' wording)."""
    return finite_array(values, name, purpose="correlations")


def pair(x: ArrayLike, y: ArrayLike, min_n: int = 3) -> tuple[FloatArray, FloatArray]:
    """Two finite one-dimensional float arrays of the same length n ≥ ``min_n``."""
    xa = real_vector(x, "x")
    ya = real_vector(y, "y")
    if xa.size != ya.size:
        raise InputError(
            f"x and y differ in length ({xa.size} and {ya.size}); correlations need paired values"
        )
    if xa.size == 0:
        raise EmptyInputError("x and y are empty")
    if xa.size < min_n:
        raise InputError(f"a correlation needs at least {min_n} pairs, got {xa.size}")
    return xa, ya


def fisher_n(n: int, min_n: int, what: str, confidence: float | None) -> None:
    """A Fisher-z interval divides by n - (min_n - 1): refuse smaller samples."""
    if confidence is not None and n < min_n:
        raise InputError(
            f"the {what} confidence interval needs at least {min_n} pairs (its standard error "
            f"divides by n - {min_n - 1}), got {n}; pass confidence=None for the coefficient "
            "and p-value only, or ask for a bootstrap interval"
        )
