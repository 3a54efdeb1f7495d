"""The leaderboard's bootstrap: every item's score in ``B`` resamples of the comparisons.

Count-based methods: resampling the ``N`` comparisons with replacement is a multinomial draw
of counts over the distinct ``(left, right, outcome, weight)`` cells (a pair written either
way round is one cell)
(:func:`assay.stats.multinomial_resamples`, one stream per resample from the seed); each
block of resamples becomes a stack of win and tie matrices ``(rows, n, n)`` by one
``bincount`` and goes through the method's kernel at once. Memory is bounded by the block
(:data:`BLOCK_ELEMENTS` cells of each matrix), never by ``B`` or ``N``.

Elo depends on the order of the comparisons: its resamples are index resamples (``N`` row
numbers drawn with replacement, one stream per resample), the rows taken **in the drawn
order** (the Chatbot Arena notebook's ``sample(frac=1, replace=True)``), each run through
the whole Elo loop.

Either way resample ``r`` depends on ``seed`` and ``r`` only: the scores are the same
whatever the block size, the order blocks are processed in, or the number of threads.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..stats import multinomial_resamples
from .comparisons import Comparisons

__all__ = [
    "BLOCK_ELEMENTS",
    "LIKELIHOOD",
    "Cells",
    "bootstrap_scores",
    "cells_of",
    "percentiles",
    "ranks",
    "with_limits",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: Cells of one (rows, n, n) matrix processed at once: 2**21 float64, 16 MiB.
BLOCK_ELEMENTS = 1 << 21


class Cells:
    """The distinct comparisons: ``left``, ``right``, ``winner`` and ``weight`` per cell,
    and ``count``, how many comparisons fall in it."""

    def __init__(
        self, left: IntArray, right: IntArray, winner: IntArray, weight: FloatArray, count: IntArray
    ):
        self.left, self.right, self.winner, self.weight, self.count = (
            left,
            right,
            winner,
            weight,
            count,
        )


def cells_of(c: Comparisons) -> Cells:
    """Group the comparisons into their distinct cells: (left, right, winner, weight) with
    ``left < right`` (a comparison written the other way round, its winner flipped, is the
    same outcome: half as many cells to draw)."""
    n = max(c.n_items, 1)
    swap = c.left > c.right
    low, high = np.where(swap, c.right, c.left), np.where(swap, c.left, c.right)
    won = c.winner.astype(np.int64)
    won = np.where(swap & (won != 2), 1 - won, won)
    code = (low * n + high) * 3 + won
    if c.weights is None:
        keys, inverse = np.unique(code, return_inverse=True)
        count = np.bincount(inverse, minlength=keys.size).astype(np.int64)
        weight = np.ones(keys.size)
    else:
        order = np.lexsort((c.weights, code))
        sc, sw = code[order], c.weights[order]
        new = np.ones(sc.size, dtype=bool)
        new[1:] = (sc[1:] != sc[:-1]) | (sw[1:] != sw[:-1])
        starts = np.flatnonzero(new)
        keys, weight = sc[starts], sw[starts]
        count = np.diff(np.append(starts, sc.size)).astype(np.int64)
    pair, winner = np.divmod(keys, 3)
    left, right = np.divmod(pair, n)
    return Cells(left, right, winner, np.asarray(weight, dtype=np.float64), count)


def _maps(cells: Cells, n: int) -> tuple[Any, Any]:
    """Sparse (n*n, m) matrices taking cell counts to the flattened win and tie matrices
    (each cell's weight where its comparison lands)."""
    from scipy.sparse import csr_matrix

    m = cells.count.size
    won = cells.winner != 2
    target = np.where(cells.winner == 0, cells.left * n + cells.right, cells.right * n + cells.left)
    column = np.arange(m)
    wins = csr_matrix((cells.weight[won], (target[won], column[won])), shape=(n * n, m))
    tied = ~won
    tie_rows = np.concatenate(
        [cells.left[tied] * n + cells.right[tied], cells.right[tied] * n + cells.left[tied]]
    )
    tie_cols = np.concatenate([column[tied], column[tied]])
    ties = csr_matrix(
        (np.concatenate([cells.weight[tied]] * 2), (tie_rows, tie_cols)), shape=(n * n, m)
    )
    return wins, ties


def _matrices(
    cells: Cells, counts: IntArray, n: int, maps: tuple[Any, Any] | None = None
) -> tuple[FloatArray, FloatArray]:
    """The win and tie matrices (rows, n, n) of resampled cell counts (rows, m): one sparse
    product each (every cell lands in one or two places)."""
    wins_map, ties_map = maps if maps is not None else _maps(cells, n)
    amount = np.ascontiguousarray(counts.T, dtype=np.float64)  # (m, rows)
    rows = counts.shape[0]
    wins = np.ascontiguousarray((wins_map @ amount).T).reshape(rows, n, n)
    ties = np.ascontiguousarray((ties_map @ amount).T).reshape(rows, n, n)
    return wins, ties


#: The methods whose estimate (a maximum-likelihood one) does not exist for an item that
#: only won or only lost: the board shows its limit instead of the iteration's last value.
LIKELIHOOD = ("bradley_terry", "newman")


def with_limits(scores: FloatArray, wins: FloatArray, ties: FloatArray) -> FloatArray:
    """``scores`` (shape (n,) or (B, n)) with the limits of a likelihood method's estimate:
    +inf for an item that only won, 0 for one that only lost, NaN for one without
    comparisons (counts per item from the matching win and tie matrices)."""
    won = wins.sum(-1)
    lost = wins.sum(-2)
    tied = ties.sum(-1)
    out = np.where((won > 0) & (lost == 0) & (tied == 0), np.inf, scores)
    out = np.where((lost > 0) & (won == 0) & (tied == 0), 0.0, out)
    return np.where((won == 0) & (lost == 0) & (tied == 0), np.nan, out)


def block_rows(n: int) -> int:
    """Resamples per block for ``n`` items (a function of ``n`` only)."""
    return max(1, BLOCK_ELEMENTS // max(n * n, 1))


def _count_blocks(
    c: Comparisons, method: str, options: Mapping[str, Any], n_resamples: int, seed: int
) -> Iterator[tuple[FloatArray, FloatArray, FloatArray | None]]:
    from ._pairwise import KERNELS

    kernel_options = dict(options)
    if method == "bradley_terry":
        kernel_options["tie_model"] = kernel_options.pop("ties")
    cells = cells_of(c)
    n = c.n_items
    maps = _maps(cells, n)
    for counts in multinomial_resamples(
        cells.count, n_resamples=n_resamples, seed=seed, rows=block_rows(n)
    ):
        wins, ties = _matrices(cells, counts, n, maps)
        fit = KERNELS[method](wins, ties, **kernel_options)
        tie = fit.extra.get("v" if method == "newman" else "nu")
        scores = np.asarray(fit.scores, dtype=np.float64).reshape(counts.shape[0], n)
        if method in LIKELIHOOD:
            scores = with_limits(scores, wins, ties)
        yield (
            scores,
            fit.extra.get("iterations", np.zeros(counts.shape[0])),
            (None if tie is None else np.asarray(tie, dtype=np.float64)),
        )


def _elo_resamples(
    c: Comparisons, options: Mapping[str, Any], n_resamples: int, seed: int
) -> Iterator[FloatArray]:
    from ._pairwise import elo

    size = len(c)
    for child in np.random.SeedSequence(seed).spawn(n_resamples):
        idx = np.random.default_rng(child).integers(0, size, size)
        weights = None if c.weights is None else c.weights[idx]
        yield elo(
            c.left[idx], c.right[idx], c.winner[idx], c.n_items, weights=weights, **options
        ).scores


def bootstrap_scores(
    c: Comparisons, method: str, options: Mapping[str, Any], n_resamples: int, seed: int
) -> tuple[FloatArray, int, FloatArray | None]:
    """Every item's score in each resample ``(B, n)``, the resamples whose fit stopped at
    the iteration cap (not converged), and the tie parameter per resample (or None)."""
    if len(c) == 0:
        return np.full((n_resamples, c.n_items), np.nan), 0, None
    if method == "elo":
        return (
            np.array(list(_elo_resamples(c, options, n_resamples, seed))).reshape(
                n_resamples, c.n_items
            ),
            0,
            None,
        )
    scores, unconverged, ties = [], 0, []
    cap = options.get("max_iter")
    for block, iterations, tie in _count_blocks(c, method, options, n_resamples, seed):
        scores.append(block)
        if cap is not None:
            unconverged += int(np.count_nonzero(np.asarray(iterations) >= cap))
        if tie is not None:
            ties.append(np.asarray(tie).reshape(-1))
    return np.concatenate(scores, axis=0), unconverged, (np.concatenate(ties) if ties else None)


def ranks(scores: FloatArray) -> FloatArray:
    """Competition ranks along the last axis: ``1 + #{j: s_j > s_i}`` (tied items share the
    best rank; +inf outranks every finite score); NaN for a NaN score (not counted)."""
    s = np.asarray(scores, dtype=np.float64)
    flat = s.reshape(-1, s.shape[-1]) if s.ndim else s.reshape(1, 1)
    out = np.full(flat.shape, np.nan)
    for r, row in enumerate(flat):  # a sort per row: O(n log n), never an (n, n) table
        defined = np.sort(row[~np.isnan(row)])
        above = defined.size - np.searchsorted(defined, row, side="right")
        out[r] = np.where(np.isnan(row), np.nan, 1.0 + above)
    return out.reshape(s.shape)


def percentiles(values: FloatArray, q: FloatArray) -> FloatArray:
    """Per column of ``values`` (B, n), the quantiles ``q`` (linear interpolation, numpy's
    default) over its non-NaN entries; an infinite neighbour makes the quantile infinite
    (never ``inf - inf``); NaN for a column without values. Shape (len(q), n)."""
    v = np.sort(np.asarray(values, dtype=np.float64), axis=0)  # NaN sorts last
    defined = (~np.isnan(v)).sum(0)
    out = np.full((len(q), v.shape[1]), np.nan)
    cols = np.arange(v.shape[1])
    for k, level in enumerate(q):
        pos = level * (defined - 1)
        lo = np.floor(pos).astype(np.int64).clip(0)
        hi = np.ceil(pos).astype(np.int64).clip(0)
        a = v[lo.clip(max=v.shape[0] - 1), cols]
        b = v[hi.clip(max=v.shape[0] - 1), cols]
        t = pos - lo
        with np.errstate(invalid="ignore"):
            mixed = a + (b - a) * t
        # a + (inf - a) * t is inf for t > 0; at t == 0 it is a; inf - inf is NaN: take a
        value = np.where(t == 0, a, np.where(np.isinf(a), a, np.where(np.isinf(b), b, mixed)))
        out[k] = np.where(defined > 0, value, np.nan)
    return out
