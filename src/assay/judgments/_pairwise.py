"""Scoring kernels for pairwise comparisons: counts, the closed-form scores, the matrix
methods (eigenvector, PageRank) and the win-probability matrices. Elo
(:mod:`assay.judgments._elo`) and the likelihood kernels
(:mod:`assay.judgments._pairwise_iterative`) are re-exported here with ``KERNELS``.

Items are coded ``0..n-1``; a comparison is ``(left, right, winner)`` with winner code 0
(left wins), 1 (right wins) or 2 (tie). :func:`pair_counts` turns comparisons into two
``(n, n)`` matrices: ``wins[i, j]``, the (weighted) number of comparisons ``i`` won against
``j``, and ``ties[i, j] = ties[j, i]``, the ties between them. Every count kernel takes these
matrices, or a stack of them of shape ``(B, n, n)`` (bootstrap resamples: the work is
vectorised over the batch, and a stacked call equals ``B`` single calls bit for bit), and
returns a :class:`~assay.judgments._fit.PairwiseFit` whose scores have shape ``(n,)`` or
``(B, n)``.

Every kernel follows evalica 0.4.2 (D. Ustalov, *Reliable, Reproducible, and Really Fast
Leaderboards with Evalica*, COLING 2025 demo) by default: its defaults, its tie handling
and its treatment of NaN (replaced by the tolerance, or 0 where evalica uses 0) and of
infinities (replaced by the largest float). Deliberate differences are stated in each
kernel's docstring and in ``docs/conventions.md`` ("Pairwise comparisons").
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import InputError, OptionError
from ._elo import elo
from ._fit import PairwiseFit
from ._pairwise_base import combined, fit_of, in_chunks, stack, unstack
from ._pairwise_iterative import bradley_terry, newman

__all__ = [
    "KERNELS",
    "average_win_rate",
    "counting",
    "eigen",
    "elo",
    "empirical_win_rate",
    "pagerank",
    "pair_counts",
    "win_probability",
]

FloatArray = NDArray[np.float64]


def pair_counts(
    left: ArrayLike,
    right: ArrayLike,
    winner: ArrayLike,
    n_items: int,
    weights: ArrayLike | None = None,
) -> tuple[FloatArray, FloatArray]:
    """The win and tie matrices of coded comparisons.

    Parameters
    ----------
    left, right : array_like of int
        Item codes in ``0..n_items-1`` of each comparison's two sides.
    winner : array_like of int
        0 when ``left`` won, 1 when ``right`` won, 2 for a tie.
    n_items : int
        The number of items ``n``.
    weights : array_like of float, optional
        One weight per comparison (1 when omitted).

    Returns
    -------
    wins, ties : ndarray of float64, shape (n, n)
        ``wins[i, j]``: the summed weight of the comparisons ``i`` won against ``j``;
        ``ties[i, j] = ties[j, i]``: of the ties between ``i`` and ``j``. Each cell is summed
        in the comparisons' order (evalica's order, so weighted counts agree bit for bit).
        A comparison of an item with itself is the reader's error to report; here it is
        dropped, so the diagonals are zero.

    Raises
    ------
    InputError
        Arrays of different lengths, or a code out of range (naming the first position).

    Examples
    --------
    >>> from assay.judgments._pairwise import pair_counts
    >>> wins, ties = pair_counts([0, 0, 1], [1, 2, 2], [0, 2, 1], 3)
    >>> wins.tolist()
    [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    >>> ties.tolist()
    [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    """
    n = int(n_items)
    lft = np.asarray(left, dtype=np.int64)
    rgt = np.asarray(right, dtype=np.int64)
    won = np.asarray(winner, dtype=np.int64)
    wgt = (
        np.ones(lft.shape, dtype=np.float64)
        if weights is None
        else np.asarray(weights, dtype=np.float64)
    )
    if not (lft.shape == rgt.shape == won.shape == wgt.shape) or lft.ndim != 1:
        raise InputError(
            "left, right, winner and weights must be 1-D of one length, got shapes "
            f"{lft.shape}, {rgt.shape}, {won.shape}, {wgt.shape}"
        )
    for name, codes, limit in (("left", lft, n), ("right", rgt, n), ("winner", won, 3)):
        bad = np.flatnonzero((codes < 0) | (codes >= limit))
        if bad.size:
            raise InputError(
                f"{name}[{bad[0]}] = {codes[bad[0]]} is not a code in 0..{limit - 1} "
                f"({bad.size} such comparison(s))"
            )
    keep = lft != rgt
    if not keep.all():
        lft, rgt, won, wgt = lft[keep], rgt[keep], won[keep], wgt[keep]
    decided = won != 2
    cell = np.where(
        won[decided] == 0, lft[decided] * n + rgt[decided], rgt[decided] * n + lft[decided]
    )
    wins = np.bincount(cell, weights=wgt[decided], minlength=n * n).reshape(n, n)
    tied = ~decided
    # Both cells of a tie, interleaved, so each cell is summed in the comparisons' order.
    tie_cell = np.stack([lft[tied] * n + rgt[tied], rgt[tied] * n + lft[tied]], axis=1).ravel()
    ties = np.bincount(tie_cell, weights=np.repeat(wgt[tied], 2), minlength=n * n).reshape(n, n)
    return wins.astype(np.float64, copy=False), ties.astype(np.float64, copy=False)


def counting(
    wins: ArrayLike, ties: ArrayLike, *, win_weight: float = 1.0, tie_weight: float = 0.5
) -> PairwiseFit:
    """Counting: each item's weighted wins plus weighted ties.

    ``score_i = win_weight * sum_j wins[i, j] + tie_weight * sum_j ties[i, j]`` (evalica's
    ``counting``). An item without comparisons scores 0. evalica adds the comparisons one by
    one; the row sums here give the same value exactly for whole-number counts and to about
    1e-15 relative for fractional weights.

    Parameters
    ----------
    wins, ties : array_like, shape (n, n) or (B, n, n)
        Count matrices from :func:`pair_counts`.
    win_weight, tie_weight : float
        Credit for a win and for a tie (evalica's defaults: 1 and 0.5).

    Returns
    -------
    PairwiseFit
        ``scores`` of shape (n,) or (B, n); a closed form (0 iterations).

    Examples
    --------
    >>> from assay.judgments._pairwise import counting, pair_counts
    >>> wins, ties = pair_counts([0, 0, 1], [1, 2, 2], [0, 2, 1], 3)
    >>> counting(wins, ties).scores.tolist()
    [1.5, 0.0, 1.5]
    """
    w, t, single = stack(wins, ties)
    with np.errstate(all="ignore"):
        scores = np.nan_to_num(win_weight * w.sum(-1) + tie_weight * t.sum(-1), nan=0.0)
    return PairwiseFit(scores=unstack(scores, single))


def average_win_rate(
    wins: ArrayLike, ties: ArrayLike, *, win_weight: float = 1.0, tie_weight: float = 0.5
) -> PairwiseFit:
    """Average win rate: the mean over opponents of the share of credit won against each.

    With ``M = win_weight * wins + tie_weight * ties``, ``r[i, j] = M[i, j] / (M[i, j] +
    M[j, i])`` and ``score_i`` is the mean of ``r[i, j]`` over the opponents ``j`` that ``i``
    met (cells with a zero denominator are left out); an item that met nobody scores 0.
    This is evalica's ``average_win_rate``, and the mean is summed in its order (opponent
    by opponent), so the values agree bit for bit.

    Parameters
    ----------
    wins, ties : array_like, shape (n, n) or (B, n, n)
        Count matrices from :func:`pair_counts`.
    win_weight, tie_weight : float
        Credit for a win and for a tie (evalica's defaults: 1 and 0.5).

    Returns
    -------
    PairwiseFit
        ``scores`` in [0, 1] for non-negative weights, shape (n,) or (B, n).

    Examples
    --------
    >>> from assay.judgments._pairwise import average_win_rate, pair_counts
    >>> wins, ties = pair_counts([0, 0, 1], [1, 2, 2], [0, 2, 1], 3)
    >>> average_win_rate(wins, ties).scores.tolist()
    [0.75, 0.0, 0.75]
    """
    w, t, single = stack(wins, ties)
    m = combined(w, t, win_weight, tie_weight, 0.0)
    with np.errstate(all="ignore"):
        denominator = np.nan_to_num(m + np.swapaxes(m, -1, -2), nan=0.0)
        rate = m / denominator
    total = np.zeros(m.shape[:-1])
    count = np.zeros(m.shape[:-1])
    by_opponent = np.ascontiguousarray(np.swapaxes(rate, -1, -2))
    # One opponent at a time: evalica's nan_mean adds in this order.
    for j in range(m.shape[-1]):
        value = by_opponent[:, j, :]
        met = ~np.isnan(value)
        total += np.where(met, value, 0.0)
        count += met
    with np.errstate(all="ignore"):
        scores = np.nan_to_num(np.where(count > 0, total / count, 0.0), nan=0.0)
    return PairwiseFit(scores=unstack(scores, single))


def _power_iteration(
    matrix: FloatArray, start: FloatArray, tolerance: float, max_iter: int
) -> tuple[FloatArray, ...]:
    """:func:`_power_steps` on cache-sized slices of the batch."""

    def run(matrix: FloatArray, start: FloatArray) -> tuple[FloatArray, ...]:
        return _power_steps(matrix, start, tolerance, max_iter)

    return in_chunks(run, (matrix, start), "matrix")


def _power_steps(
    matrix: FloatArray, start: FloatArray, tolerance: float, max_iter: int
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """evalica's ``eigen`` loop on a batch: ``x <- A^T x / ||A^T x||`` (no division when the
    norm is 0; NaN replaced by the tolerance) until the step's Euclidean length is below the
    tolerance. Each batch member stops at its own iteration. Returns scores, iterations and
    last step lengths."""
    a_t = np.ascontiguousarray(np.swapaxes(matrix, -1, -2))
    batch = a_t.shape[0]
    scores = start.copy()
    active = np.ones(batch, dtype=bool)
    iterations = np.zeros(batch)
    change = np.zeros(batch)
    with np.errstate(all="ignore"):
        for _ in range(max_iter):
            if not active.any():
                break
            new = (a_t * scores[:, None, :]).sum(-1)
            norm = np.sqrt((new * new).sum(-1))
            new = np.where((norm != 0)[:, None], new / np.where(norm != 0, norm, 1.0)[:, None], new)
            new = np.nan_to_num(new, nan=tolerance)
            step = new - scores
            length = np.sqrt((step * step).sum(-1))
            scores = np.where(active[:, None], new, scores)
            iterations += active
            change = np.where(active, length, change)
            active &= ~(length < tolerance)
    return scores, iterations, change


def eigen(
    wins: ArrayLike,
    ties: ArrayLike,
    *,
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
    tolerance: float = 1e-6,
    max_iter: int = 100,
) -> PairwiseFit:
    """Eigenvector scores: power iteration on the win matrix (evalica's ``eigen``).

    ``M = win_weight * wins + tie_weight * ties`` (so ``M[i, j]`` is credit ``i`` earned
    against ``j``); starting from ``x = 1/n`` each step sets ``x <- M^T x / ||M^T x||_2``
    (unchanged when the norm is 0) until the step's Euclidean length is below
    ``tolerance`` or after ``max_iter`` steps. Note the direction: ``x_j`` grows with the
    credit *others* earned against ``j`` weighted by their scores, exactly as evalica
    builds it (Keener 1993, "The Perron–Frobenius theorem and the ranking of football
    teams", SIAM Review 35(1), uses the other direction). Items without comparisons score 0;
    on a reducible matrix (e.g. only wins) the iteration may not converge and returns the
    last iterate. Values agree with evalica's to about 1e-15 relative (its matrix-vector
    product adds in another order).

    Parameters
    ----------
    wins, ties : array_like, shape (n, n) or (B, n, n)
        Count matrices from :func:`pair_counts`.
    win_weight, tie_weight : float
        Credit for a win and for a tie (evalica's defaults: 1 and 0.5).
    tolerance : float
        Stop when the step's Euclidean length is below this (also evalica's NaN value).
    max_iter : int
        At most this many steps.

    Returns
    -------
    PairwiseFit
        Unit-length scores; ``iterations`` the most any batch member took, ``converged``
        whether all stopped by the tolerance, ``extra["iterations"]`` per member.

    Examples
    --------
    >>> from assay.judgments._pairwise import eigen, pair_counts
    >>> wins, ties = pair_counts([0, 1, 2], [1, 2, 0], [0, 0, 0], 3)
    >>> eigen(wins, ties).scores.round(4).tolist()
    [0.5774, 0.5774, 0.5774]
    """
    w, t, single = stack(wins, ties)
    m = combined(w, t, win_weight, tie_weight, tolerance)
    n = m.shape[-1]
    if n == 0:
        return fit_of(
            np.zeros(m.shape[:-1]), np.zeros(m.shape[0]), np.zeros(m.shape[0]), tolerance, single
        )
    start = np.full(m.shape[:-1], 1.0 / n)
    scores, iterations, change = _power_iteration(m, start, tolerance, max_iter)
    return fit_of(scores, iterations, change, tolerance, single)


def pagerank(
    wins: ArrayLike,
    ties: ArrayLike,
    *,
    damping: float = 0.85,
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
    tolerance: float = 1e-6,
    max_iter: int = 100,
) -> PairwiseFit:
    """PageRank on the comparison graph (evalica's ``pagerank``).

    With ``M = win_weight * wins + tie_weight * ties``, every item ``j`` links to the items
    that earned credit against it: row ``j`` of ``P = M^T`` divided by its sum (a row
    without links, a *dangling* item that never lost, links to every item uniformly, 1/n
    each, itself included). ``G = damping * P + (1 - damping) / n``; the scores are the
    power iteration of :func:`eigen` on ``G`` (start 1/n, L2-normalised steps, same stopping
    rule) divided by their sum. Brin & Page (1998), "The anatomy of a large-scale
    hypertextual Web search engine". Values agree with evalica's to about 1e-15 relative.

    Parameters
    ----------
    wins, ties : array_like, shape (n, n) or (B, n, n)
        Count matrices from :func:`pair_counts`.
    damping : float
        The probability of following a link (evalica's default 0.85).
    win_weight, tie_weight : float
        Credit for a win and for a tie (evalica's defaults: 1 and 0.5).
    tolerance : float
        Stop when the step's Euclidean length is below this.
    max_iter : int
        At most this many steps.

    Returns
    -------
    PairwiseFit
        Scores summing to 1.

    Examples
    --------
    >>> from assay.judgments._pairwise import pagerank, pair_counts
    >>> wins, ties = pair_counts([0, 1, 2], [1, 2, 0], [0, 0, 0], 3)
    >>> pagerank(wins, ties).scores.round(4).tolist()
    [0.3333, 0.3333, 0.3333]
    """
    w, t, single = stack(wins, ties)
    m = combined(w, t, win_weight, tie_weight, tolerance)
    n = m.shape[-1]
    if n == 0:
        return fit_of(
            np.zeros(m.shape[:-1]), np.zeros(m.shape[0]), np.zeros(m.shape[0]), tolerance, single
        )
    p = 1.0 / n
    links = np.swapaxes(m, -1, -2)
    total = links.sum(-1, keepdims=True)
    with np.errstate(all="ignore"):
        links = np.where(total == 0, p, links / np.where(total == 0, 1.0, total))
    google = damping * links + (1.0 - damping) * p
    start = np.full(m.shape[:-1], p)
    scores, iterations, change = _power_iteration(google, start, tolerance, max_iter)
    with np.errstate(all="ignore"):
        scores = scores / scores.sum(-1, keepdims=True)
    return fit_of(scores, iterations, change, tolerance, single)


def win_probability(
    scores: ArrayLike,
    method: str,
    *,
    tie: float | ArrayLike | None = None,
    base: float = 10.0,
    scale: float = 400.0,
) -> FloatArray:
    """The probability that item ``i`` beats item ``j`` under a fitted model.

    - ``"bradley_terry"``: ``s_i / (s_i + s_j)`` (0.5 on the diagonal), evalica's
      ``pairwise_scores``.
    - ``"davidson"``: ``s_i / (s_i + s_j + nu * sqrt(s_i s_j))`` with ``tie = nu`` (Davidson
      1970; the tie probability is ``1 - P[i, j] - P[j, i]``).
    - ``"newman"``: ``s_i / (s_i + s_j + 2 v sqrt(s_i s_j))`` with ``tie = v`` (Newman 2023
      writes Davidson's model with ``nu = 2 v``).
    - ``"elo"``: ``1 / (1 + base ** ((r_j - r_i) / scale))``.

    Degenerate scores (:func:`~assay.judgments._pairwise_iterative.bradley_terry`): an
    infinite score beats a finite one with probability 1 and a score of 0 loses to a
    positive one with probability 1; a pair of two 0 scores, of two infinite scores, or
    with a NaN score is NaN (undefined; evalica writes 0 for 0/0, but its scores are never 0
    or infinite). Counting, average win rate, eigenvector and PageRank scores define no
    probability: those names raise :class:`~assay.errors.OptionError` (use
    :func:`empirical_win_rate`).

    Parameters
    ----------
    scores : array_like, shape (n,) or (B, n)
        A kernel's scores.
    method : str
        The method that produced them.
    tie : float or array_like, optional
        The fitted tie parameter (``extra["nu"]`` or ``extra["v"]``), one per batch member.
    base, scale : float
        Elo's curve.

    Returns
    -------
    ndarray, shape (n, n) or (B, n, n)

    Examples
    --------
    >>> from assay.judgments._pairwise import win_probability
    >>> win_probability([1.0, 3.0], "bradley_terry").tolist()
    [[0.5, 0.25], [0.75, 0.5]]
    """
    s = np.asarray(scores, dtype=np.float64)
    s_i = s[..., :, None]
    s_j = s[..., None, :]
    with np.errstate(all="ignore"):
        if method == "bradley_terry":
            return _limits(s_i / (s_i + s_j), s_i, s_j)
        if method in ("davidson", "newman"):
            if tie is None:
                raise OptionError(
                    f"win_probability for {method!r} needs the fitted tie parameter", option="tie"
                )
            nu = np.asarray(tie, dtype=np.float64)
            if method == "newman":
                nu = 2.0 * nu
            nu = nu[..., None, None] if nu.ndim else nu
            return _limits(s_i / (s_i + s_j + nu * np.sqrt(s_i * s_j)), s_i, s_j)
        if method == "elo":
            return 1.0 / (1.0 + np.power(base, (s_j - s_i) / scale))
    raise OptionError(
        f"{method!r} scores define no win probability; expected one of "
        "'bradley_terry', 'davidson', 'newman', 'elo' (use empirical_win_rate for the observed rates)",
        option="method",
    )


def _limits(p: FloatArray, s_i: FloatArray, s_j: FloatArray) -> FloatArray:
    """An infinite strength against a finite one: the limits 1 and 0 (inf/inf is NaN)."""
    p = np.where(np.isinf(s_i) & np.isfinite(s_j), 1.0, p)
    return np.where(np.isfinite(s_i) & np.isinf(s_j), 0.0, p)


def empirical_win_rate(wins: ArrayLike, ties: ArrayLike, *, tie_weight: float = 0.5) -> FloatArray:
    """The observed rate at which ``i`` beat ``j``: ``(wins[i, j] + tie_weight * ties[i, j])
    / (wins[i, j] + wins[j, i] + ties[i, j])``, NaN where the pair never met (and on the
    diagonal).

    Parameters
    ----------
    wins, ties : array_like, shape (n, n) or (B, n, n)
        Count matrices from :func:`pair_counts`.
    tie_weight : float
        The share of a tie credited to each side.

    Returns
    -------
    ndarray, same shape as ``wins``

    Examples
    --------
    >>> from assay.judgments._pairwise import empirical_win_rate, pair_counts
    >>> wins, ties = pair_counts([0, 0, 1], [1, 1, 2], [0, 2, 0], 3)
    >>> empirical_win_rate(wins, ties)[0].tolist()
    [nan, 0.75, nan]
    """
    w = np.asarray(wins, dtype=np.float64)
    t = np.asarray(ties, dtype=np.float64)
    met = w + np.swapaxes(w, -1, -2) + t
    with np.errstate(all="ignore"):
        return np.where(met > 0, (w + tie_weight * t) / met, np.nan)


Kernel = Callable[..., PairwiseFit]

KERNELS: dict[str, Kernel] = {
    "counting": counting,
    "average_win_rate": average_win_rate,
    "bradley_terry": bradley_terry,
    "newman": newman,
    "eigen": eigen,
    "pagerank": pagerank,
}
"""The count-based kernels by method name (Elo works on the comparisons themselves)."""
