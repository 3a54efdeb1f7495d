"""The iterative likelihood kernels for pairwise comparisons: Bradley–Terry (ties as half
wins, or Davidson's tie model) and Newman's method. Shapes and batching as in
:mod:`assay.judgments._pairwise`: ``(n, n)`` or stacked ``(B, n, n)`` count matrices, every
batch member iterating until its own convergence, so a stacked call equals single calls bit
for bit.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import OptionError
from ._fit import PairwiseFit
from ._pairwise_base import combined, fit_of, in_chunks, stack

__all__ = ["bradley_terry", "newman"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


def bradley_terry(
    wins: ArrayLike,
    ties: ArrayLike,
    *,
    tie_model: Literal["half", "davidson"] = "half",
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
    tolerance: float = 1e-6,
    max_iter: int = 100,
) -> PairwiseFit:
    """Bradley–Terry strengths: ``P(i beats j) = s_i / (s_i + s_j)`` (Bradley & Terry 1952,
    "Rank analysis of incomplete block designs", Biometrika 39), fitted by maximum likelihood.

    **tie_model="half"** (default; evalica's ``bradley_terry``): a tie counts as
    ``tie_weight`` (0.5) of a win for each side, ``M = win_weight * wins + tie_weight *
    ties``. The fit is Zermelo's (1929) iteration, the MM algorithm of Hunter (2004, "MM
    algorithms for generalized Bradley–Terry models", Ann. Statist. 32), in evalica's cyclic
    form: starting from ``s = 1``, each sweep updates the items in order ``i = 0..n-1``,
    each from the current values of all the others (the ones already updated in this sweep
    included)::

        s_i <- sum_j M[i, j] s_j / (s_i + s_j)  /  sum_j M[j, i] / (s_i + s_j)

    then divides all by their geometric mean, replaces NaN by ``tolerance`` and +inf by the
    largest float, and stops when the sweep's change has Euclidean length below
    ``tolerance`` or after ``max_iter`` sweeps. The values are evalica's to about 1e-12
    relative (the sums over ``j`` add in another order).

    Degenerate items (where the maximum-likelihood estimate does not exist) are removed
    first, repeatedly, before the iteration: an item with wins but no losses (ties count as
    both) gets +inf, one with losses but no wins gets 0 (an item that only beat 0-score
    items is then itself one, and so on down the chain), and the rest are fitted without
    their comparisons (a loss to an infinitely strong item has probability 1 and says
    nothing). An item left without comparisons (none at all, or only with removed items)
    gets NaN: its strength is not identified. The geometric mean is over the fitted items.
    *Deliberate difference:* evalica fits everything together and takes the geometric mean
    over all items, so one item with a zero score collapses every score to ``tolerance``;
    on input without degenerate items nothing is removed and the iteration is evalica's.
    Scores of items in different connected components of the comparison graph are not
    comparable (each component's scale is arbitrary).

    **tie_model="davidson"**: Davidson's (1970, "On extending the Bradley–Terry model to
    accommodate ties in paired comparison experiments", JASA 65) model

    ``P(i beats j) = s_i / D_ij``, ``P(tie) = nu sqrt(s_i s_j) / D_ij``, ``D_ij = s_i + s_j
    + nu sqrt(s_i s_j)``,

    with the tie parameter ``nu`` estimated jointly by maximum likelihood. The likelihood
    equations are solved by Newman's (2023) iteration for this model (``nu = 2 v``; it
    converges much faster than Davidson's own fixed point), item by item in the order
    ``i = 0..n-1`` as for "half" (updating all at once can oscillate), then ``v``; with
    ``A = wins + ties / 2``::

        s_i <- sum_j A[i, j] (s_j + v sqrt(s_i s_j)) / D_ij
               / sum_j A[j, i] (1 + v sqrt(s_j / s_i)) / D_ij
        v   <- (sum_ij ties[i, j] (s_i + s_j) / D_ij / 2) / (2 sum_ij wins[i, j] sqrt(s_i s_j) / D_ij)

    starting from ``s = 1`` and ``nu = 2 p / (1 - p)`` (``p`` the share of ties: the
    estimate when all strengths are equal), the scores divided by their geometric mean
    after each step, until the Euclidean length of the scores' change and the change of
    ``nu`` are both below ``tolerance``. ``win_weight`` and ``tie_weight`` do not apply.
    Degenerate items as for "half" (removed first, repeatedly: +inf, 0, or NaN when left
    without comparisons). With ties only, ``nu`` has no finite estimate: it is
    reported as +inf and the strengths are equal.

    Parameters
    ----------
    wins, ties : array_like, shape (n, n) or (B, n, n)
        Count matrices from :func:`~assay.judgments._pairwise.pair_counts`.
    tie_model : {"half", "davidson"}
        How ties enter the model.
    win_weight, tie_weight : float
        Credit for a win and for a tie ("half" only; evalica's 1 and 0.5).
    tolerance : float
        Convergence threshold (and, as in evalica, the value that replaces NaN).
    max_iter : int
        At most this many sweeps.

    Returns
    -------
    PairwiseFit
        Strengths with geometric mean 1 over the regular items; ``extra["nu"]`` for
        Davidson's model; ``extra["iterations"]`` per batch member.

    Examples
    --------
    >>> from assay.judgments._pairwise_iterative import bradley_terry
    >>> from assay.judgments._pairwise import pair_counts
    >>> wins, ties = pair_counts([0, 0, 1, 0, 1], [1, 1, 0, 2, 2], [0, 0, 0, 0, 0], 3)
    >>> fit = bradley_terry(wins, ties)  # 0 beat 1 twice, 1 beat 0 once; 2 only lost
    >>> fit.scores.round(3).tolist(), fit.converged
    ([1.414, 0.707, 0.0], True)
    """
    if tie_model not in ("half", "davidson"):
        raise OptionError(
            f"tie_model must be 'half' or 'davidson', got {tie_model!r}", option="tie_model"
        )
    w, t, single = stack(wins, ties)
    if tie_model == "davidson":
        return _davidson(w, t, tolerance, max_iter, single)
    m = combined(w, t, win_weight, tie_weight, tolerance)
    # On regular input nothing is peeled and m is unchanged: evalica's iteration exactly.
    m, _, top, bottom, unmet = _peeled(m, np.zeros_like(m))
    regular = ~(top | bottom | unmet)

    def run(m: FloatArray, regular: BoolArray) -> tuple[FloatArray, ...]:
        return _zermelo(m, regular, tolerance, max_iter)

    scores, iterations, change = in_chunks(run, (m, regular), "sweep")
    scores = np.where(top, np.inf, np.where(bottom, 0.0, np.where(unmet, np.nan, scores)))
    return fit_of(scores, iterations, change, tolerance, single)


def _zermelo(
    m: FloatArray, regular: BoolArray, tolerance: float, max_iter: int
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """evalica's cyclic Zermelo sweeps on a batch (see :func:`bradley_terry`); every member
    stops at its own convergence. Returns scores, iterations and last step lengths."""
    m_t = np.ascontiguousarray(np.swapaxes(m, -1, -2))
    batch, n = m.shape[0], m.shape[-1]
    # The removed and unmet items are held at 1 while the others are fitted (the update
    # would be x/0 or 0/0; with no comparisons left, their value does not enter the others'
    # updates), then reported as +inf, 0 or NaN.
    pinned = ~regular
    scores = np.ones((batch, n))
    active = np.ones(batch, dtype=bool)
    iterations = np.zeros(batch)
    change = np.zeros(batch)
    with np.errstate(all="ignore"):
        for _ in range(max_iter if n else 0):
            if not active.any():
                break
            new = scores.copy()
            for i in range(n):
                sums = new[:, i : i + 1] + new
                numerator = (m[:, i, :] * new / sums).sum(-1)
                denominator = (m_t[:, i, :] / sums).sum(-1)
                new[:, i] = np.where(pinned[:, i], 1.0, numerator / denominator)
            new = _normalised(new, regular, tolerance)
            step = new - scores
            length = np.sqrt((step * step).sum(-1))
            scores = np.where(active[:, None], new, scores)
            iterations += active
            change = np.where(active, length, change)
            active &= ~(length < tolerance)
    return scores, iterations, change


def _normalised(scores: FloatArray, regular: BoolArray, tolerance: float) -> FloatArray:
    """Divide the regular items' scores by their geometric mean (over the positive finite
    ones), then evalica's NaN -> tolerance, +inf -> largest float."""
    usable = regular & (scores > 0) & np.isfinite(scores)
    count = usable.sum(-1)
    log_sum = np.where(usable, np.log(np.where(usable, scores, 1.0)), 0.0).sum(-1)
    mean = np.where(count > 0, np.exp(log_sum / np.where(count > 0, count, 1)), 1.0)
    divided = np.where(regular, scores / mean[:, None], scores)
    return np.nan_to_num(divided, nan=tolerance)


def _peeled(
    w: FloatArray, t: FloatArray
) -> tuple[FloatArray, FloatArray, BoolArray, BoolArray, BoolArray]:
    """Remove, repeatedly, the items whose estimate is at the boundary: those with wins but
    no losses or ties (+inf) and those with losses but no wins or ties (0). Their
    comparisons carry no information about the others in the limit (a loss to an infinitely
    strong item has probability 1), so the rest is fitted without them."""
    n = w.shape[-1]
    top = np.zeros(w.shape[:-1], dtype=bool)
    bottom = np.zeros(w.shape[:-1], dtype=bool)
    wk, tk = w, t
    for _ in range(n):
        won = (wk + tk).sum(-1) > 0
        lost = (np.swapaxes(wk, -1, -2) + tk).sum(-1) > 0
        keep = ~(top | bottom)
        new_top = keep & won & ~lost
        new_bottom = keep & lost & ~won
        if not (new_top.any() or new_bottom.any()):
            break
        top |= new_top
        bottom |= new_bottom
        keep = ~(top | bottom)
        pair = keep[:, :, None] & keep[:, None, :]
        wk = np.where(pair, w, 0.0)
        tk = np.where(pair, t, 0.0)
    unmet = ~(top | bottom) & ((wk + np.swapaxes(wk, -1, -2) + tk).sum(-1) == 0)
    return wk, tk, top, bottom, unmet


def _davidson(
    w: FloatArray, t: FloatArray, tolerance: float, max_iter: int, single: bool
) -> PairwiseFit:
    """Davidson's model on a batch (see :func:`bradley_terry`)."""
    batch = w.shape[0]
    w, t, top, bottom, unmet = _peeled(w, t)
    regular = ~(top | bottom | unmet)
    total_ties = t.reshape(batch, -1).sum(-1) / 2.0
    total = (w.reshape(batch, -1).sum(-1)) + total_ties
    with np.errstate(all="ignore"):
        share = np.where(total > 0, total_ties / np.where(total > 0, total, 1.0), 0.0)
        v = np.where(share < 1, share / (1.0 - share), 1.0)

    def run(
        w: FloatArray, t: FloatArray, regular: BoolArray, v: FloatArray
    ) -> tuple[FloatArray, ...]:
        return _davidson_sweeps(w, t, regular, v, tolerance, max_iter)

    scores, iterations, change, v = in_chunks(run, (w, t, regular, v), "sweep")
    scores = np.where(top, np.inf, np.where(bottom, 0.0, np.where(unmet, np.nan, scores)))
    nu = np.where((total > 0) & (total_ties == total), np.inf, 2.0 * v)
    return fit_of(scores, iterations, change, tolerance, single, nu=nu)


def _davidson_sweeps(
    w: FloatArray, t: FloatArray, regular: BoolArray, v: FloatArray, tolerance: float, max_iter: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Newman's update for Davidson's model, item by item, on a batch (see
    :func:`bradley_terry`). Returns scores, iterations, last step lengths and ``v``."""
    batch, n = w.shape[0], w.shape[-1]
    a = w + 0.5 * t
    a_t = np.ascontiguousarray(np.swapaxes(a, -1, -2))
    scores = np.ones((batch, n))
    active = np.ones(batch, dtype=bool)
    iterations = np.zeros(batch)
    change = np.zeros(batch)
    with np.errstate(all="ignore"):
        for _ in range(max_iter if n else 0):
            if not active.any():
                break
            vv = v[:, None]
            new = scores.copy()
            # Item by item, each from the current values (as evalica's Bradley–Terry): the
            # simultaneous update can oscillate (two items: s_1 <- 2 s_2, s_2 <- s_1 / 2).
            for i in range(n):
                s_i = new[:, i : i + 1]
                root = np.sqrt(s_i * new)
                common = s_i + new + 2.0 * vv * root
                numerator = (a[:, i, :] * (new + vv * root) / common).sum(-1)
                denominator = (a_t[:, i, :] * (1.0 + vv * np.sqrt(new / s_i)) / common).sum(-1)
                new[:, i] = np.where(regular[:, i], numerator / denominator, 1.0)
            new = _normalised(new, regular, tolerance)
            col = new[:, None, :]
            row = new[:, :, None]
            root = np.sqrt(col * row)
            common = col + row + 2.0 * v[:, None, None] * root
            v_numerator = (t * (col + row) / common).reshape(batch, -1).sum(-1) / 2.0
            v_denominator = (w * root / common).reshape(batch, -1).sum(-1) * 2.0
            # Without wins the tie parameter has no finite estimate: it is held (and
            # reported as inf below) while the strengths settle.
            v_next = np.where(
                v_denominator > 0, v_numerator / np.where(v_denominator > 0, v_denominator, 1.0), v
            )
            v_next = np.nan_to_num(v_next, nan=tolerance)
            step = new - scores
            length = np.maximum(np.sqrt((step * step).sum(-1)), np.abs(2.0 * (v_next - v)))
            scores = np.where(active[:, None], new, scores)
            v = np.where(active, v_next, v)
            iterations += active
            change = np.where(active, length, change)
            active &= ~(length < tolerance)
    return scores, iterations, change, v


def newman(
    wins: ArrayLike,
    ties: ArrayLike,
    *,
    v_init: float = 0.5,
    win_weight: float = 1.0,
    tie_weight: float = 1.0,
    tolerance: float = 1e-6,
    max_iter: int = 100,
) -> PairwiseFit:
    """Newman's method: Bradley–Terry with ties by the iteration of Newman (2023,
    "Efficient computation of rankings from pairwise comparisons", JMLR 24(238), eqs. for
    ties), as evalica's ``newman``.

    The model is Davidson's with ``nu = 2 v``: ``P(i beats j) = s_i / D_ij``, ``P(tie) =
    2 v sqrt(s_i s_j) / D_ij``, ``D_ij = s_i + s_j + 2 v sqrt(s_i s_j)``. With ``W =
    win_weight * wins``, ``T = tie_weight * ties`` (evalica's defaults 1 and 1) and ``A = W
    + T/2``, starting from ``s = 1`` and ``v = v_init``, each step updates all items at
    once::

        s_i <- sum_j A[i, j] (s_j + v sqrt(s_i s_j)) / D_ij
               / sum_j A[j, i] (1 + v sqrt(s_j / s_i)) / D_ij
        v   <- (sum_ij T[i, j] (s_i + s_j) / D_ij / 2) / (2 sum_ij W[i, j] sqrt(s_i s_j) / D_ij)

    (NaN replaced by ``tolerance``, +inf by the largest float), without renormalising,
    until the scores' change has Euclidean length below ``tolerance`` or after ``max_iter``
    steps. ``extra["v"]`` is the ``v`` used in the last step (evalica's convention). The
    values are evalica's to about 1e-12 relative (sums in another order). An item without
    comparisons gets NaN (evalica: ``tolerance``); other degenerate items (only wins, only
    losses) are evalica's values, which drift without converging.

    Parameters
    ----------
    wins, ties : array_like, shape (n, n) or (B, n, n)
        Count matrices from :func:`~assay.judgments._pairwise.pair_counts`.
    v_init : float
        Starting tie parameter.
    win_weight, tie_weight : float
        Multipliers of the win and tie counts.
    tolerance : float
        Convergence threshold (and the value that replaces NaN).
    max_iter : int
        At most this many steps.

    Returns
    -------
    PairwiseFit
        Strengths (no normalisation); ``extra["v"]`` and ``extra["iterations"]``.

    Examples
    --------
    >>> from assay.judgments._pairwise_iterative import newman
    >>> from assay.judgments._pairwise import pair_counts
    >>> wins, ties = pair_counts([0, 1, 2, 0], [1, 2, 0, 2], [0, 0, 0, 2], 3)
    >>> fit = newman(wins, ties)
    >>> fit.converged
    True
    """
    w, t, single = stack(wins, ties)
    with np.errstate(all="ignore"):
        w = np.nan_to_num(w, nan=tolerance) * win_weight
        t = np.nan_to_num(t, nan=tolerance) * tie_weight
    a = combined(w, t, 1.0, 0.5, tolerance)
    unmet = (a.sum(-1) == 0) & (a.sum(-2) == 0)

    def run(w: FloatArray, t: FloatArray, a: FloatArray) -> tuple[FloatArray, ...]:
        return _newman_steps(w, t, a, v_init, tolerance, max_iter)

    scores, iterations, change, v = in_chunks(run, (w, t, a), "matrix")
    scores = np.where(unmet, np.nan, scores)
    return fit_of(scores, iterations, change, tolerance, single, v=v)


def _newman_steps(
    w: FloatArray, t: FloatArray, a: FloatArray, v_init: float, tolerance: float, max_iter: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """evalica's Newman iteration on a batch (see :func:`newman`). Returns scores,
    iterations, last step lengths and the ``v`` of the last step."""
    batch, n = a.shape[0], a.shape[-1]
    a_t = np.ascontiguousarray(np.swapaxes(a, -1, -2))
    scores = np.ones((batch, n))
    v = np.full(batch, float(v_init))
    v_new = v.copy()
    active = np.ones(batch, dtype=bool)
    iterations = np.zeros(batch)
    change = np.zeros(batch)
    with np.errstate(all="ignore"):
        for _ in range(max_iter if n else 0):
            if not active.any():
                break
            v_step = np.nan_to_num(v_new, nan=tolerance)
            col = scores[:, None, :]  # s_j at [i, j]
            row = scores[:, :, None]  # s_i at [i, j]
            vv = v_step[:, None, None]
            sqrt_outer = np.sqrt(col * row)
            sum_scores = col + row
            sqrt_div_t = np.sqrt(col / row)
            common = sum_scores + 2.0 * vv * sqrt_outer
            numerator = (a * (col + vv * sqrt_outer) / common).sum(-1)
            denominator = (a_t * (1.0 + vv * sqrt_div_t) / common).sum(-1)
            new = np.nan_to_num(numerator / denominator, nan=tolerance)
            v_numerator = (t * sum_scores / common).reshape(batch, -1).sum(-1) / 2.0
            v_denominator = (w * sqrt_outer / common).reshape(batch, -1).sum(-1) * 2.0
            v_next = v_numerator / v_denominator
            step = new - scores
            length = np.sqrt((step * step).sum(-1))
            scores = np.where(active[:, None], new, scores)
            v = np.where(active, v_step, v)
            v_new = np.where(active, v_next, v_new)
            iterations += active
            change = np.where(active, length, change)
            active &= ~(length < tolerance)
    return scores, iterations, change, v
