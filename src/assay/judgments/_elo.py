"""Elo ratings from coded pairwise comparisons, processed in order (evalica's ``elo``)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._fit import PairwiseFit
from ._pairwise_base import MAX_FLOAT

__all__ = ["elo"]


def elo(
    left: ArrayLike,
    right: ArrayLike,
    winner: ArrayLike,
    n_items: int,
    *,
    weights: ArrayLike | None = None,
    initial: float = 1000.0,
    base: float = 10.0,
    scale: float = 400.0,
    k: float = 4.0,
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
) -> PairwiseFit:
    """Elo ratings, updated comparison by comparison **in the given order** (Elo 1978, *The
    Rating of Chessplayers, Past and Present*; evalica's ``elo`` and its defaults).

    Every rating starts at ``initial``. For a comparison of ``x`` and ``y``, with
    ``q = base ** (r / scale)``, the expected scores are ``e_x = q_x / (q_x + q_y)`` and
    ``e_y = q_y / (q_x + q_y)``; the actual scores are ``win_weight * weight`` for the
    winner and 0 for the loser, or ``tie_weight * weight`` each for a tie; then
    ``r_x += k * (s_x - e_x)`` and ``r_y += k * (s_y - e_y)``. The result depends on the
    order: shuffled input gives other ratings. An item without comparisons keeps
    ``initial`` (evalica returns an empty array when there are no comparisons at all). An
    overflowing power is the largest float and NaN is 0, as in evalica. The loop runs in
    plain Python over float lists (about a second per million comparisons); the values are
    evalica's bit for bit (the same IEEE operations in the same order).

    Parameters
    ----------
    left, right, winner : array_like of int
        Coded comparisons as for :func:`pair_counts`.
    n_items : int
        The number of items.
    weights : array_like of float, optional
        One weight per comparison (1 when omitted).
    initial, base, scale, k : float
        Starting rating, base and scale of the logistic curve, and the update factor.
    win_weight, tie_weight : float
        Actual score of a win and of a tie.

    Returns
    -------
    PairwiseFit
        Ratings of shape (n,).

    Examples
    --------
    >>> from assay.judgments._elo import elo
    >>> elo([0, 1], [1, 2], [0, 2], 3).scores.round(3).tolist()
    [1002.0, 998.012, 999.988]
    """
    xs = np.asarray(left, dtype=np.int64).tolist()
    ys = np.asarray(right, dtype=np.int64).tolist()
    ws = np.asarray(winner, dtype=np.int64).tolist()
    gs = [1.0] * len(xs) if weights is None else np.asarray(weights, dtype=np.float64).tolist()
    ratings = [float(initial)] * int(n_items)
    base, scale, k = float(base), float(scale), float(k)
    win_weight, tie_weight = float(win_weight), float(tie_weight)
    for x, y, w, g in zip(xs, ys, ws, gs, strict=True):
        q_x = _finite_power(base, ratings[x] / scale)
        q_y = _finite_power(base, ratings[y] / scale)
        q = _finite(q_x + q_y)
        e_x = _finite(q_x / q) if q != 0.0 else 0.0
        e_y = _finite(q_y / q) if q != 0.0 else 0.0
        if w == 0:
            s_x, s_y = g * win_weight, 0.0
        elif w == 1:
            s_x, s_y = 0.0, g * win_weight
        else:
            s_x = s_y = g * tie_weight
        ratings[x] += k * (s_x - e_x)
        ratings[y] += k * (s_y - e_y)
    scores = np.nan_to_num(np.asarray(ratings, dtype=np.float64), nan=0.0)
    return PairwiseFit(scores=scores)


def _finite(x: float) -> float:
    """evalica's ``one_nan_to_num(x, 0)``: NaN is 0, infinities the extreme floats."""
    if math.isnan(x):
        return 0.0
    if math.isinf(x):
        return MAX_FLOAT if x > 0 else -MAX_FLOAT
    return x


def _finite_power(base: float, exponent: float) -> float:
    try:
        return _finite(math.pow(base, exponent))
    except OverflowError:
        return MAX_FLOAT
    except ValueError:  # a negative base to a fractional power: NaN in evalica
        return 0.0
