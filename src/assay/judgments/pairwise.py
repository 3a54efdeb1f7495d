"""Scores of items from pairwise comparisons, one public function per method, each declared
in the metric registry (``assay metrics``, ``docs/metrics.md``): :func:`counting`,
:func:`average_win_rate`, :func:`bradley_terry`, :func:`newman`, :func:`elo`,
:func:`eigen` and :func:`pagerank`. Each takes :class:`~assay.judgments.Comparisons` (or
anything :func:`~assay.judgments.read_comparisons` reads) and returns :class:`ItemScores`.

Every method follows evalica 0.4.2 by default (its defaults and tie handling; the kernels in
:mod:`assay.judgments._pairwise` state every deliberate difference). The leaderboard with
bootstrap intervals over any of them is :func:`assay.judgments.leaderboard`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

import numpy as np
from numpy.typing import NDArray

from .. import _options as opt
from .._result import Result, provenance
from ..errors import MetricError
from ..metrics.registry import (
    FROM_SIGNATURE,
    Param,
    Peer,
    closed_unit,
    measure,
    one_of,
    positive_float,
)
from ..metrics.registry import real_number as _real
from ._fit import PairwiseFit
from .comparisons import Comparisons, as_comparisons
from .options import PairwiseMethod, TieModel

__all__ = [
    "LOWER_IS_BETTER",
    "METHODS",
    "ItemScores",
    "average_win_rate",
    "bradley_terry",
    "counting",
    "eigen",
    "elo",
    "newman",
    "pagerank",
]

FAMILY = "judgments"
INPUT = "pairwise comparisons"
FloatArray = NDArray[np.float64]

#: The methods, in the order the docs and ``assay leaderboard --method`` list them.
METHODS: tuple[PairwiseMethod, ...] = get_args(PairwiseMethod)

#: Methods whose better items get lower scores: evalica's eigenvector scores grow with the
#: credit *others* earned against an item (see :func:`eigen`).
LOWER_IS_BETTER = ("eigen",)

_method = functools.partial(measure, family=FAMILY, input=INPUT)


def _nonneg(what: str) -> Any:  # Any: a validator, as the registry's own
    """A finite real number ≥ 0."""
    return functools.partial(opt.number, name=what, low=0, error=MetricError)


WIN_WEIGHT = Param("win_weight", FROM_SIGNATURE, _nonneg("win_weight"), "credit for a win")
TIE_WEIGHT = Param(
    "tie_weight", FROM_SIGNATURE, _nonneg("tie_weight"), "credit for a tie (each side)"
)
TOLERANCE = Param("tolerance", FROM_SIGNATURE, positive_float("tolerance"), "convergence threshold")
#: The most iterations an iterative method may be asked for (each is a pass over the counts).
ITERATION_CAP = 1_000_000
MAX_ITER = Param(
    "max_iter",
    FROM_SIGNATURE,
    functools.partial(
        opt.integer, name="max_iter", minimum=1, maximum=ITERATION_CAP, error=MetricError
    ),
    f"at most this many iterations (1 to {ITERATION_CAP:,})",
)


@dataclass(frozen=True, eq=False, repr=False)
class ItemScores(Result):
    """One score per item from pairwise comparisons.

    ``items``: the item names (the comparisons' order of first appearance); ``scores``: one
    float per item (higher is better; Bradley–Terry gives +inf to an item that only won,
    NaN to one without comparisons); ``method`` and ``options``: how they were computed;
    ``tie``: the fitted tie parameter where the method has one (Davidson's ν, Newman's v),
    else None; ``provenance``: the method, its options, the fit's iterations and
    convergence, and the source. ``records()``: one row per item.

    Parameters
    ----------
    items : tuple of str
        The items.
    scores : numpy.ndarray
        One score per item.
    method : str
        The method's name.
    options : mapping
        The method's options, as used.
    tie : float, optional
        The fitted tie parameter.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.judgments import Comparisons, counting
    >>> c = Comparisons.read({"left": ["a", "a"], "right": ["b", "c"], "winner": ["left", "tie"]})
    >>> res = counting(c)
    >>> res.records()[0]
    {'item': 'a', 'score': 1.5}
    >>> res["c"]
    0.5
    """

    items: tuple[str, ...]
    scores: FloatArray
    method: str
    options: Mapping[str, Any] = field(default_factory=dict)  # Any: each option's own type
    tie: float | None = None
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __getitem__(self, item: str) -> float:
        return float(self.scores[self.items.index(item)])

    def records(self) -> list[dict[str, Any]]:
        return [
            {"item": i, "score": float(s)} for i, s in zip(self.items, self.scores, strict=True)
        ]


def fit_method(comparisons: Comparisons, method: str, options: Mapping[str, Any]) -> PairwiseFit:
    """The kernel of ``method`` on ``comparisons`` (options validated, in kernel names)."""
    from ._pairwise import KERNELS, elo, pair_counts

    c = comparisons
    kernel_options = dict(options)
    if method == "bradley_terry":
        kernel_options["tie_model"] = kernel_options.pop("ties")
    if method == "elo":
        return elo(c.left, c.right, c.winner, c.n_items, weights=c.weights, **kernel_options)
    wins, ties = pair_counts(c.left, c.right, c.winner, c.n_items, c.weights)
    return KERNELS[method](wins, ties, **kernel_options)


def tie_parameter(fit: PairwiseFit, method: str, options: Mapping[str, Any]) -> float | None:
    """The fitted tie parameter of ``fit`` (Davidson's ν, Newman's v), else None."""
    key = "v" if method == "newman" else "nu" if options.get("ties") == "davidson" else None
    value = None if key is None else fit.extra.get(key)
    return None if value is None else float(np.asarray(value).reshape(-1)[0])


def _scores(
    comparisons: Any, method: str, **options: Any
) -> ItemScores:  # Any: as read_comparisons
    c = as_comparisons(comparisons)
    fit = fit_method(c, method, options)
    return ItemScores(
        items=c.items,
        scores=np.asarray(fit.scores, dtype=np.float64),
        method=method,
        options=options,
        tie=tie_parameter(fit, method, options),
        provenance=provenance(
            method=method,
            options=dict(options),
            iterations=int(fit.iterations),
            converged=bool(fit.converged),
            change=float(fit.change),
            source=c.source,
        ),
    )


@_method(
    params=(WIN_WEIGHT, TIE_WEIGHT),
    bounds=(0.0, None),
    peers=(Peer("evalica", "evalica.counting"),),
)
def counting(
    comparisons: Any,  # Any: as read_comparisons
    *,
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
) -> ItemScores:
    """Counting: each item's credited wins, ``score_i = win_weight · Σ_j W[i, j] + tie_weight ·
    Σ_j T[i, j]`` (``W[i, j]``: comparisons ``i`` won against ``j``, ``T``: ties; weighted
    when the comparisons have weights). Fair only when every item meets the same opponents
    equally often. Evalica's ``counting`` (Ustalov 2025, COLING demo).

    Reference: Ustalov (2025), "Reliable, reproducible, and really fast leaderboards with
    Evalica", COLING (demonstrations).

    Parameters
    ----------
    comparisons : Comparisons, path, DataFrame, Table or mapping
        The comparisons (anything :func:`~assay.judgments.read_comparisons` reads).
    win_weight, tie_weight : float
        Credit for a win and for a tie (≥ 0; evalica's 1 and 0.5).

    Returns
    -------
    ItemScores
        One score per item, ≥ 0.

    Examples
    --------
    >>> from assay.judgments import counting
    >>> counting({"left": ["a", "b"], "right": ["b", "c"], "winner": ["left", "tie"]}).scores.tolist()
    [1.0, 0.5, 0.5]
    """
    return _scores(comparisons, "counting", win_weight=win_weight, tie_weight=tie_weight)


@_method(
    params=(WIN_WEIGHT, TIE_WEIGHT),
    bounds=(0.0, 1.0),
    peers=(Peer("evalica", "evalica.average_win_rate"),),
)
def average_win_rate(
    comparisons: Any,  # Any: as read_comparisons
    *,
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
) -> ItemScores:
    """Average win rate: the mean, over the opponents an item met, of its share of the credit
    against each: with ``M = win_weight · W + tie_weight · T``, ``score_i = mean_j M[i, j] /
    (M[i, j] + M[j, i])`` (0 for an item that met nobody). Less sensitive than counting to
    how often each pair met, but still to which opponents. Evalica's ``average_win_rate``.

    Reference: Ustalov (2025), "Reliable, reproducible, and really fast leaderboards with
    Evalica", COLING (demonstrations).

    Parameters
    ----------
    comparisons : Comparisons, path, DataFrame, Table or mapping
        The comparisons.
    win_weight, tie_weight : float
        Credit for a win and for a tie (≥ 0; evalica's 1 and 0.5).

    Returns
    -------
    ItemScores
        One score per item, in [0, 1].

    Examples
    --------
    >>> from assay.judgments import average_win_rate
    >>> average_win_rate({"left": ["a", "b"], "right": ["b", "c"], "winner": ["left", "tie"]}).scores.tolist()
    [1.0, 0.25, 0.5]
    """
    return _scores(comparisons, "average_win_rate", win_weight=win_weight, tie_weight=tie_weight)


@_method(
    params=(
        Param(
            "ties",
            FROM_SIGNATURE,
            one_of("ties", TieModel),
            "ties as half a win each (half) or Davidson's model",
        ),
        WIN_WEIGHT,
        TIE_WEIGHT,
        TOLERANCE,
        MAX_ITER,
    ),
    bounds=(0.0, None),
    peers=(
        Peer("evalica", "evalica.bradley_terry", "Only ties='half'; no Davidson model."),
        Peer(
            "choix",
            "choix.ilsr_pairwise_dense",
            "Centred log-strengths of the wins (ties as half wins): exp and normalise to compare.",
        ),
    ),
)
def bradley_terry(
    comparisons: Any,  # Any: as read_comparisons
    *,
    ties: TieModel = "half",
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
    tolerance: float = 1e-6,
    max_iter: int = 100,
) -> ItemScores:
    """Bradley–Terry strengths, ``P(i beats j) = s_i / (s_i + s_j)``, by maximum likelihood
    (Bradley & Terry 1952, Biometrika 39; the MM iteration of Zermelo 1929 and Hunter 2004,
    Ann. Statist. 32, as evalica runs it), scaled to geometric mean 1.

    ``ties="half"`` (evalica's): a tie is ``tie_weight`` of a win for each side.
    ``ties="davidson"``: Davidson's (1970, JASA 65) model, ``P(tie) = ν √(s_i s_j) /
    (s_i + s_j + ν √(s_i s_j))``, with ν estimated (:attr:`ItemScores.tie`; the weights do
    not apply). The estimate does not exist for an item that only won (+inf) or only lost
    (0: the limit), nor between groups of items one of which always beat the other; an item
    without comparisons scores NaN. Suits unbalanced designs: each item's strength is
    estimated from whichever opponents it met.

    Reference: Bradley & Terry (1952), "Rank analysis of incomplete block designs", Biometrika
    39; Hunter (2004), "MM algorithms for generalized Bradley-Terry models", Annals of
    Statistics 32(1).

    Parameters
    ----------
    comparisons : Comparisons, path, DataFrame, Table or mapping
        The comparisons.
    ties : {"half", "davidson"}
        How ties enter the model.
    win_weight, tie_weight : float
        Credit for a win and for a tie (``"half"`` only; evalica's 1 and 0.5).
    tolerance : float
        Stop when the iteration's step is shorter than this (Euclidean length).
    max_iter : int
        At most this many iterations.

    Returns
    -------
    ItemScores
        Strengths ≥ 0 (+inf for an item that only won).

    Examples
    --------
    >>> from assay.judgments import bradley_terry
    >>> res = bradley_terry({"left": ["a", "b", "c", "a"], "right": ["b", "c", "a", "b"],
    ...                      "winner": ["left", "left", "left", "left"]})
    >>> [round(x, 3) for x in res.scores.tolist()]
    [1.521, 0.657, 1.0]
    """
    return _scores(
        comparisons,
        "bradley_terry",
        ties=ties,
        win_weight=win_weight,
        tie_weight=tie_weight,
        tolerance=tolerance,
        max_iter=max_iter,
    )


@_method(
    params=(
        Param("v_init", FROM_SIGNATURE, positive_float("v_init"), "starting tie parameter v"),
        WIN_WEIGHT,
        Param("tie_weight", FROM_SIGNATURE, _nonneg("tie_weight"), "multiplier of the tie counts"),
        TOLERANCE,
        MAX_ITER,
    ),
    bounds=(0.0, None),
    peers=(Peer("evalica", "evalica.newman"),),
)
def newman(
    comparisons: Any,  # Any: as read_comparisons
    *,
    v_init: float = 0.5,
    win_weight: float = 1.0,
    tie_weight: float = 1.0,
    tolerance: float = 1e-6,
    max_iter: int = 100,
) -> ItemScores:
    """Newman's method: Bradley–Terry with ties in Davidson's form, ``P(tie) = 2v √(s_i s_j)
    / (s_i + s_j + 2v √(s_i s_j))``, fitted by the fast iteration of Newman (2023, "Efficient
    computation of rankings from pairwise comparisons", JMLR 24(238)), ``v`` estimated
    alongside (:attr:`ItemScores.tie`). The method of choice when ties are frequent.
    Evalica's ``newman`` (no normalisation of the strengths).

    Reference: Newman (2023), "Efficient computation of rankings from pairwise comparisons",
    JMLR 24(238).

    Parameters
    ----------
    comparisons : Comparisons, path, DataFrame, Table or mapping
        The comparisons.
    v_init : float
        The starting tie parameter.
    win_weight, tie_weight : float
        Multipliers of the win and tie counts (evalica's 1 and 1).
    tolerance : float
        Stop when the step is shorter than this.
    max_iter : int
        At most this many iterations.

    Returns
    -------
    ItemScores
        Strengths ≥ 0.

    Examples
    --------
    >>> from assay.judgments import newman
    >>> res = newman({"left": ["a", "b", "c", "a"], "right": ["b", "c", "a", "c"],
    ...               "winner": ["left", "left", "left", "tie"]})
    >>> res.provenance["converged"], res.tie is not None
    (True, True)
    """
    return _scores(
        comparisons,
        "newman",
        v_init=v_init,
        win_weight=win_weight,
        tie_weight=tie_weight,
        tolerance=tolerance,
        max_iter=max_iter,
    )


@_method(
    params=(
        Param("initial", FROM_SIGNATURE, _real("initial"), "every item's starting rating"),
        Param("base", FROM_SIGNATURE, positive_float("base"), "base of the logistic curve"),
        Param("scale", FROM_SIGNATURE, positive_float("scale"), "scale of the logistic curve"),
        Param("k", FROM_SIGNATURE, positive_float("k"), "update factor K"),
        WIN_WEIGHT,
        TIE_WEIGHT,
    ),
    bounds=(None, None),
    peers=(Peer("evalica", "evalica.elo"),),
)
def elo(
    comparisons: Any,  # Any: as read_comparisons
    *,
    initial: float = 1000.0,
    base: float = 10.0,
    scale: float = 400.0,
    k: float = 4.0,
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
) -> ItemScores:
    """Elo ratings (Elo 1978, *The Rating of Chessplayers, Past and Present*), updated
    comparison by comparison **in the input order**: with ``e_x = 1 / (1 + base^((r_y -
    r_x) / scale))``, ``r_x += k (s_x - e_x)`` where ``s_x`` is ``win_weight`` for a win, 0
    for a loss, ``tie_weight`` for a tie. Shuffling the rows changes the ratings; the
    result describes a stream of games, not a fixed population. Evalica's ``elo``.

    Reference: Elo (1978), The Rating of Chessplayers, Past and Present.

    Parameters
    ----------
    comparisons : Comparisons, path, DataFrame, Table or mapping
        The comparisons, in the order they happened.
    initial, base, scale, k : float
        Starting rating, the logistic curve's base and scale, and the update factor.
    win_weight, tie_weight : float
        Actual score of a win and of a tie.

    Returns
    -------
    ItemScores
        Ratings (any real number).

    Examples
    --------
    >>> from assay.judgments import elo
    >>> [round(x, 1) for x in elo({"left": ["a"], "right": ["b"], "winner": ["left"]}).scores.tolist()]
    [1002.0, 998.0]
    """
    return _scores(
        comparisons,
        "elo",
        initial=initial,
        base=base,
        scale=scale,
        k=k,
        win_weight=win_weight,
        tie_weight=tie_weight,
    )


@_method(
    params=(WIN_WEIGHT, TIE_WEIGHT, TOLERANCE, MAX_ITER),
    bounds=(0.0, 1.0),
    higher_is_better=False,
    peers=(Peer("evalica", "evalica.eigen"),),
)
def eigen(
    comparisons: Any,  # Any: as read_comparisons
    *,
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
    tolerance: float = 1e-6,
    max_iter: int = 100,
) -> ItemScores:
    """Eigenvector scores: the power iteration ``x ← Mᵀx / ‖Mᵀx‖₂`` on ``M = win_weight · W +
    tie_weight · T`` from ``x = 1/n``, exactly evalica's ``eigen``. **Lower is better**:
    ``x_j = Σ_i M[i, j] x_i / λ`` grows with the credit the other items earned *against*
    ``j``, weighted by their own scores (a loss to a high-scoring item counts more), so the
    item that lost most scores highest; assay keeps evalica's values and declares the
    direction (Keener 1993, SIAM Review 35(1), iterates on ``M`` itself, higher is better).
    Needs a well connected comparison graph to converge.

    Reference: Keener (1993), "The Perron-Frobenius theorem and the ranking of football teams",
    SIAM Review 35(1); Ustalov (2025), "Reliable, reproducible, and really fast leaderboards
    with Evalica", COLING (demonstrations).

    Parameters
    ----------
    comparisons : Comparisons, path, DataFrame, Table or mapping
        The comparisons.
    win_weight, tie_weight : float
        Credit for a win and for a tie.
    tolerance : float
        Stop when the step is shorter than this.
    max_iter : int
        At most this many iterations.

    Returns
    -------
    ItemScores
        A unit-length vector of scores in [0, 1], lower is better.

    Examples
    --------
    >>> from assay.judgments import eigen
    >>> res = eigen({"left": ["a", "b", "c"], "right": ["b", "c", "a"], "winner": ["left"] * 3})
    >>> [round(x, 4) for x in res.scores.tolist()]
    [0.5774, 0.5774, 0.5774]
    """
    return _scores(
        comparisons,
        "eigen",
        win_weight=win_weight,
        tie_weight=tie_weight,
        tolerance=tolerance,
        max_iter=max_iter,
    )


@_method(
    params=(
        Param("damping", FROM_SIGNATURE, closed_unit("damping"), "probability of following a link"),
        WIN_WEIGHT,
        TIE_WEIGHT,
        TOLERANCE,
        MAX_ITER,
    ),
    bounds=(0.0, 1.0),
    peers=(Peer("evalica", "evalica.pagerank"),),
)
def pagerank(
    comparisons: Any,  # Any: as read_comparisons
    *,
    damping: float = 0.85,
    win_weight: float = 1.0,
    tie_weight: float = 0.5,
    tolerance: float = 1e-6,
    max_iter: int = 100,
) -> ItemScores:
    """PageRank on the comparison graph (Brin & Page 1998): every item links to the items
    that earned credit against it, in proportion; ``G = damping · P + (1 - damping) / n``;
    the scores are the stationary vector of ``G``, summing to 1 (evalica's ``pagerank``).

    Reference: Brin & Page (1998), "The anatomy of a large-scale hypertextual web search
    engine", WWW.

    Parameters
    ----------
    comparisons : Comparisons, path, DataFrame, Table or mapping
        The comparisons.
    damping : float
        The probability of following a link (evalica's 0.85).
    win_weight, tie_weight : float
        Credit for a win and for a tie.
    tolerance : float
        Stop when the step is shorter than this.
    max_iter : int
        At most this many iterations.

    Returns
    -------
    ItemScores
        Scores in [0, 1], summing to 1.

    Examples
    --------
    >>> from assay.judgments import pagerank
    >>> res = pagerank({"left": ["a", "b", "c"], "right": ["b", "c", "a"], "winner": ["left"] * 3})
    >>> [round(x, 4) for x in res.scores.tolist()]
    [0.3333, 0.3333, 0.3333]
    """
    return _scores(
        comparisons,
        "pagerank",
        damping=damping,
        win_weight=win_weight,
        tie_weight=tie_weight,
        tolerance=tolerance,
        max_iter=max_iter,
    )
