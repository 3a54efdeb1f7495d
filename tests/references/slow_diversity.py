"""Slow, obviously-correct diversity measures (ndeval's definitions), one query at a time
from plain Python lists: the reference for assay's vectorised kernels.

A ranked list is a list of frozensets: the subtopics each ranked document is relevant to
(empty for a non-relevant or unjudged document). The qrels of the query are a dict
``{doc: frozenset of relevant subtopics}`` over its judged documents, and ``n_relevant`` maps a
subtopic to its number of relevant judged documents. Subtopics are ordered (ints), and sums
over a document's subtopics run in that order, as ndeval's loops do.

ndeval's normalisations: "ideal ideal" (every rank covers every subtopic) for alpha-DCG,
ERR-IA and NRBP, not applied at rank 1; the greedy ideal ranking (largest gain first, ties
to the largest document id in byte order) for the n- variants. NaN when no subtopic has a
relevant document.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

NAN = float("nan")
Ranking = Sequence[frozenset[int]]


def gains(ranking: Ranking, alpha: float) -> list[float]:
    """G(i): the sum over the document's subtopics of (1 - alpha)^(times seen before)."""
    seen: dict[int, float] = {}
    out = []
    for subs in ranking:
        score = 0.0
        for s in sorted(subs):
            gain = seen.get(s, 1.0)
            score += gain
            seen[s] = gain * (1.0 - alpha)
        out.append(score)
    return out


def greedy_ideal(qrels: Mapping[str, frozenset[int]], alpha: float) -> list[frozenset[int]]:
    """ndeval's greedy ideal ranking of the judged documents."""
    left = dict(qrels)
    weight: dict[int, float] = {}
    out = []
    while left:
        best_doc, best = None, -1.0
        for doc in sorted(left, key=lambda d: d.encode()):
            score = 0.0
            for s in sorted(left[doc]):
                score += weight.get(s, 1.0)
            if (
                best_doc is None
                or score > best
                or (score == best and doc.encode() > best_doc.encode())
            ):
                best_doc, best = doc, score
        assert best_doc is not None
        for s in sorted(left[best_doc]):
            weight[s] = weight.get(s, 1.0) * (1.0 - alpha)
        out.append(left.pop(best_doc))
    return out


def _discount(i: int) -> float:
    return math.log(2.0) / math.log(i + 2.0)


def _cumulated(ranking: Ranking, k: int, alpha: float, term) -> float:
    total = 0.0
    for i, g in enumerate(gains(ranking, alpha)[:k]):
        total = term(g, i) + total
    return total


def _ideal_ideal(n_sub: int, k: int, alpha: float, term) -> float:
    total, gain = 0.0, float(n_sub)
    for i in range(k):
        total = term(gain, i) + total
        gain *= 1.0 - alpha
    return total


def _dcg_term(g: float, i: int) -> float:
    return g * _discount(i)


def _err_term(g: float, i: int) -> float:
    return g / float(i + 1)


def _normalised(ranking: Ranking, n_sub: int, k: int, alpha: float, term) -> float:
    value = _cumulated(ranking, k, alpha, term)
    return value if k == 1 else value / _ideal_ideal(n_sub, k, alpha, term)


def alpha_dcg(ranking: Ranking, qrels: Mapping[str, frozenset[int]], k: int, alpha: float) -> float:
    n_sub = len(set().union(*qrels.values())) if qrels else 0
    return NAN if n_sub == 0 else _normalised(ranking, n_sub, k, alpha, _dcg_term)


def err_ia(ranking: Ranking, qrels: Mapping[str, frozenset[int]], k: int, alpha: float) -> float:
    n_sub = len(set().union(*qrels.values())) if qrels else 0
    return NAN if n_sub == 0 else _normalised(ranking, n_sub, k, alpha, _err_term)


def _ratio(ranking, qrels, k, alpha, term) -> float:
    n_sub = len(set().union(*qrels.values())) if qrels else 0
    if n_sub == 0:
        return NAN
    run = _normalised(ranking, n_sub, k, alpha, term)
    if run == 0:
        return 0.0
    return run / _normalised(greedy_ideal(qrels, alpha), n_sub, k, alpha, term)


def alpha_ndcg(
    ranking: Ranking, qrels: Mapping[str, frozenset[int]], k: int, alpha: float
) -> float:
    return _ratio(ranking, qrels, k, alpha, _dcg_term)


def nerr_ia(ranking: Ranking, qrels: Mapping[str, frozenset[int]], k: int, alpha: float) -> float:
    return _ratio(ranking, qrels, k, alpha, _err_term)


def _nrbp(ranking: Ranking, n_sub: int, alpha: float, beta: float) -> float:
    total, decay = 0.0, 1.0
    for g in gains(ranking, alpha):
        total += g * decay
        decay *= beta
    return total * ((1 - (1 - alpha) * beta) / n_sub)


def nrbp(ranking: Ranking, qrels: Mapping[str, frozenset[int]], alpha: float, beta: float) -> float:
    n_sub = len(set().union(*qrels.values())) if qrels else 0
    return NAN if n_sub == 0 else _nrbp(ranking, n_sub, alpha, beta)


def nnrbp(
    ranking: Ranking, qrels: Mapping[str, frozenset[int]], alpha: float, beta: float
) -> float:
    n_sub = len(set().union(*qrels.values())) if qrels else 0
    if n_sub == 0:
        return NAN
    best = _nrbp(greedy_ideal(qrels, alpha), n_sub, alpha, beta)
    # (1 - (1 - alpha) beta) = 0 at alpha = 0, beta = 1: 0 / 0, as in ndeval
    return NAN if best == 0 else _nrbp(ranking, n_sub, alpha, beta) / best


def p_ia(ranking: Ranking, qrels: Mapping[str, frozenset[int]], k: int) -> float:
    n_sub = len(set().union(*qrels.values())) if qrels else 0
    if n_sub == 0:
        return NAN
    return float(sum(len(s) for s in ranking[:k])) / (k * n_sub)


def subtopic_recall(ranking: Ranking, qrels: Mapping[str, frozenset[int]], k: int) -> float:
    n_sub = len(set().union(*qrels.values())) if qrels else 0
    if n_sub == 0:
        return NAN
    covered = set().union(*ranking[:k]) if ranking[:k] else set()
    return len(covered) / n_sub


def map_ia(ranking: Ranking, qrels: Mapping[str, frozenset[int]]) -> float:
    subtopics = sorted(set().union(*qrels.values())) if qrels else []
    if not subtopics:
        return NAN
    total = 0.0
    for s in subtopics:
        n_rel = sum(1 for subs in qrels.values() if s in subs)
        found, ap = 0, 0.0
        for i, subs in enumerate(ranking, start=1):
            if s in subs:
                found += 1
                ap += found / float(i)
        total += ap / n_rel
    return total / len(subtopics)
