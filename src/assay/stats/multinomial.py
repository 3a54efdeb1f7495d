"""Bootstrap resamples of grouped observations as cell counts: :func:`multinomial_resamples`.

Drawing ``N`` observations with replacement from a sample in which ``m`` distinct values
occur ``c_1, ..., c_m`` times gives counts of those values that follow the multinomial
distribution ``Multinomial(N, c / N)``; drawing the counts directly costs ``O(m)`` per
resample instead of ``O(N)``, and a statistic of the counts (a contingency table, the win
counts of pairwise comparisons) is then computed without ever materialising the resample.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .. import _options as opt
from ..errors import InputError

__all__ = ["multinomial_resamples"]


def multinomial_resamples(
    counts: ArrayLike, *, n_resamples: int = 1000, seed: int = 0, rows: int = 256
) -> Iterator[NDArray[np.int64]]:
    """Bootstrap resamples of counted observations: each resample's count of every cell.

    With ``N = sum(counts)``, resample ``r`` is one draw of ``Multinomial(N, counts / N)``:
    the numbers of times each cell is picked in ``N`` draws with replacement, exactly what
    resampling the ``N`` observations themselves and counting them by cell gives. Resample
    ``r`` is drawn by ``numpy.random.default_rng(children[r])`` where ``children =
    numpy.random.SeedSequence(seed).spawn(n_resamples)``: each resample has its own stream,
    so the values depend on ``seed`` only, never on ``rows`` (how many are yielded at once)
    or on the order or thread in which blocks are processed.

    Parameters
    ----------
    counts : array_like of int
        How many observations fall in each of the ``m`` cells (non-negative integers, at
        least one positive).
    n_resamples : int, default 1000
        The number of resamples ``B``.
    seed : int, default 0
        The seed of the streams.
    rows : int, default 256
        Resamples per yielded block (memory: ``rows * m`` integers at a time).

    Yields
    ------
    numpy.ndarray
        Blocks of shape ``(rows, m)`` (the last one shorter) of int64 counts; each row sums
        to ``N``. ``B`` rows in all, resample 0 first.

    Raises
    ------
    InputError
        Counts that are negative, not integers, or all zero.

    Examples
    --------
    >>> from assay.stats import multinomial_resamples
    >>> blocks = list(multinomial_resamples([3, 1, 0], n_resamples=4, seed=1, rows=3))
    >>> [b.shape for b in blocks]
    [(3, 3), (1, 3)]
    >>> [int(row.sum()) for b in blocks for row in b]
    [4, 4, 4, 4]
    >>> int(blocks[0][:, 2].max())
    0
    """
    where = "multinomial_resamples"
    n_resamples = opt.n_resamples(n_resamples, where=where)
    seed = opt.seed(seed, where=where)
    rows = opt.integer(rows, "rows", minimum=1, where=where)
    c = np.asarray(counts)
    if c.ndim != 1 or c.size == 0:
        raise InputError(f"counts must be a non-empty 1-D array, got shape {c.shape}")
    if not np.issubdtype(c.dtype, np.number) or not np.all(np.isfinite(c)):
        raise InputError("counts must be finite numbers")
    if np.any(c < 0) or np.any(c != np.round(c)):
        raise InputError("counts must be non-negative integers")
    c = c.astype(np.int64)
    total = int(c.sum())
    if total == 0:
        raise InputError("counts are all zero: nothing to resample")
    return _blocks(c, total, n_resamples, seed, rows)


def _blocks(
    c: NDArray[np.int64], total: int, n_resamples: int, seed: int, rows: int
) -> Iterator[NDArray[np.int64]]:
    p = c / total
    children = np.random.SeedSequence(seed).spawn(n_resamples)
    for start in range(0, n_resamples, rows):
        stop = min(n_resamples, start + rows)
        block = np.empty((stop - start, c.size), dtype=np.int64)
        for r in range(start, stop):
            block[r - start] = np.random.default_rng(children[r]).multinomial(total, p)
        yield block
