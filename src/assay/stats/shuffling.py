"""Stratified shuffling: the approximate randomization test of corpus-level statistics that
are not means of per-item values (F1, BLEU, ...)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import InputError
from . import _checks as check
from . import _resampling as rs
from .result import StatResult

__all__ = ["stratified_shuffling_test"]

_WHERE = "stratified_shuffling_test"

#: One record per item: a numeric array (items first) or a sequence of records of any kind.
Outputs = Sequence[object] | NDArray[np.generic]


def stratified_shuffling_test(
    outputs_a: Outputs,
    outputs_b: Outputs,
    statistic: Callable[..., ArrayLike],
    *,
    n_resamples: int = 10000,
    seed: int = 0,
) -> StatResult:
    """Approximate randomization test for corpus-level statistics that are not means of
    per-item values (F1, BLEU, ...).

    Noreen 1989; Yeh 2000, "More accurate tests for the statistical significance of result
    differences"; Padó 2006, sigf. Each resample swaps the two systems' records on a random
    subset of items (each item with probability 1/2) and recomputes both statistics;
    p = (#{|S*_a - S*_b| ≥ |S_a - S_b|} + 1) / (N + 1). The swap pattern of resample r is the
    flip pattern of :func:`~assay.stats.randomization_test` with the same seed, so with
    ``statistic=np.mean`` both tests agree.

    Parameters
    ----------
    outputs_a, outputs_b : sequence or numpy.ndarray
        One record per item for each system (equal lengths): numeric NumPy arrays of one shape
        (items along the first axis), or sequences of records of any kind.
    statistic : callable
        The corpus-level statistic S of one system's records, given as they are: numeric
        arrays stay arrays, anything else is passed as a list. With arrays, a ``statistic``
        that has an ``axis`` parameter is called once per block on the stacked
        (resamples × n × ...) array with ``axis=1`` and must return one value per resample;
        otherwise it is called once per resample and side (a Python loop).
    n_resamples : int, default 10000
        Random swaps N.
    seed : int, default 0
        Seed of the swaps.

    Returns
    -------
    StatResult
        ``statistic`` S_a - S_b, ``pvalue`` (two-sided), ``ci`` None; ``details``:
        n_resamples, seed, statistic_a, statistic_b.

    Examples
    --------
    F1 over a corpus, from per-sentence counts (true positives, false positives, false
    negatives):

    >>> import numpy as np
    >>> from assay.stats import stratified_shuffling_test
    >>> a = np.array([[3, 1, 0], [2, 0, 1], [4, 1, 1], [1, 0, 2], [5, 0, 0], [2, 2, 1]])
    >>> b = np.array([[2, 1, 1], [2, 1, 1], [3, 2, 2], [1, 1, 2], [4, 1, 1], [1, 2, 2]])
    >>> def f1(counts):
    ...     tp, fp, fn = np.sum(counts, axis=0)
    ...     return 2 * tp / (2 * tp + fp + fn)
    >>> res = stratified_shuffling_test(a, b, f1, n_resamples=1000, seed=0)
    >>> print(f"{res.statistic:.4f} p={res.pvalue:.3f}")
    0.1860 p=0.040
    """
    if not callable(statistic):
        raise InputError(f"{_WHERE}: statistic must be callable (got {statistic!r})")
    n_resamples, seed = check.resampling(n_resamples, seed, _WHERE)
    side_a, side_b, arrays = _sides(outputs_a, outputs_b)
    n = len(side_a)
    if n < 1:
        raise InputError(f"{_WHERE}: needs at least 1 item")
    vectorised = arrays and rs.accepts_axis(statistic)
    stat_a, stat_b = _observed(statistic, side_a, side_b, arrays, vectorised)
    observed = stat_a - stat_b
    tol = rs.tolerance(n, max(abs(observed), abs(stat_a), abs(stat_b)))
    count = (
        _array_exceedances(statistic, side_a, side_b, vectorised, observed, tol, n_resamples, seed)
        if arrays
        else _record_exceedances(statistic, side_a, side_b, observed, tol, n_resamples, seed)
    )
    p = (count + 1.0) / (n_resamples + 1.0)
    details = {
        "n_resamples": n_resamples,
        "seed": seed,
        "statistic_a": stat_a,
        "statistic_b": stat_b,
    }
    return StatResult.of(observed, float(p), None, "stratified shuffling test", details)


def _sides(outputs_a: Outputs, outputs_b: Outputs) -> tuple[Any, Any, bool]:
    """Both systems' records: two numeric arrays of one shape (items first), or two lists of
    the same length; and whether they are arrays."""
    arrays = (
        isinstance(outputs_a, np.ndarray)
        and isinstance(outputs_b, np.ndarray)
        and outputs_a.dtype != object
        and outputs_b.dtype != object
    )
    if arrays:
        out_a, out_b = np.asarray(outputs_a), np.asarray(outputs_b)
        if out_a.ndim == 0 or out_a.shape != out_b.shape:
            raise InputError(
                f"{_WHERE}: outputs_a and outputs_b must be arrays of the same shape with the "
                f"items along the first axis (got {out_a.shape} and {out_b.shape})"
            )
        return out_a, out_b, True
    list_a, list_b = list(outputs_a), list(outputs_b)
    if len(list_a) != len(list_b):
        raise InputError(
            f"{_WHERE}: outputs_a and outputs_b must have one record per item each "
            f"(got {len(list_a)} and {len(list_b)})"
        )
    return list_a, list_b, False


def _observed(
    statistic: Callable[..., Any], side_a: Any, side_b: Any, arrays: bool, vectorised: bool
) -> tuple[float, float]:
    """The statistic of each system's own records (both finite)."""
    if arrays:
        stat_a = rs.statistic_of(statistic, [side_a], vectorised, _WHERE, axis=0)
        stat_b = rs.statistic_of(statistic, [side_b], vectorised, _WHERE, axis=0)
    else:
        stat_a = rs.scalar(statistic(side_a), _WHERE, "statistic")
        stat_b = rs.scalar(statistic(side_b), _WHERE, "statistic")
    if not (math.isfinite(stat_a) and math.isfinite(stat_b)):
        raise InputError(f"{_WHERE}: statistic of the outputs is not finite ({stat_a}, {stat_b})")
    return stat_a, stat_b


def _array_exceedances(
    statistic: Callable[..., Any],
    out_a: NDArray[Any],
    out_b: NDArray[Any],
    vectorised: bool,
    observed: float,
    tol: Any,
    n_resamples: int,
    seed: int,
) -> int:
    """How many swapped resamples of array records give |S*_a - S*_b| ≥ |observed|."""
    n = out_a.shape[0]
    extra = (1,) * (out_a.ndim - 1)
    count = 0
    for bits in rs.flip_blocks(seed, n, n_resamples):
        swap = bits.astype(bool).reshape(bits.shape + extra)
        side_a = np.where(swap, out_b, out_a)
        side_b = np.where(swap, out_a, out_b)
        values_a = rs.apply_rows(statistic, [side_a], vectorised, _WHERE, axis=1)
        values_b = rs.apply_rows(statistic, [side_b], vectorised, _WHERE, axis=1)
        count += int(rs.exceed(values_a - values_b, observed, tol, "two-sided"))
    return count


def _record_exceedances(
    statistic: Callable[..., Any],
    list_a: list[Any],
    list_b: list[Any],
    observed: float,
    tol: Any,
    n_resamples: int,
    seed: int,
) -> int:
    """How many swapped resamples of list records give |S*_a - S*_b| ≥ |observed|."""
    n = len(list_a)
    obj_a, obj_b = np.empty(n, dtype=object), np.empty(n, dtype=object)
    for i in range(n):
        obj_a[i], obj_b[i] = list_a[i], list_b[i]
    count = 0
    for bits in rs.flip_blocks(seed, n, n_resamples):
        swap = bits.astype(bool)
        values = np.array(
            [
                rs.scalar(statistic(np.where(s, obj_b, obj_a).tolist()), _WHERE, "statistic")
                - rs.scalar(statistic(np.where(s, obj_a, obj_b).tolist()), _WHERE, "statistic")
                for s in swap
            ],
            dtype=np.float64,
        )
        count += int(rs.exceed(values, observed, tol, "two-sided"))
    return count
