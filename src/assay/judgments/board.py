"""A leaderboard from pairwise comparisons: :func:`leaderboard` scores the items by any of the
methods of :mod:`assay.judgments.pairwise`, with bootstrap percentile intervals of every
score and rank, each item's counts and degenerate cases flagged, and the pairwise
win-probability matrix; :class:`Leaderboard` reports it (table, forest plot, heatmap)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .. import _options as opt
from .._result import REPR_LIMIT, Result, provenance
from ..errors import OptionError
from ..report.reported import Reported
from . import pairwise
from ._board_bootstrap import LIKELIHOOD, bootstrap_scores, percentiles, ranks, with_limits
from .comparisons import Comparisons, as_comparisons
from .options import PairwiseMethod

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["STATUSES", "Leaderboard", "leaderboard"]

FloatArray = NDArray[np.float64]

#: What an item's row says about it: ``ok``, or why a likelihood method's estimate does not
#: exist for it (``no estimate``: it has comparisons, but only with items that only won or
#: only lost, so nothing bounds its strength: NaN).
STATUSES = ("ok", "no comparisons", "only wins", "only losses", "no estimate")
#: How ranks are numbered, in every board and resample.
RANK_RULE = "1 + the number of items with a better score (tied items share the best rank)"


@dataclass(frozen=True, eq=False, repr=False)
class Leaderboard(Result, Reported):
    """Items scored from pairwise comparisons, with bootstrap intervals.

    Per item (arrays in ``items`` order): ``scores`` (the method on all comparisons),
    ``ci_low``/``ci_high`` (the bootstrap percentile interval; +inf where the resamples'
    scores are unbounded, NaN without any), ``rank`` (:data:`RANK_RULE`; NaN without a
    score), ``rank_low``/``rank_high`` (percentiles of the resamples' ranks, rounded
    outwards to whole ranks), the (weighted) numbers of ``comparisons``, ``wins``,
    ``losses`` and ``ties``, and ``status`` (:data:`STATUSES`). ``win_probability``: the
    model's ``P(i beats j)`` where the method defines one (Bradley–Terry, Newman, Elo), else
    None; ``empirical``: the observed rate at which ``i`` beat ``j`` (ties half; NaN for
    pairs that never met). ``records()``: one row per item, best first.

    Parameters
    ----------
    items : tuple of str
        The items.
    method : str
        The scoring method.
    options : mapping
        The method's options, as used.
    scores, ci_low, ci_high, rank, rank_low, rank_high : numpy.ndarray
        Per item, as above.
    comparisons, wins, losses, ties : numpy.ndarray
        Per item, as above.
    status : tuple of str
        Per item, as above.
    empirical : numpy.ndarray
        The observed win rates, (n, n).
    win_probability : numpy.ndarray, optional
        The model's win probabilities, (n, n).
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.judgments import leaderboard
    >>> board = leaderboard({"left": ["a", "a", "b", "c"], "right": ["b", "c", "c", "a"],
    ...                      "winner": ["left", "left", "tie", "left"]}, n_resamples=50)
    >>> board.records()[0]["item"], board.status
    ('a', ('ok', 'ok', 'ok'))
    """

    family = "judgments"

    items: tuple[str, ...]
    method: str
    options: Mapping[str, Any]  # Any: each option's own type
    scores: FloatArray
    ci_low: FloatArray
    ci_high: FloatArray
    rank: FloatArray
    rank_low: FloatArray
    rank_high: FloatArray
    comparisons: FloatArray
    wins: FloatArray
    losses: FloatArray
    ties: FloatArray
    status: tuple[str, ...]
    empirical: FloatArray
    win_probability: FloatArray | None = None
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __repr__(self) -> str:
        head = [
            f"{r['rank']!s:>4} {r['item'][:30]} {r['score']:.4g} [{r['ci_low']:.4g}, {r['ci_high']:.4g}]"
            for r in self.records()[:10]
        ]
        more = f"\n  … {len(self.items) - 10} more" if len(self.items) > 10 else ""
        text = (
            f"Leaderboard({self.method}, {len(self.items)} items, "
            f"{self.provenance.get('n_resamples')} resamples)\n  " + "\n  ".join(head) + more
        )
        return text if len(text) <= REPR_LIMIT else text[: REPR_LIMIT - 1] + "…"

    def order(self) -> NDArray[np.int64]:
        """Item positions best first (by rank, then input order; items without a score last).

        Returns
        -------
        numpy.ndarray
            A permutation of ``range(len(items))``.
        """
        key = np.where(np.isnan(self.rank), np.inf, self.rank)
        return np.argsort(key, kind="stable")

    def records(self) -> list[dict[str, Any]]:
        def rank(x: float) -> int | None:
            return None if np.isnan(x) else int(x)

        return [
            {
                "rank": rank(self.rank[i]),
                "item": self.items[i],
                "score": float(self.scores[i]),
                "ci_low": float(self.ci_low[i]),
                "ci_high": float(self.ci_high[i]),
                "rank_low": rank(self.rank_low[i]),
                "rank_high": rank(self.rank_high[i]),
                "comparisons": float(self.comparisons[i]),
                "wins": float(self.wins[i]),
                "losses": float(self.losses[i]),
                "ties": float(self.ties[i]),
                "status": self.status[i],
            }
            for i in self.order()
        ]

    def report(self) -> Report:
        from .render_board import board_report

        return board_report(self)

    def document(self) -> Document:
        from .render_board import board_document

        return board_document(self)


def _statuses(counts: Mapping[str, FloatArray], scores: FloatArray) -> tuple[str, ...]:
    def status(n: float, won: float, lost: float, tied: float, score: float) -> str:
        if n == 0:
            return "no comparisons"
        if lost == 0 and tied == 0:
            return "only wins"
        if won == 0 and tied == 0:
            return "only losses"
        return "no estimate" if np.isnan(score) else "ok"

    columns = (counts["comparisons"], counts["wins"], counts["losses"], counts["ties"], scores)
    return tuple(status(*(float(x) for x in row)) for row in zip(*columns, strict=True))


def _method_function(method: str) -> Any:  # Any: one of the declared functions
    return getattr(pairwise, opt.choice(method, PairwiseMethod, "method"))


def _model_probability(
    scores: FloatArray, method: str, options: Mapping[str, Any], tie: float | None
) -> FloatArray | None:
    from ._pairwise import win_probability

    if method == "elo":
        p = win_probability(scores, "elo", base=options["base"], scale=options["scale"])
    elif method == "bradley_terry" and options["ties"] == "davidson":
        p = win_probability(scores, "davidson", tie=tie)
    elif method == "newman":
        p = win_probability(scores, "newman", tie=tie)
    elif method == "bradley_terry":
        p = win_probability(scores, "bradley_terry")
    else:
        return None
    s_i, s_j = scores[:, None], scores[None, :]
    # The kernels' formula divides inf by inf for an item that only won: its limit is 1
    # against any finite strength (0 the other way); two such items have no probability.
    p = np.where(np.isposinf(s_i) & np.isfinite(s_j), 1.0, p)
    p = np.where(np.isfinite(s_i) & np.isposinf(s_j), 0.0, p)
    p = np.where(np.isnan(s_i) | np.isnan(s_j) | (np.isinf(s_i) & np.isinf(s_j)), np.nan, p)
    np.fill_diagonal(p, np.nan)
    return np.asarray(p, dtype=np.float64)


def _strongly_connected(c: Comparisons) -> bool:
    """Whether every item can be reached from every other through "earned credit against"
    (a win or a tie): Ford's (1957) condition for the Bradley–Terry estimate to exist."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    if c.n_items <= 1:
        return True
    earned_l = c.winner != 1  # left won or tied: left earned credit against right
    earned_r = c.winner != 0
    rows = np.concatenate([c.left[earned_l], c.right[earned_r]])
    cols = np.concatenate([c.right[earned_l], c.left[earned_r]])
    graph = coo_matrix((np.ones(rows.size), (rows, cols)), shape=(c.n_items, c.n_items))
    count, _ = connected_components(graph, directed=True, connection="strong")
    return bool(count == 1)


def leaderboard(
    comparisons: Any,  # Any: Comparisons, or anything read_comparisons reads
    *,
    method: PairwiseMethod = "bradley_terry",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    **method_options: Any,  # Any: the method's own options
) -> Leaderboard:
    """Score the items of pairwise comparisons with bootstrap intervals of scores and ranks.

    The method (:data:`~assay.judgments.pairwise.METHODS`) runs on all comparisons, then on
    ``n_resamples`` bootstrap resamples of them (the comparisons drawn with replacement).
    Count-based methods draw each resample as multinomial counts of the distinct
    comparisons (:func:`assay.stats.multinomial_resamples`, the same distribution as
    drawing rows); Elo, which depends on the order, draws row indices and runs the rows in
    the drawn order. Each interval is the percentile interval at ``confidence`` of the
    item's resampled scores (over the resamples in which it has a score); the rank interval
    the same of its ranks, rounded outwards. Resample ``r`` has its own random stream from
    ``seed``, so the result is the same for any block size or number of threads.

    An item that only won has no finite Bradley–Terry (or Newman) estimate: the board shows
    the limit, +inf, for its score (and in every resample where it only won, so an upper
    end of +inf says the data cannot bound the item from above) and its row says ``only
    wins``; one that only lost scores 0 (the limit) and says ``only losses``; one without
    comparisons (all of weight 0) has NaN scores and ranks. The other methods' scores are
    finite for such items and shown as computed (the flag still says why).

    Parameters
    ----------
    comparisons : Comparisons, path, DataFrame, Table or mapping
        The comparisons.
    method : str
        One of ``counting``, ``average_win_rate``, ``bradley_terry`` (default), ``newman``,
        ``elo``, ``eigen``, ``pagerank``.
    n_resamples : int
        Bootstrap resamples (0 is not allowed; use the method's own function for scores
        alone).
    confidence : float
        Level of the intervals, in (0, 1).
    seed : int
        Seed of the resamples.
    **method_options
        The method's options (``ties="davidson"``, ``k=32``, ...), validated by its
        declaration.

    Returns
    -------
    Leaderboard
        Scores, intervals, ranks, counts, flags and win probabilities.

    Raises
    ------
    OptionError
        An unknown method, an option the method does not take, or a bad value.

    Examples
    --------
    >>> from assay.judgments import leaderboard
    >>> votes = {"left": ["a", "b", "c", "a", "b", "c", "a"], "right": ["b", "c", "a", "c", "a", "b", "b"],
    ...          "winner": ["left", "left", "left", "left", "right", "tie", "left"]}
    >>> board = leaderboard(votes, n_resamples=200, seed=1)
    >>> [(r["item"], r["rank"], r["status"]) for r in board.records()]
    [('a', 1, 'ok'), ('c', 2, 'ok'), ('b', 3, 'ok')]
    >>> board.provenance["n_resamples"], board.win_probability.shape
    (200, (3, 3))
    """
    func = _method_function(method)
    n_resamples = opt.n_resamples(n_resamples)
    confidence = opt.confidence(confidence)
    seed = opt.seed(seed)
    accepted = [
        p for p, v in inspect.signature(func).parameters.items() if v.kind is v.KEYWORD_ONLY
    ]
    for name in method_options:
        if name not in accepted:
            raise OptionError(
                f"{method} takes no option {name!r}; its options: {', '.join(accepted)}",
                option=name,
            )
    c = as_comparisons(comparisons)
    observed: pairwise.ItemScores = func(c, **method_options)
    options = dict(observed.options)
    from ._pairwise import empirical_win_rate, pair_counts

    wins, ties = pair_counts(c.left, c.right, c.winner, c.n_items, c.weights)
    scores = np.asarray(observed.scores, dtype=np.float64)
    if method in LIKELIHOOD:
        scores = with_limits(scores, wins, ties)
    counts = c.item_counts()
    resampled, unconverged, _ = bootstrap_scores(c, method, options, n_resamples, seed)
    alpha = 1.0 - confidence
    low, high = percentiles(resampled, np.array([alpha / 2, 1 - alpha / 2]))
    sign = -1.0 if method in pairwise.LOWER_IS_BETTER else 1.0
    rank_low, rank_high = percentiles(ranks(sign * resampled), np.array([alpha / 2, 1 - alpha / 2]))
    empirical = empirical_win_rate(wins, ties)
    return Leaderboard(
        items=c.items,
        method=method,
        options=options,
        scores=scores,
        ci_low=low,
        ci_high=high,
        rank=ranks(sign * scores),
        rank_low=np.floor(rank_low),
        rank_high=np.ceil(rank_high),
        comparisons=counts["comparisons"],
        wins=counts["wins"],
        losses=counts["losses"],
        ties=counts["ties"],
        status=_statuses(counts, scores),
        empirical=empirical,
        win_probability=_model_probability(scores, method, options, observed.tie),
        provenance=provenance(
            method=method,
            options=options,
            n_resamples=n_resamples,
            seed=seed,
            confidence=confidence,
            bootstrap=(
                "row indices, rows in the drawn order"
                if method == "elo"
                else "multinomial counts of the distinct comparisons"
            ),
            interval="percentile",
            rank_rule=RANK_RULE,
            iterations=observed.provenance["iterations"],
            converged=observed.provenance["converged"],
            resamples_at_iteration_cap=unconverged,
            tie_parameter=observed.tie,
            strongly_connected=_strongly_connected(c),
            n_comparisons=len(c),
            source=c.source,
        ),
    )
