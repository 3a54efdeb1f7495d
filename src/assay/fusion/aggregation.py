"""Rank aggregation: the consensus order of lists of candidates (votes, best first, possibly
partial).

Borda (Liu 2009, *Learning to Rank for Information Retrieval*; Li 2014), weighted Borda,
Dowdall, Copeland (Condorcet), Kemeny–Young and MC4 (Dwork, Kumar, Naor & Sivakumar 2001).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._options import choice, choices, number
from .._result import TupleResult, provenance
from ..errors import EmptyInputError, InputError, OptionError
from ..report.reported import Reported
from .options import AggregationMethod, Partial

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["AGGREGATE_METHODS", "Consensus", "aggregate"]

AGGREGATE_METHODS: tuple[str, ...] = choices(AggregationMethod)
_KEMENY_EXACT_MAX = 8


@dataclass(frozen=True, eq=False, repr=False)
class Consensus(TupleResult, Reported):
    """The consensus of rankings: the order of the candidates and their scores.

    Built by :func:`aggregate`. Unpacks as ``order, scores = aggregate(...)`` and equals that
    pair. ``records()``: one row per candidate, ``{"rank", "candidate", "score"}``;
    :meth:`report` is the table ``assay aggregate`` prints.

    Parameters
    ----------
    order : list
        The candidates, best first.
    scores : list of float
        The scores of those candidates, in the same order (the method's points, pairwise
        wins minus losses, N − 1 − position or stationary probabilities).
    provenance : mapping
        The settings that produced the result (method, partial, weights).
    settings : mapping
        What the report states: the votes' ``path`` and count (``rankings``) and the options.

    Examples
    --------
    >>> from assay.fusion import aggregate
    >>> res = aggregate([["A", "B", "C"], ["A", "C", "B"], ["B", "A", "C"]])
    >>> res.order, res.scores
    (['A', 'B', 'C'], [5.0, 3.0, 1.0])
    >>> res.records()[0]
    {'rank': 1, 'candidate': 'A', 'score': 5.0}
    """

    family = "fusion"

    order: list[Hashable]
    scores: list[float]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    settings: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    _fields = ("order", "scores")

    def records(self) -> list[dict[str, Any]]:
        return [
            {"rank": i + 1, "candidate": c, "score": s}
            for i, (c, s) in enumerate(zip(self.order, self.scores, strict=True))
        ]

    def report(self) -> Report:
        """Rows ``rank, candidate, score``; the caption names the votes and the method."""
        from .report import consensus_report

        settings = dict(self.settings)
        what = f"{settings.get('rankings')} rankings, {settings.get('method')}"
        source = settings.get("path")
        return consensus_report(
            self.order,
            self.scores,
            caption=what if source is None else f"{source}: {what}",
            settings=settings,
        )

    def document(self) -> Document:
        """The ``--report`` content: the table under "Rank aggregation"."""
        from ..report.sections_tasks import tables_document

        return tables_document("Rank aggregation", self.family, self.report())


# ---------------------------------------------------------------- the votes


def _sorted_candidates(cands: set[Any]) -> list[Any]:
    try:
        return sorted(cands)
    except TypeError:
        return sorted(cands, key=lambda c: (type(c).__name__, str(c)))


def _prepare(
    rankings: Sequence[Sequence[Hashable]], weights: Sequence[float] | None
) -> tuple[list[Any], np.ndarray, np.ndarray]:
    """Candidates (sorted), position matrix (voters x candidates, -1 = absent), weights."""
    if isinstance(rankings, str | bytes) or not len(rankings):
        raise EmptyInputError("no rankings to aggregate")
    lists = [list(r) for r in rankings]
    for i, r in enumerate(lists):
        if len(set(r)) != len(r):
            raise InputError(f"ranking {i + 1} names a candidate more than once")
    cands = _sorted_candidates({c for r in lists for c in r})
    if not cands:
        raise EmptyInputError("the rankings name no candidates")
    index = {c: j for j, c in enumerate(cands)}
    pos = np.full((len(lists), len(cands)), -1, dtype=np.int64)
    for i, r in enumerate(lists):
        for p, c in enumerate(r):
            pos[i, index[c]] = p
    return cands, pos, _voter_weights(weights, len(lists))


def _voter_weights(weights: Sequence[float] | None, n: int) -> np.ndarray:
    """One finite, non-negative weight per ranking (all 1 by default)."""
    if weights is None:
        return np.ones(n)
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise OptionError(f"weights must be numbers, got {weights!r}", option="weights") from None
    if w.shape != (n,):
        raise OptionError(f"{n} rankings but {w.size} weights", option="weights")
    if not np.isfinite(w).all() or (w < 0).any():
        raise OptionError("weights must be finite and non-negative", option="weights")
    return w


def _points(pos: np.ndarray, values: np.ndarray, partial: str) -> np.ndarray:
    """Per voter and candidate: values[rank]; absent candidates get 0 or the mean of the
    values of the positions the voter left unused."""
    n = pos.shape[1]
    out = np.where(pos >= 0, values[np.maximum(pos, 0)], 0.0)
    if partial == "average":
        n_ranked = (pos >= 0).sum(axis=1)
        tail = np.concatenate([np.cumsum(values[::-1])[::-1], [0.0]])  # tail[k] = sum values[k:]
        avg = np.where(n_ranked < n, tail[n_ranked] / np.maximum(n - n_ranked, 1), 0.0)
        out = np.where(pos >= 0, out, avg[:, None])
    return out


def _preferences(pos: np.ndarray, w: np.ndarray) -> np.ndarray:
    """P[a, b] = total weight of the voters who rank a above b. A voter who ranks a but not b
    ranks a above b; a voter who ranks neither has no preference."""
    big = np.iinfo(np.int64).max
    p = np.where(pos >= 0, pos, big)
    above = (p[:, :, None] < p[:, None, :]).astype(np.float64)  # voters x a x b
    return cast(np.ndarray, np.einsum("v,vab->ab", w, above))


def _order_by(scores: np.ndarray, cands: list[Any]) -> tuple[list[Any], list[float]]:
    # Descending score; ties by candidate order (the sorted candidate list), stably.
    idx = np.lexsort((np.arange(len(cands)), -scores))
    return [cands[i] for i in idx], [float(scores[i]) for i in idx]


# ---------------------------------------------------------------- the methods


def _borda_family(method: str, pos: np.ndarray, w: np.ndarray, partial: str) -> np.ndarray:
    """Borda (N − 1 − r points), weighted Borda (the same, weighted) or Dowdall (1 / (r + 1))."""
    n = pos.shape[1]
    ranks = np.arange(n, dtype=np.float64)
    values = 1.0 / (ranks + 1.0) if method == "dowdall" else (n - 1) - ranks
    return cast(np.ndarray, w @ _points(pos, values, partial))


def _copeland(pref: np.ndarray) -> np.ndarray:
    wins = (pref > pref.T).sum(axis=1)
    losses = (pref < pref.T).sum(axis=1)
    return cast(np.ndarray, (wins - losses).astype(np.float64))


def _kemeny_exact(pref: np.ndarray) -> list[int]:
    """Maximise sum over ordered pairs (a before b) of pref[a, b] by DP over subsets."""
    n = pref.shape[0]
    full = (1 << n) - 1
    best = np.full(1 << n, -np.inf)
    choice = np.zeros(1 << n, dtype=np.int64)
    best[0] = 0.0
    for mask in range(1, 1 << n):
        # The first candidate of the set ``mask`` is placed before all the others in it.
        for a in range(n):
            if not mask >> a & 1:
                continue
            rest = mask & ~(1 << a)
            gain = sum(pref[a, b] for b in range(n) if rest >> b & 1)
            v = best[rest] + gain
            if v > best[mask]:  # strict: the lowest-index candidate wins ties
                best[mask] = v
                choice[mask] = a
    order, mask = [], full
    while mask:
        a = int(choice[mask])
        order.append(a)
        mask &= ~(1 << a)
    return order


def _kemeny_local(pref: np.ndarray, start: list[int]) -> list[int]:
    """Local Kemenization (Dwork et al. 2001): swap adjacent candidates while a strict
    majority prefers the lower one. The result is locally Kemeny-optimal."""
    order = list(start)
    changed = True
    while changed:
        changed = False
        for i in range(len(order) - 1):
            a, b = order[i], order[i + 1]
            if pref[b, a] > pref[a, b]:
                order[i], order[i + 1] = b, a
                changed = True
    return order


def _kemeny(pref: np.ndarray, pos: np.ndarray, w: np.ndarray, partial: str) -> list[int]:
    """The Kemeny order: exact up to 8 candidates, else the local Kemenization of Borda's."""
    n = pos.shape[1]
    if n <= _KEMENY_EXACT_MAX:
        return _kemeny_exact(pref)
    borda = w @ _points(pos, (n - 1) - np.arange(n, dtype=np.float64), partial)
    start = np.lexsort((np.arange(n), -borda)).tolist()
    return _kemeny_local(pref, start)


def _mc4(pref: np.ndarray, damping: float) -> np.ndarray:
    """The stationary distribution of Dwork et al.'s MC4 chain, with teleportation."""
    n = pref.shape[0]
    move = (pref < pref.T).astype(np.float64) / n  # move[a, b]: b preferred to a by majority
    np.fill_diagonal(move, 0.0)
    trans = move + np.diag(1.0 - move.sum(axis=1))
    trans = (1.0 - damping) * trans + damping / n
    pi = np.full(n, 1.0 / n)
    for _ in range(10_000):
        nxt = pi @ trans
        if np.abs(nxt - pi).sum() < 1e-14:
            pi = nxt
            break
        pi = nxt
    out: np.ndarray = pi / pi.sum()
    return out


def aggregate(
    rankings: Sequence[Sequence[Hashable]],
    *,
    method: AggregationMethod = "borda",
    weights: Sequence[float] | None = None,
    partial: Partial = "zero",
    damping: float = 0.15,
    source: str | None = None,
) -> Consensus:
    """Consensus of ``rankings`` (each a list of candidates, best first, possibly partial).

    With N candidates in the union of the lists and 0-based ranks r:

    - ``borda``: each list gives N − 1 − r points (best N − 1); points are summed. Votes
      A,B,C / A,C,B / B,A,C give A 5, B 3, C 1.
    - ``weighted_borda``: the same, each list's points times its weight.
    - ``dowdall``: each list gives 1 / (r + 1) points (times its weight, if given).
    - ``copeland``: pairwise majorities; score = wins − losses. A list that ranks a but not b
      prefers a; a list that ranks neither abstains.
    - ``kemeny``: the Kemeny–Young order (fewest pairwise disagreements with the lists,
      weighted): exact by dynamic programming over subsets for ≤ 8 candidates; beyond, local
      Kemenization (Dwork et al. 2001) of the Borda order — locally optimal, and a Condorcet
      winner comes first, but not necessarily the global optimum. Scores are N − 1 − position.
    - ``mc4``: Dwork et al.'s MC4 chain: from candidate a, pick b uniformly; move to b if a
      (weighted) majority of the lists prefers b to a, else stay. With probability
      ``damping`` (in [0, 1)) the walk teleports to a uniform candidate (PageRank-style; this
      makes the chain ergodic). Scores are the stationary probabilities.

    ``partial`` (Borda family): a candidate absent from a list gets ``"zero"`` points from it,
    or ``"average"``: the mean of the points of the positions the list left unused.
    ``weights`` (one per list, finite and non-negative) apply to every method. Ties in the
    score are broken by the candidates' sort order (ascending), so the result is
    deterministic. Bad options raise :class:`~assay.errors.OptionError`. ``source`` (where
    the votes came from) is named by the result's report.

    Parameters
    ----------
    rankings : sequence of sequences of hashable
        The votes: lists of candidates, best first, possibly partial (:func:`read_votes`
        reads them from a file).
    method : str
        The method (:data:`AGGREGATE_METHODS`), as above.
    weights : sequence of float, optional
        One finite, non-negative weight per ranking (default: all 1).
    partial : {"zero", "average"}
        The points of a candidate a ranking omits (Borda family).
    damping : float
        MC4's teleport probability, in [0, 1).
    source : str, optional
        Where the votes were read from (a file name), for the report.

    Returns
    -------
    Consensus
        The consensus order and scores; unpacks as ``order, scores``.

    Examples
    --------
    >>> from assay.fusion import aggregate
    >>> order, scores = aggregate([["A", "B", "C"], ["A", "C", "B"], ["B", "A", "C"]])
    >>> order, scores
    (['A', 'B', 'C'], [5.0, 3.0, 1.0])
    """
    method = choice(method, AggregationMethod, "method")
    partial = choice(partial, Partial, "partial")
    damping = number(damping, "damping", low=0, high=1, high_open=True)
    cands, pos, w = _prepare(rankings, weights)
    settings = provenance(
        method=method, partial=partial, weights=None if weights is None else w.tolist()
    )
    shown = {
        "path": source,
        "rankings": len(rankings),
        "method": method,
        "weights": None if weights is None else list(weights),
        "partial": partial,
        "damping": damping,
    }
    if method in ("borda", "weighted_borda", "dowdall"):
        order, scores = _order_by(_borda_family(method, pos, w, partial), cands)
    elif method == "copeland":
        order, scores = _order_by(_copeland(_preferences(pos, w)), cands)
    elif method == "kemeny":
        kept = _kemeny(_preferences(pos, w), pos, w, partial)
        n = len(cands)
        order, scores = [cands[i] for i in kept], [float(n - 1 - p) for p in range(n)]
    else:
        settings["damping"] = damping
        order, scores = _order_by(_mc4(_preferences(pos, w), damping), cands)
    return Consensus(order, scores, settings, shown)
