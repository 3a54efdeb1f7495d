"""Partial-match evaluation of spans, nervaluate's way (Segura-Bedmar et al. 2013, SemEval-2013
task 9.1; David Batista's and MantisAI's ``nervaluate``, version 1.2.1), vectorised.

Each predicted span (in order) is compared with the gold spans of its sentence that it
overlaps by at least 1 % of the gold span's length (every overlap, for gold spans of at most
100 tokens) and that no earlier prediction has taken; the ``match`` scheme decides:

- ``strict`` — correct if a gold span has the same boundaries and type; otherwise incorrect,
  taking the first overlapping gold span; spurious if none overlaps;
- ``exact`` — the same with boundaries only (the type is ignored);
- ``partial`` — correct for the same boundaries; otherwise *partial*, taking the first
  overlapping gold span (the type is ignored);
- ``type`` (nervaluate's ``ent_type``) — correct if an overlapping gold span has the same
  type (the one with the closest boundaries, |Δstart| + |Δend|, the first on ties);
  otherwise incorrect, taking the first overlapping gold span of another type.

Gold spans no prediction took are *missed*. possible = correct + incorrect + partial +
missed (the gold spans), actual = correct + incorrect + partial + spurious (the predicted
ones); precision = (correct + ½ partial) / actual, recall = (correct + ½ partial) / possible
(partial is 0 but for ``partial``), F1 = 2PR / (P + R), 0 when P + R = 0. Per-type counts
repeat the procedure on the spans of that type only (nervaluate's per-entity results).

Vectorised: spans never overlap within one sequence, so when a prediction is compared, the
only gold span an earlier prediction may have taken is the one that starts before it and
reaches into it; whether it is taken is one bit of state carried from prediction to
prediction, and each prediction maps that bit to the next one's (a constant, the identity or
its negation), which a cumulative scan resolves for all predictions at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .options import MatchScheme
from .spans import Spans

__all__ = ["MATCH_SCHEMES", "PartialCounts", "partial_counts", "partial_counts_all"]

IntArray = NDArray[np.int64]
MATCH_SCHEMES = ("strict", "exact", "partial", "type")
CORRECT, INCORRECT, PARTIAL, SPURIOUS = range(4)
_NONE = -1
_BIG = np.iinfo(np.int64).max


@dataclass(frozen=True)
class PartialCounts:
    """nervaluate's counts of one match scheme (overall or for one type) and the measures
    computed from them: ``possible`` = correct + incorrect + partial + missed, ``actual`` =
    correct + incorrect + partial + spurious, precision = (correct + partial / 2) / actual
    and recall = (correct + partial / 2) / possible (Segura-Bedmar et al., SemEval-2013).

    Parameters
    ----------
    correct, incorrect, partial, missed, spurious : int
        The gold and predicted spans of each outcome.

    Examples
    --------
    >>> from assay.tagging import partial_counts, span_counts
    >>> c = span_counts([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "B-ORG"]])
    >>> overall, per_type = partial_counts(c.gold_spans, c.pred_spans, "strict")
    >>> overall.correct, overall.incorrect, overall.precision()
    (1, 1, 0.5)
    """

    correct: int
    incorrect: int
    partial: int
    missed: int
    spurious: int

    @property
    def possible(self) -> int:
        return self.correct + self.incorrect + self.partial + self.missed

    @property
    def actual(self) -> int:
        return self.correct + self.incorrect + self.partial + self.spurious

    def precision(self, zero_division: float = 0.0) -> float:
        hits = self.correct + 0.5 * self.partial
        return hits / self.actual if self.actual else zero_division

    def recall(self, zero_division: float = 0.0) -> float:
        hits = self.correct + 0.5 * self.partial
        return hits / self.possible if self.possible else zero_division

    def f1(self, zero_division: float = 0.0) -> float:
        p, r = self.precision(zero_division), self.recall(zero_division)
        if np.isnan(p) or np.isnan(r):
            return float("nan")
        # nervaluate's expression, term for term, so values agree to the last bit
        return 2 * (p * r) / (p + r) if p + r > 0 else 0.0

    def as_dict(self) -> dict[str, int]:
        return {
            "correct": self.correct,
            "incorrect": self.incorrect,
            "partial": self.partial,
            "missed": self.missed,
            "spurious": self.spurious,
            "possible": self.possible,
            "actual": self.actual,
        }


@dataclass(frozen=True)
class _Layout:
    """Where each prediction stands among the gold spans (arrays over predictions)."""

    first: IntArray  # first overlapping gold span it may take (sufficient overlap)
    last: IntArray  # last one (first > last: none)
    straddler: IntArray  # gold span starting before it and reaching into it, or -1
    straddler_listed: NDArray[np.bool_]  # ... and overlapping it sufficiently
    exact: IntArray  # gold span with the same boundaries, or -1


def _sufficient(
    gs: IntArray, ge: IntArray, ps: IntArray, pe: IntArray, j: IntArray
) -> NDArray[np.bool_]:
    """Whether prediction (ps, pe) overlaps gold span j by at least 1 % of its length."""
    overlap = np.minimum(pe, ge[j]) - np.maximum(ps, gs[j]) + 1
    return (overlap > 0) & (100 * overlap >= ge[j] - gs[j] + 1)


def _layout(gs: IntArray, ge: IntArray, ps: IntArray, pe: IntArray) -> _Layout:
    n_gold = len(gs)
    lo = np.searchsorted(ge, ps, side="left").astype(np.int64)
    hi = np.searchsorted(gs, pe, side="right").astype(np.int64) - 1
    meets = lo <= hi
    safe_lo = np.minimum(lo, max(n_gold - 1, 0))
    safe_hi = np.maximum(hi, 0)
    if n_gold:
        lo_ok = meets & _sufficient(gs, ge, ps, pe, safe_lo)
        hi_ok = meets & _sufficient(gs, ge, ps, pe, safe_hi)
        straddles = meets & (gs[safe_lo] < ps)
        exact = meets & (gs[safe_lo] == ps) & (ge[safe_lo] == pe)
    else:
        lo_ok = hi_ok = straddles = exact = np.zeros(len(ps), dtype=bool)
    hi_ok = np.where(hi == lo, lo_ok, hi_ok)
    return _Layout(
        first=lo + ~lo_ok,
        last=hi - ~hi_ok,
        straddler=np.where(straddles, lo, _NONE),
        straddler_listed=straddles & lo_ok,
        exact=np.where(exact, lo, _NONE),
    )


def _choice_by_boundaries(
    layout: _Layout, match: str, same_type: NDArray[np.bool_], taken: bool
) -> tuple[IntArray, IntArray]:
    """(outcome, gold span taken or -1) of every prediction for strict, exact and partial,
    given whether each one's straddler is already taken."""
    skip = layout.straddler_listed & taken
    first = layout.first + skip
    has = first <= layout.last
    if match == "strict":
        hit = (layout.exact >= 0) & same_type
    else:
        hit = layout.exact >= 0
    miss_kind = PARTIAL if match == "partial" else INCORRECT
    outcome = np.where(hit, CORRECT, np.where(has, miss_kind, SPURIOUS))
    gold = np.where(hit, layout.exact, np.where(has, first, _NONE))
    return outcome, gold


def _choice_by_type(
    layout: _Layout,
    gs: IntArray,
    ge: IntArray,
    gt: NDArray[np.int32],
    ps: IntArray,
    pe: IntArray,
    pt: NDArray[np.int32],
    taken: bool,
) -> tuple[IntArray, IntArray]:
    """(outcome, gold span taken) for the ``type`` scheme: the listed gold span of the same
    type with the closest boundaries, else the first listed one of another type."""
    skip = layout.straddler_listed & taken
    first = layout.first + skip
    count = np.maximum(layout.last - first + 1, 0)
    n_pred = len(ps)
    outcome = np.full(n_pred, SPURIOUS, dtype=np.int64)
    gold = np.full(n_pred, _NONE, dtype=np.int64)
    listed = np.flatnonzero(count)
    if not len(listed):
        return outcome, gold
    pair_pred = np.repeat(listed, count[listed])
    bounds = np.concatenate([[0], np.cumsum(count[listed])])
    j = first[pair_pred] + (np.arange(bounds[-1]) - np.repeat(bounds[:-1], count[listed]))
    same = gt[j] == pt[pair_pred]
    distance = np.abs(ps[pair_pred] - gs[j]) + np.abs(pe[pair_pred] - ge[j])
    stride = len(gs) + 1
    best = np.minimum.reduceat(np.where(same, distance * stride + j, _BIG), bounds[:-1])
    other = np.minimum.reduceat(np.where(same, _BIG, j), bounds[:-1])
    found = best < _BIG
    outcome[listed] = np.where(found, CORRECT, np.where(other < _BIG, INCORRECT, SPURIOUS))
    gold[listed] = np.where(found, best % stride, np.where(other < _BIG, other, _NONE))
    return outcome, gold


def _carry(layout: _Layout, gold0: IntArray, gold1: IntArray) -> NDArray[np.bool_]:
    """Whether each prediction's straddler is taken when its turn comes: K[0] = False and
    K[i + 1] = g_i(K[i]), g_i read off prediction i's choices with K = False and True."""
    n = len(gold0)
    taken = np.zeros(n, dtype=bool)
    if n < 2:
        return taken
    x, x_next = layout.straddler[:-1], layout.straddler[1:]
    carried = (x_next >= 0) & (x_next == x)  # the same gold span reaches into the next one
    g0 = np.where(carried, gold0[:-1] == x, gold0[:-1] == x_next) & (x_next >= 0)
    g1 = np.where(carried, True, gold1[:-1] == x_next) & (x_next >= 0)
    steps = np.arange(n - 1)
    reset = np.maximum.accumulate(np.where(g0 == g1, steps, -1))
    flips = np.cumsum(g0 & ~g1)
    parity = (flips - np.where(reset >= 0, flips[np.maximum(reset, 0)], 0)) & 1
    base = np.where(reset >= 0, g0[np.maximum(reset, 0)], False)
    taken[1:] = base ^ parity.astype(bool)
    return taken


@dataclass(frozen=True)
class _Side:
    """Both sides' spans in one coordinate system (sorted by start) and their layout."""

    gs: IntArray
    ge: IntArray
    gt: NDArray[np.int32]
    ps: IntArray
    pe: IntArray
    pt: NDArray[np.int32]
    layout: _Layout

    @classmethod
    def of(cls, gs: IntArray, ge: IntArray, gt: Any, ps: IntArray, pe: IntArray, pt: Any) -> _Side:
        return cls(gs, ge, gt, ps, pe, pt, _layout(gs, ge, ps, pe))


def _evaluate(side: _Side, match: str) -> tuple[IntArray, IntArray]:
    """(outcome, gold span taken) of every prediction under ``match``."""
    layout = side.layout
    if match == "type":
        args = (side.gs, side.ge, side.gt, side.ps, side.pe, side.pt)
        choices = [_choice_by_type(layout, *args, k) for k in (False, True)]
    else:
        exact_type = np.zeros(len(side.ps), dtype=bool)
        has = layout.exact >= 0
        exact_type[has] = side.gt[layout.exact[has]] == side.pt[has]
        choices = [_choice_by_boundaries(layout, match, exact_type, k) for k in (False, True)]
    (out0, gold0), (out1, gold1) = choices
    taken = _carry(layout, gold0, gold1)
    return np.where(taken, out1, out0), np.where(taken, gold1, gold0)


def _counts(outcome: IntArray, n_gold: int, n_taken: int) -> PartialCounts:
    tally = np.bincount(outcome, minlength=4)
    return PartialCounts(
        correct=int(tally[CORRECT]),
        incorrect=int(tally[INCORRECT]),
        partial=int(tally[PARTIAL]),
        missed=n_gold - n_taken,
        spurious=int(tally[SPURIOUS]),
    )


def _by_type(gold: Spans, pred: Spans) -> tuple[_Side, NDArray[np.int32]]:
    """Each type's spans moved to a stretch of positions of their own (sorted by type, then
    start), so one run evaluates every type apart; and the predictions' types in that order."""
    width = int(max(gold.offsets[-1], 1)) + 1
    g_order = np.lexsort((gold.start, gold.type))
    p_order = np.lexsort((pred.start, pred.type))
    g_shift = gold.type[g_order].astype(np.int64) * width
    p_shift = pred.type[p_order].astype(np.int64) * width
    side = _Side.of(
        gold.start[g_order] + g_shift,
        gold.end[g_order] + g_shift,
        gold.type[g_order],
        pred.start[p_order] + p_shift,
        pred.end[p_order] + p_shift,
        pred.type[p_order],
    )
    return side, pred.type[p_order]


def _per_type(
    gold: Spans, pred: Spans, p_type: NDArray[np.int32], outcome: IntArray, taken: IntArray
) -> dict[str, PartialCounts]:
    n_types = len(gold.types)
    tallies = np.zeros((n_types, 4), dtype=np.int64)
    np.add.at(tallies, (p_type, outcome), 1)
    gold_n = np.bincount(gold.type, minlength=n_types)
    took = np.bincount(p_type[taken >= 0], minlength=n_types)
    present = (gold_n > 0) | (np.bincount(pred.type, minlength=n_types) > 0)
    return {
        gold.types[t]: PartialCounts(
            correct=int(tallies[t, CORRECT]),
            incorrect=int(tallies[t, INCORRECT]),
            partial=int(tallies[t, PARTIAL]),
            missed=int(gold_n[t] - took[t]),
            spurious=int(tallies[t, SPURIOUS]),
        )
        for t in np.flatnonzero(present)
    }


def partial_counts_all(
    gold: Spans, pred: Spans, matches: tuple[str, ...] = MATCH_SCHEMES
) -> dict[str, tuple[PartialCounts, dict[str, PartialCounts]]]:
    """nervaluate's counts for several ``matches`` at once (the layouts are shared): match
    -> (overall, per type), the types of ``gold.types`` that occur on either side."""
    overall_side = _Side.of(gold.start, gold.end, gold.type, pred.start, pred.end, pred.type)
    type_side, p_type = _by_type(gold, pred)
    out = {}
    for match in matches:
        outcome, taken = _evaluate(overall_side, match)
        overall = _counts(outcome, len(gold), int(np.count_nonzero(taken >= 0)))
        outcome_t, taken_t = _evaluate(type_side, match)
        out[match] = (overall, _per_type(gold, pred, p_type, outcome_t, taken_t))
    return out


def partial_counts(
    gold: Spans, pred: Spans, match: MatchScheme
) -> tuple[PartialCounts, dict[str, PartialCounts]]:
    """nervaluate's counts for one ``match`` scheme: overall, and per type (the types of
    ``gold.types`` that occur on either side).

    Parameters
    ----------
    gold, pred : Spans
        The gold and the predicted spans, on one vocabulary of types (``gold.types``).
    match : {"strict", "exact", "partial", "type"}
        nervaluate's scheme (see the module docstring).

    Returns
    -------
    tuple of PartialCounts and dict of str to PartialCounts
        The counts over all spans, and per type.

    Examples
    --------
    >>> from assay.tagging import Spans, partial_counts
    >>> gold = Spans.from_sentences([[("PER", 0, 1)]], lengths=[3])
    >>> pred = Spans.from_sentences([[("PER", 0, 0)]], lengths=[3], types=gold.types)
    >>> overall, per_type = partial_counts(gold, pred, "partial")
    >>> overall.partial, overall.correct, round(overall.f1(), 4)
    (1, 0, 0.5)
    """
    return partial_counts_all(gold, pred, (match,))[match]
