"""Randomised Tukey HSD: all pairs of k systems at once, the family-wise error rate controlled
by the range of the column means under within-item permutation (Carterette 2012)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._result import provenance
from ..errors import InputError
from . import _checks as check
from . import _resampling as rs
from ._checks import FloatArray
from .result import TukeyHSDResult

__all__ = ["TukeyHSDResult", "tukey_hsd"]

_TUKEY_BLOCK_ELEMENTS = 1 << 20  # smaller blocks keep the shuffles' random accesses in cache


def tukey_hsd(
    scores: ArrayLike | Mapping[str, ArrayLike],
    *,
    n_resamples: int = 10000,
    seed: int = 0,
    names: Sequence[str] | None = None,
) -> TukeyHSDResult:
    """Randomised Tukey HSD test of all pairs of k systems (Carterette 2012, "Multiple testing in
    statistical analysis of systems-based information retrieval experiments", ACM TOIS 30(1)).

    Each resample permutes the k values within every item (row) independently, and records the
    range max_c mean*_c - min_c mean*_c of the column means. The p-value of pair (i, j) is
    p_ij = (#{range* ≥ |mean_i - mean_j|} + 1) / (B + 1): the max statistic controls the
    family-wise error rate over all pairs.

    Parameters
    ----------
    scores : array_like or mapping of str to array_like
        An (n_items, k) array, one column per system, or a mapping name → per-item vector
        (equal lengths).
    n_resamples : int, default 10000
        Resamples B.
    seed : int, default 0
        Seed of the permutations.
    names : sequence of str, optional
        The k system names of an array's columns (default "0", "1", ...); not allowed with a
        mapping, whose keys are the names.

    Returns
    -------
    TukeyHSDResult
        The means, the (k, k) p-value matrix and one ``(i, j, diff, p)`` per pair i < j.

    Examples
    --------
    >>> from assay.stats import tukey_hsd
    >>> scores = {"bm25": [0.40, 0.45, 0.39, 0.52, 0.41, 0.50, 0.30, 0.47],
    ...           "dense": [0.42, 0.51, 0.38, 0.60, 0.47, 0.55, 0.33, 0.49],
    ...           "hybrid": [0.45, 0.52, 0.41, 0.61, 0.50, 0.56, 0.36, 0.52]}
    >>> res = tukey_hsd(scores, n_resamples=1000, seed=0)
    >>> print(res.means.round(4).tolist())
    [0.43, 0.4688, 0.4912]
    >>> print(f"{res.pvalue('bm25', 'dense'):.4f} {res.pvalue('bm25', 'hybrid'):.4f}")
    0.0529 0.0010
    """
    where = "tukey_hsd"
    x, labels = _score_matrix(scores, names)
    n, k = x.shape
    if k < 2:
        raise InputError(f"{where}: needs at least 2 systems (got {k})")
    if n < 1:
        raise InputError(f"{where}: needs at least 1 item")
    n_resamples, seed = check.resampling(n_resamples, seed, where)
    pvalues = _pair_pvalues(x, n_resamples, seed)
    means = x.sum(axis=0) / n
    pairs = tuple(
        (i, j, float(means[i] - means[j]), float(pvalues[i, j]))
        for i in range(k)
        for j in range(i + 1, k)
    )
    details = {"n_resamples": n_resamples, "seed": seed, "n_items": n}
    return TukeyHSDResult(
        names=tuple(labels),
        means=means,
        pvalues=pvalues,
        pairs=pairs,
        provenance=provenance(**details),
    )


def _score_matrix(
    scores: ArrayLike | Mapping[str, ArrayLike], names: Sequence[str] | None
) -> tuple[FloatArray, list[str]]:
    """The (n_items, k) score matrix and the k distinct system names."""
    where = "tukey_hsd"
    if isinstance(scores, Mapping):
        if names is not None:
            raise InputError(f"{where}: names are taken from the mapping's keys; do not pass names")
        labels = [str(key) for key in scores]
        columns = [check.vector(v, f"scores[{key!r}]", where) for key, v in scores.items()]
        if len({c.shape[0] for c in columns}) > 1:
            raise InputError(
                f"{where}: every system needs one score per item (lengths: "
                f"{', '.join(f'{k}={c.shape[0]}' for k, c in zip(labels, columns, strict=True))})"
            )
        x = np.column_stack(columns) if columns else np.zeros((0, 0))
    else:
        x = check.matrix(scores, "scores", where)
        labels = [str(i) for i in range(x.shape[1])] if names is None else [str(s) for s in names]
        if len(labels) != x.shape[1]:
            raise InputError(
                f"{where}: {len(labels)} names for {x.shape[1]} systems (columns of scores)"
            )
    if len(set(labels)) != len(labels):
        raise InputError(f"{where}: system names must be distinct (got {labels})")
    return x, labels


def _pair_pvalues(x: FloatArray, n_resamples: int, seed: int) -> FloatArray:
    """(k, k) p-values: the share of resampled ranges at least the observed difference of
    column sums (within rounding), 1 on the diagonal."""
    n = x.shape[0]
    sums = x.sum(axis=0)
    tol = rs.tolerance(n, np.abs(x).max(axis=1).sum())
    observed = np.abs(sums[:, None] - sums[None, :])
    # Counted block by block: nothing of size n_resamples is held.
    at_least = np.zeros(observed.shape, dtype=np.int64)
    for s in _permuted_column_sums(x, n_resamples, seed):
        ranges = np.sort(s.max(axis=1) - s.min(axis=1))
        at_least += ranges.shape[0] - np.searchsorted(ranges, observed - tol, side="left")
    pvalues = (at_least + 1.0) / (n_resamples + 1.0)
    np.fill_diagonal(pvalues, 1.0)
    return np.asarray(pvalues, dtype=np.float64)


def _permutation_digit_groups(k: int) -> list[list[int]]:
    """Fisher–Yates radices k, k-1, ..., 2 grouped so that each group's product fits one
    random int64 (one draw per item and group, decoded by successive divmod)."""
    groups: list[list[int]] = []
    current: list[int] = []
    product = 1
    for radix in range(k, 1, -1):
        if product * radix > (1 << 62):
            groups.append(current)
            current, product = [], 1
        current.append(radix)
        product *= radix
    if current:
        groups.append(current)
    return groups


def _permuted_column_sums(x: FloatArray, n_resamples: int, seed: int) -> Iterator[FloatArray]:
    """Blocks (rows, k) of column sums of ``x`` (n, k) after independently permuting every row,
    by a vectorised Fisher–Yates shuffle (position j swapped with a uniform position ≤ j)."""
    n, k = x.shape
    rng = np.random.default_rng(seed)
    groups = _permutation_digit_groups(k)
    step = rs.block_rows(n * k, _TUKEY_BLOCK_ELEMENTS)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        rn = rows * n
        y = np.broadcast_to(x.T[:, None, :], (k, rows, n)).reshape(-1).copy()
        base = np.arange(rn, dtype=np.int64)
        for group in groups:
            u = rng.integers(0, math.prod(group), size=rn, dtype=np.int64)
            for radix in group:
                j = radix - 1
                u, r = np.divmod(u, radix)
                src = r * rn + base
                own = y[j * rn : (j + 1) * rn].copy()
                y[j * rn : (j + 1) * rn] = y[src]
                y[src] = own
        yield y.reshape(k, rows, n).sum(axis=2).T
