"""What the pairwise kernels share: batch handling of count matrices, evalica's combined
win-plus-tie matrix and the fit of an iterative kernel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import OptionError
from ._fit import PairwiseFit

FloatArray = NDArray[np.float64]

MAX_FLOAT = float(np.finfo(np.float64).max)
"""What evalica puts for +inf (``f64::MAX``)."""


def stack(wins: ArrayLike, ties: ArrayLike) -> tuple[FloatArray, FloatArray, bool]:
    """The count matrices as a ``(B, n, n)`` batch, and whether the input was one matrix."""
    w = np.asarray(wins, dtype=np.float64)
    t = np.asarray(ties, dtype=np.float64)
    if w.shape != t.shape or w.ndim not in (2, 3) or w.shape[-1] != w.shape[-2]:
        raise OptionError(
            f"wins and ties must be square count matrices of one shape (n, n) or (B, n, n), "
            f"got {w.shape} and {t.shape}",
            option="wins",
        )
    single = w.ndim == 2
    return (w[None] if single else w), (t[None] if single else t), single


def unstack(values: FloatArray, single: bool) -> FloatArray:
    """Drop the batch axis again when the input was one matrix."""
    return values[0] if single else values


def combined(
    wins: FloatArray, ties: FloatArray, win_weight: float, tie_weight: float, nan: float
) -> FloatArray:
    """evalica's ``win_plus_tie_matrix``: ``win_weight * wins + tie_weight * ties`` with NaN
    replaced by ``nan`` (before and after) and infinities by the extreme floats."""
    with np.errstate(all="ignore"):
        w = np.nan_to_num(wins, nan=nan) * win_weight
        t = np.nan_to_num(ties, nan=nan) * tie_weight
        return np.nan_to_num(w + t, nan=nan)


def fit_of(
    scores: FloatArray,
    iterations: FloatArray,
    change: FloatArray,
    tolerance: float,
    single: bool,
    **extra: FloatArray,
) -> PairwiseFit:
    """The fit of an iterative kernel on a batch: ``iterations`` the most any member took,
    ``converged`` when every member's last step was below the tolerance, ``change`` the
    largest last step; per-member iterations (and any fitted parameters) in ``extra``."""
    named = {"iterations": iterations, **extra}
    return PairwiseFit(
        scores=unstack(scores, single),
        iterations=int(iterations.max(initial=0)),
        converged=bool((change < tolerance).all()),
        change=float(change.max(initial=0.0)),
        extra={name: unstack(value, single) for name, value in named.items()},
    )


CELLS = {"sweep": 2**20, "matrix": 2**18}
"""Batch slices of about this many matrix cells: the item-by-item sweeps pay Python
overhead per item and want wide slices; the all-at-once updates want slices that stay in
the CPU cache."""


def in_chunks(
    run: Callable[..., tuple[FloatArray, ...]],
    arrays: Sequence[NDArray[np.generic]],
    kind: Literal["sweep", "matrix"],
) -> tuple[FloatArray, ...]:
    """``run(*arrays)`` on consecutive slices of the batch axis holding about
    ``CELLS[kind]`` matrix cells each, results concatenated. Every member is computed independently, so
    this changes no value; slices that fit in the CPU cache make the many elementwise
    passes of an iteration several times faster than one pass over a large batch."""
    batch, n = arrays[0].shape[0], arrays[0].shape[-1]
    members = max(1, CELLS[kind] // max(1, n * n))
    if batch <= members:
        return run(*arrays)
    parts = [run(*(a[i : i + members] for a in arrays)) for i in range(0, batch, members)]
    return tuple(np.concatenate(values) for values in zip(*parts, strict=True))
