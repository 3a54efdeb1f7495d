"""Slow, plain-Python reference implementations of every ranking metric in
``assay.metrics.REGISTRY``, one query at a time.

Written per query, with loops, from the formulas in the metric docstrings and the literature —
deliberately *not* by transcribing the vectorised kernels — so that
``references/test_ranking_reference.py`` can check the kernels against something independent.
The catalogue, the tie conventions and whole collections are in ``slow_ranking_conventions``.

Grades inside the reference (as in trec_eval and ``assay.metrics._context``):

* ``g >= 0``      judged, with that grade;
* ``NONPOOL = -1``  not in the query's qrels;
* ``UNJUDGED = -2`` in the qrels with a negative grade (pooled, never judged).

Graded measures treat both negative kinds as grade 0 with gain 0; binary measures count a
document relevant when ``g >= rel`` (so never for negative kinds, as ``rel >= 0``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from references import slow_diversity

NAN = float("nan")
NONPOOL = -1
UNJUDGED = -2

# A ranked item as the metrics see it: (score, grade), grade in the encoding above. Metrics
# never look at document ids once the list is ranked.
Item = tuple[float, int]


# ---------------------------------------------------------------- per-query judgment facts


@dataclass(frozen=True)
class QueryFacts:
    """What the metrics need from the qrels of one query (and of the whole collection)."""

    judged: tuple[int, ...]  # grades (>= 0) of every judged document of the query
    qrels_max: int  # the highest grade anywhere in the qrels (the default gmax)

    def num_rel(self, rel: int) -> int:
        """R: judged documents of the query with grade >= rel."""
        return sum(1 for g in self.judged if g >= rel)

    def num_nonrel(self, rel: int) -> int:
        """N: judged documents of the query with grade < rel."""
        return sum(1 for g in self.judged if g < rel)


def encode_grade(grade: int | None) -> int:
    if grade is None:
        return NONPOOL
    if grade < 0:
        return UNJUDGED
    return grade


# ---------------------------------------------------------------- helpers


def top(items: Sequence[Item], k: int | None) -> Sequence[Item]:
    return items if k is None else items[:k]


def clip(g: int) -> int:
    """Grade used by graded measures: unjudged / not pooled count as 0."""
    return g if g >= 0 else 0


def lround(x: float) -> int:
    """C's lround for x >= 0: nearest integer, halves away from zero."""
    whole = math.floor(x)
    return whole + 1 if x - whole >= 0.5 else whole


# ---------------------------------------------------------------- set / cutoff measures


def m_precision(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    hits = sum(1 for _, g in top(items, k) if g >= rel)
    if k is None:  # trec_eval's set_P: over the whole retrieved list, 0 for an empty list
        return hits / len(items) if items else 0.0
    return hits / k  # a list shorter than k still divides by k


def m_recall(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    return sum(1 for _, g in top(items, k) if g >= rel) / big_r


def m_f(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int, beta: float) -> float:
    """van Rijsbergen's F: (1 + b^2) P R / (b^2 P + R); 0 when P = R = 0."""
    if q.num_rel(rel) == 0:
        return NAN
    p = m_precision(items, q, k, rel)
    r = m_recall(items, q, k, rel)
    if p + r == 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r)


def m_ap(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    """AP@k = (1/R) sum_{i<=k, rel_i} P@i."""
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    total = 0.0
    seen = 0
    for i, (_, g) in enumerate(top(items, k), start=1):
        if g >= rel:
            seen += 1
            total += seen / i
    return total / big_r


def m_rprec(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    return sum(1 for _, g in items[:big_r] if g >= rel) / big_r


def m_rr(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    for i, (_, g) in enumerate(top(items, k), start=1):
        if g >= rel:
            return 1.0 / i
    return 0.0


def m_success(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    return 1.0 if any(g >= rel for _, g in top(items, k)) else 0.0


def m_num_ret(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    return float(len(items))


def m_num_rel(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    return float(q.num_rel(rel))


def m_num_rel_ret(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    return float(sum(1 for _, g in items if g >= rel))


def m_judged(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    n_judged = sum(1 for _, g in top(items, k) if g >= 0)
    if k is None:
        return n_judged / len(items) if items else 0.0
    return n_judged / k


def m_relative_p(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    hits = sum(1 for _, g in top(items, k) if g >= rel)
    best = min(len(items) if k is None else k, big_r)
    return hits / best if best else 0.0


def m_set_map(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    if not items:
        return 0.0
    hits = sum(1 for _, g in items if g >= rel)
    return (hits / len(items)) * (hits / big_r)


def m_num_nonrel_judged_ret(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    return float(sum(1 for _, g in items if 0 <= g < rel))


def m_unjudged(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    n_unjudged = sum(1 for _, g in top(items, k) if g < 0)
    if k is None:
        return n_unjudged / len(items) if items else 0.0
    return n_unjudged / k


def m_bing(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    total, not_relevant_above = 0.0, 0
    for _, g in items:
        if g >= rel:
            total += 1.0 / math.log2(2 + not_relevant_above)
        else:
            not_relevant_above += 1
    return total / big_r


def m_bpref(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    """(1/R) sum over retrieved judged relevant r of 1 - min(n_r, R) / min(N, R)."""
    big_r = q.num_rel(rel)
    big_n = q.num_nonrel(rel)
    if big_r == 0:
        return NAN
    total = 0.0
    nonrel_above = 0
    for _, g in items:
        if g < 0:
            continue  # unjudged documents are ignored
        if g >= rel:
            # n_r > 0 implies N > 0, so the denominator is positive whenever it is used.
            total += (
                1.0 if nonrel_above == 0 else 1.0 - min(nonrel_above, big_r) / min(big_n, big_r)
            )
        else:
            nonrel_above += 1
    return total / big_r


INFAP_EPS = 1e-5


def m_infap(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    """Yilmaz & Aslam's inferred AP, as stated in the docstring (trec_eval's infAP)."""
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    total = 0.0
    for idx, (_, g) in enumerate(items):
        if g < rel:
            continue
        j = idx  # documents above
        above = [h for _, h in items[:idx]]
        r_ = sum(1 for h in above if h >= rel)
        n_ = sum(1 for h in above if 0 <= h < rel)
        u_ = sum(1 for h in above if h == UNJUDGED)  # outside the pool (NONPOOL): in j only
        if j == 0:
            total += 1.0
        else:
            total += 1 / (j + 1) + (j / (j + 1)) * ((r_ + n_ + u_) / j) * (
                (r_ + INFAP_EPS) / (r_ + n_ + 2 * INFAP_EPS)
            )
    return total / big_r


def m_iprec(items: Sequence[Item], q: QueryFacts, k: int | None, recall: float, rel: int) -> float:
    """Interpolated precision at a recall level: the best precision at any rank whose recall
    reaches the level, the level being lround(level * R) relevant documents (trec_eval 10);
    0 when the list never reaches it."""
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    need = lround(recall * big_r)
    best = 0.0
    seen = 0
    for i, (_, g) in enumerate(items, start=1):
        if g >= rel:
            seen += 1
        if seen >= need:
            best = max(best, seen / i)
    return best


def m_11pt(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    if q.num_rel(rel) == 0:
        return NAN
    return sum(m_iprec(items, q, None, i / 10, rel) for i in range(11)) / 11


# ---------------------------------------------------------------- graded measures


def gain_of(grade: int, gain: Any) -> float:
    """'linear': g, 'exp': 2^g - 1, or a mapping; grades without a judgment gain 0."""
    if grade < 0:
        return 0.0
    if gain == "linear":
        return float(grade)
    if gain == "exp":
        return 2.0**grade - 1.0
    table = dict(gain)
    if grade not in table:
        if grade == 0:
            return 0.0
        raise KeyError(grade)
    return float(table[grade])


def discount_of(i: int, discount: str, b: float) -> float:
    """Weight of rank i (1-based). 'log2': 1 / log2(i + 1). 'jk': Järvelin & Kekäläinen's
    original, no discount before rank b and 1 / log_b(i) from rank b on."""
    if discount == "log2":
        return 1.0 / math.log2(i + 1)
    if i < b:
        return 1.0
    return 1.0 / (math.log(i) / math.log(b))


def m_dcg(
    items: Sequence[Item], q: QueryFacts, k: int | None, gain: Any, discount: str, b: float
) -> float:
    return sum(
        gain_of(g, gain) * discount_of(i, discount, b)
        for i, (_, g) in enumerate(top(items, k), start=1)
    )


def m_ndcg(
    items: Sequence[Item], q: QueryFacts, k: int | None, gain: Any, discount: str, b: float
) -> float:
    ideal_gains = sorted((gain_of(g, gain) for g in q.judged), reverse=True)
    if k is not None:
        ideal_gains = ideal_gains[:k]
    idcg = sum(x * discount_of(i, discount, b) for i, x in enumerate(ideal_gains, start=1))
    if idcg == 0:
        return NAN
    return m_dcg(items, q, k, gain, discount, b) / idcg


def default_gmax(q: QueryFacts, gmax: int | None) -> int:
    # When the qrels hold no positive grade every (clipped) grade is 0 and all stop
    # probabilities are 0 whatever gmax is; using 1 there only avoids a 0 / 0.
    return gmax if gmax is not None else max(q.qrels_max, 1)


def m_err(items: Sequence[Item], q: QueryFacts, k: int | None, gmax: int | None) -> float:
    """Chapelle et al.: sum_i (1/i) R_i prod_{j<i} (1 - R_j), R_g = (2^g - 1) / 2^gmax."""
    top_grade = default_gmax(q, gmax)
    value = 0.0
    reach = 1.0
    for i, (_, g) in enumerate(top(items, k), start=1):
        stop = (2.0 ** clip(g) - 1.0) / 2.0**top_grade
        value += reach * stop / i
        reach *= 1.0 - stop
    return value


def m_gdeval_ndcg(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    """gdeval.pl: sum (2^g - 1) / log2(i + 1) over the top k, over the same sum for the
    judged grades sorted descending; undefined without a positively judged document."""
    if q.num_rel(1) == 0:
        return NAN
    return m_ndcg(items, q, k, "exp", "log2", 2.0)


def m_gdeval_err(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    """gdeval.pl's ERR: the grade scale fixed at 4; undefined without a positive judgment."""
    if q.num_rel(1) == 0:
        return NAN
    return m_err(items, q, k, 4)


def m_pfound(
    items: Sequence[Item], q: QueryFacts, k: int | None, pbreak: float, gmax: int | None
) -> float:
    top_grade = default_gmax(q, gmax)
    value = 0.0
    look = 1.0
    for _, g in top(items, k):
        prel = clip(g) / top_grade
        value += look * prel
        look *= (1.0 - prel) * (1.0 - pbreak)
    return value


def m_rbp(items: Sequence[Item], q: QueryFacts, k: int | None, p: float, rel: int) -> float:
    return (1 - p) * sum(
        p ** (i - 1) for i, (_, g) in enumerate(top(items, k), start=1) if g >= rel
    )


def m_rbp_resid(items: Sequence[Item], q: QueryFacts, k: int | None, p: float) -> float:
    shown = top(items, k)
    unjudged = sum(p ** (i - 1) for i, (_, g) in enumerate(shown, start=1) if g < 0)
    return p ** len(shown) + (1 - p) * unjudged


# ---------------------------------------------------------------- pairwise and error measures


def _pairs(items: Sequence[Item]) -> Iterator[tuple[Item, Item]]:
    """Every pair (a above b) of the list."""
    return itertools.combinations(items, 2)


def m_discordant(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    return float(sum(1 for (_, ga), (_, gb) in _pairs(top(items, k)) if clip(ga) < clip(gb)))


def m_pairwise_accuracy(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    shown = top(items, k)
    distinct = sum(1 for (_, ga), (_, gb) in _pairs(shown) if clip(ga) != clip(gb))
    if distinct == 0:
        return NAN
    return 1.0 - m_discordant(items, q, k) / distinct


def m_kendall_tau(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    """Kendall's tau-b over the top k: (C - D) / sqrt((n0 - n1)(n0 - n2))."""
    shown = top(items, k)
    n = len(shown)
    n0 = n * (n - 1) // 2
    conc = disc = n1 = n2 = 0
    for (sa, ga), (sb, gb) in _pairs(shown):
        ds = (sa > sb) - (sa < sb)
        dg = (clip(ga) > clip(gb)) - (clip(ga) < clip(gb))
        n1 += ds == 0
        n2 += dg == 0
        conc += ds * dg > 0
        disc += ds * dg < 0
    den = (n0 - n1) * (n0 - n2)
    if den == 0:
        return NAN
    return (conc - disc) / math.sqrt(den)


def m_mse(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    if not items:
        return NAN
    return sum((s - clip(g)) ** 2 for s, g in items) / len(items)


def m_rmse(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    return math.sqrt(m_mse(items, q, k))


# ---------------------------------------------------------------- diversity (one subtopic)
# Ordinary qrels hold one subtopic per query (ndeval reads their second field, 0, as the
# subtopic): a document is relevant to it when its grade is >= rel.


def _one_subtopic(
    items: Sequence[Item], q: QueryFacts, rel: int
) -> tuple[list[frozenset[int]], dict[str, frozenset[int]]]:
    ranking = [frozenset({0}) if g >= rel else frozenset() for _, g in items]
    qrels = {
        f"d{i:05d}": frozenset({0}) if g >= rel else frozenset() for i, g in enumerate(q.judged)
    }
    return ranking, qrels


def m_alpha_dcg(
    items: Sequence[Item], q: QueryFacts, k: int | None, rel: int, alpha: float
) -> float:
    return slow_diversity.alpha_dcg(*_one_subtopic(items, q, rel), 20 if k is None else k, alpha)


def m_alpha_ndcg(
    items: Sequence[Item], q: QueryFacts, k: int | None, rel: int, alpha: float
) -> float:
    return slow_diversity.alpha_ndcg(*_one_subtopic(items, q, rel), 20 if k is None else k, alpha)


def m_err_ia(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int, alpha: float) -> float:
    return slow_diversity.err_ia(*_one_subtopic(items, q, rel), 20 if k is None else k, alpha)


def m_nerr_ia(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int, alpha: float) -> float:
    return slow_diversity.nerr_ia(*_one_subtopic(items, q, rel), 20 if k is None else k, alpha)


def m_nrbp(
    items: Sequence[Item], q: QueryFacts, k: None, rel: int, alpha: float, beta: float
) -> float:
    return slow_diversity.nrbp(*_one_subtopic(items, q, rel), alpha, beta)


def m_nnrbp(
    items: Sequence[Item], q: QueryFacts, k: None, rel: int, alpha: float, beta: float
) -> float:
    return slow_diversity.nnrbp(*_one_subtopic(items, q, rel), alpha, beta)


def m_p_ia(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    return slow_diversity.p_ia(*_one_subtopic(items, q, rel), 20 if k is None else k)


def m_subtopic_recall(items: Sequence[Item], q: QueryFacts, k: int | None, rel: int) -> float:
    return slow_diversity.subtopic_recall(*_one_subtopic(items, q, rel), 20 if k is None else k)


def m_map_ia(items: Sequence[Item], q: QueryFacts, k: None, rel: int) -> float:
    return slow_diversity.map_ia(*_one_subtopic(items, q, rel))
