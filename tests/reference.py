"""Slow, plain-Python reference implementations of every metric in ``assay.metrics.REGISTRY``.

Written per query, with loops, from the formulas in the metric docstrings and the literature —
deliberately *not* by transcribing the vectorised kernels — so that the property tests in
``test_reference.py`` can check the kernels against something independent.

Inputs
------
``qrels``: ``{query: {doc: grade}}`` exactly as judged (a negative grade means "pooled but not
judged"). ``run``: a list of ``(query, doc, score)`` rows *in input order*. A query's ranked
list is the run's rows for that query; each row becomes ``(doc, score, grade-or-None)`` where
the grade is the query's qrels grade (``None`` if the document is not in the query's qrels).

Grades inside the reference (as in trec_eval and ``assay.metrics._context``):

* ``g >= 0``      judged, with that grade;
* ``NONPOOL = -1``  not in the query's qrels;
* ``UNJUDGED = -2`` in the qrels with a negative grade (pooled, never judged).

Graded measures treat both negative kinds as grade 0 with gain 0; binary measures count a
document relevant when ``g >= rel`` (so never for negative kinds, as ``rel >= 0``).

Conventions
-----------
``ties``: ``"docno"`` (score descending, then docno descending byte order), ``"input"`` (score
descending, then input order), ``"average"`` (the expected value over all orders of tied
documents, computed by brute force: every arrangement of every tie group is enumerated and the
metric averaged). ``judged_only`` drops every document without a judgment (``g < 0``) before
ranking. ``missing`` and ``no_relevant`` are applied afterwards, see :func:`evaluate_query`.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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


# ---------------------------------------------------------------- the catalogue


@dataclass(frozen=True)
class RefMetric:
    fn: Callable[..., float]
    defaults: Mapping[str, Any]
    cutoff: bool  # accepts @k
    average_ties: bool  # has an exact ties='average' implementation in assay
    aggregate: str = "mean"  # mean | sum | gmean
    from_qrels: bool = False  # depends on the qrels only (kept for missing queries)
    pairwise: bool = False  # assay refuses ties='average' together with a cutoff


REFERENCE: dict[str, RefMetric] = {
    "P": RefMetric(m_precision, {"rel": 1}, True, True),
    "R": RefMetric(m_recall, {"rel": 1}, True, True),
    "F": RefMetric(m_f, {"rel": 1, "beta": 1.0}, True, True),
    "AP": RefMetric(m_ap, {"rel": 1}, True, True),
    "gm_map": RefMetric(m_ap, {"rel": 1}, False, True, aggregate="gmean"),
    "Rprec": RefMetric(m_rprec, {"rel": 1}, False, True),
    "RR": RefMetric(m_rr, {"rel": 1}, True, True),
    "success": RefMetric(m_success, {"rel": 1}, True, True),
    "num_ret": RefMetric(m_num_ret, {}, False, True, aggregate="sum"),
    "num_rel": RefMetric(m_num_rel, {"rel": 1}, False, True, aggregate="sum", from_qrels=True),
    "num_rel_ret": RefMetric(m_num_rel_ret, {"rel": 1}, False, True, aggregate="sum"),
    "judged": RefMetric(m_judged, {}, True, True),
    "relative_P": RefMetric(m_relative_p, {"rel": 1}, True, True),
    "set_map": RefMetric(m_set_map, {"rel": 1}, False, True),
    "num_nonrel_judged_ret": RefMetric(
        m_num_nonrel_judged_ret, {"rel": 1}, False, True, aggregate="sum"
    ),
    "unjudged": RefMetric(m_unjudged, {}, True, True),
    "binG": RefMetric(m_bing, {"rel": 1}, False, False),
    "bpref": RefMetric(m_bpref, {"rel": 1}, False, False),
    "infAP": RefMetric(m_infap, {"rel": 1}, False, False),
    "iprec": RefMetric(m_iprec, {"recall": 0.0, "rel": 1}, False, False),
    "11pt_avg": RefMetric(m_11pt, {"rel": 1}, False, False),
    "dcg": RefMetric(m_dcg, {"gain": "linear", "discount": "log2", "b": 2.0}, True, True),
    "ndcg": RefMetric(m_ndcg, {"gain": "linear", "discount": "log2", "b": 2.0}, True, True),
    "err": RefMetric(m_err, {"gmax": None}, True, False),
    "pfound": RefMetric(m_pfound, {"pbreak": 0.15, "gmax": None}, True, False),
    "rbp": RefMetric(m_rbp, {"p": 0.8, "rel": 1}, True, True),
    "rbp_resid": RefMetric(m_rbp_resid, {"p": 0.8}, True, True),
    "discordant_pairs": RefMetric(m_discordant, {}, True, True, pairwise=True),
    "pairwise_accuracy": RefMetric(m_pairwise_accuracy, {}, True, True, pairwise=True),
    "kendall_tau": RefMetric(m_kendall_tau, {}, True, True, pairwise=True),
    "mse": RefMetric(m_mse, {}, False, True),
    "rmse": RefMetric(m_rmse, {}, False, True),
}


@dataclass(frozen=True)
class Setting:
    """One metric with its parameters bound."""

    name: str
    k: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ref(self) -> RefMetric:
        return REFERENCE[self.name]

    def kwargs(self) -> dict[str, Any]:
        out = dict(self.ref.defaults)
        out.update(self.params)
        return out

    def value(self, items: Sequence[Item], q: QueryFacts) -> float:
        return self.ref.fn(items, q, self.k, **self.kwargs())

    def __hash__(self) -> int:
        return hash((self.name, self.k, repr(sorted(self.params.items()))))

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return self.name + (f"({inner})" if inner else "") + (f"@{self.k}" if self.k else "")


# ---------------------------------------------------------------- ranking under the conventions


Row = tuple[str, float, int | None]  # (doc, score, qrels grade or None), in input order


def byte_key(doc: str) -> bytes:
    return doc.encode("utf-8")


def rank_rows(rows: Sequence[Row], ties: str) -> list[Row]:
    """One ranked list for ties='docno' or 'input' (Python's sort is stable)."""
    if ties == "docno":
        by_doc = sorted(rows, key=lambda r: byte_key(r[0]), reverse=True)
        return sorted(by_doc, key=lambda r: -r[1])
    if ties == "input":
        return sorted(rows, key=lambda r: -r[1])
    raise ValueError(ties)


def tie_groups(rows: Sequence[Row]) -> list[list[Item]]:
    """Items grouped by equal score, groups in descending score order."""
    groups: list[list[Item]] = []
    for doc_score in sorted({r[1] for r in rows}, reverse=True):
        groups.append([(s, encode_grade(g)) for _, s, g in rows if s == doc_score])
    return groups


def multiset_permutations(items: Sequence[Item]) -> Iterator[tuple[Item, ...]]:
    """Every distinct arrangement of ``items`` once.

    Metrics see only (score, grade), so two documents of a tie group with the same grade are
    interchangeable. Each distinct arrangement is produced by exactly prod(c!) of the m!
    permutations of the group (c the multiplicities), the same number for every arrangement, so
    the uniform average over distinct arrangements equals the uniform average over all m!
    permutations. (``test_reference`` checks this against ``itertools.permutations``.)
    """
    counts = Counter(items)
    keys = sorted(counts)
    prefix: list[Item] = []

    def rec(left: int) -> Iterator[tuple[Item, ...]]:
        if left == 0:
            yield tuple(prefix)
            return
        for key in keys:
            if counts[key]:
                counts[key] -= 1
                prefix.append(key)
                yield from rec(left - 1)
                prefix.pop()
                counts[key] += 1

    return rec(len(items))


def all_permutations(items: Sequence[Item]) -> Iterator[tuple[Item, ...]]:
    return itertools.permutations(items)


def arrangements(rows: Sequence[Row], *, distinct: bool = True) -> Iterator[list[Item]]:
    """Every order of the tied documents (ties='average'), each equally likely."""
    perms = multiset_permutations if distinct else all_permutations
    per_group = [list(perms(g)) for g in tie_groups(rows)]
    for combo in itertools.product(*per_group):
        yield [item for group in combo for item in group]


def n_arrangements(rows: Sequence[Row]) -> int:
    """How many distinct arrangements ties='average' would enumerate."""
    total = 1
    for group in tie_groups(rows):
        count = math.factorial(len(group))
        for c in Counter(group).values():
            count //= math.factorial(c)
        total *= count
    return total


def ranked_items(rows: Sequence[Row], ties: str) -> list[Item]:
    return [(s, encode_grade(g)) for _, s, g in rank_rows(rows, ties)]


def raw_values(
    rows: Sequence[Row],
    q: QueryFacts,
    settings: Sequence[Setting],
    ties: str,
    *,
    distinct: bool = True,
) -> dict[Setting, float]:
    """Metric values of one query's list before the missing / no_relevant conventions."""
    if ties != "average":
        items = ranked_items(rows, ties)
        return {s: s.value(items, q) for s in settings}
    sums = dict.fromkeys(settings, 0.0)
    nans = dict.fromkeys(settings, 0)
    count = 0
    for items in arrangements(rows, distinct=distinct):
        count += 1
        for s in settings:
            v = s.value(items, q)
            if math.isnan(v):
                nans[s] += 1
            else:
                sums[s] += v
    out = {}
    for s in settings:
        # Whether a metric is defined never depends on the order of tied documents.
        assert nans[s] in (0, count), f"{s}: undefined for some orders only"
        out[s] = NAN if nans[s] else sums[s] / count
    return out


# ---------------------------------------------------------------- collections and conventions


@dataclass(frozen=True)
class Conv:
    ties: str = "docno"
    missing: str = "zero"
    no_relevant: str = "zero"
    judged_only: bool = False
    short_queries: str = "score"

    def kwargs(self) -> dict[str, Any]:
        return {
            "ties": self.ties,
            "missing": self.missing,
            "no_relevant": self.no_relevant,
            "judged_only": self.judged_only,
            "short_queries": self.short_queries,
        }


def query_rows(
    qrels: Mapping[str, Mapping[str, int]], run: Sequence[tuple[str, str, float]], query: str
) -> list[Row]:
    judged = qrels[query]
    return [(d, s, judged.get(d)) for q, d, s in run if q == query]


def facts(qrels: Mapping[str, Mapping[str, int]], query: str) -> QueryFacts:
    qmax = max(g for grades in qrels.values() for g in grades.values())
    return QueryFacts(tuple(g for g in qrels[query].values() if g >= 0), qmax)


def raw_collection(
    qrels: Mapping[str, Mapping[str, int]],
    run: Sequence[tuple[str, str, float]],
    settings: Sequence[Setting],
    ties: str,
    judged_only: bool,
) -> dict[str, tuple[bool, dict[Setting, float], int]]:
    """Per qrels query: (has results in the run, raw metric values).

    A query "has results" when the run holds rows for it, before judged_only drops the
    unjudged ones (trec_eval -J still evaluates such a query, on an empty list). Run queries
    absent from the qrels are ignored. The third item is the query's number of judged
    documents (grade >= 0), which short_queries compares with the cutoff.
    """
    out = {}
    for query in qrels:
        rows = query_rows(qrels, run, query)
        present = bool(rows)
        if judged_only:
            rows = [r for r in rows if r[2] is not None and r[2] >= 0]
        judged = sum(1 for g in qrels[query].values() if g >= 0)
        out[query] = (present, raw_values(rows, facts(qrels, query), settings, ties), judged)
    return out


def apply_conventions(
    raw: Mapping[str, tuple[bool, Mapping[Setting, float], int]], setting: Setting, conv: Conv
) -> dict[str, float]:
    """Per-query values after the missing and no_relevant conventions.

    missing='zero': a qrels query without results is scored as an empty ranking (0 for most
    metrics, 1 for rbp_resid; num_rel comes from the qrels alone); where the metric is
    undefined for it (e.g. AP with R = 0) no_relevant decides, as for any other query. missing='skip': such queries are left out. Undefined values become 0
    (no_relevant='zero'), 1 ('one'), are left out ('skip') or stay NaN ('nan').
    short_queries='skip' first leaves out, for a setting with a cutoff k, every query with
    fewer than k judged documents.
    """
    out = {}
    for query, (present, values, judged) in raw.items():
        if not present and conv.missing == "skip":
            continue
        if conv.short_queries == "skip" and setting.k is not None and judged < setting.k:
            continue
        v = values[setting]
        if math.isnan(v):
            if conv.no_relevant == "skip":
                continue
            v = {"zero": 0.0, "one": 1.0, "nan": NAN}[conv.no_relevant]
        out[query] = v
    return out


def aggregate(values: Sequence[float], how: str) -> float:
    """Mean, floored geometric mean, or sum; the mean over no queries is undefined, a sum is 0."""
    if how == "sum":
        return math.fsum(values)
    if not values:
        return NAN
    if how == "gmean":
        return math.exp(sum(math.log(max(v, 1e-5)) for v in values) / len(values))
    return math.fsum(values) / len(values)


def evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    run: Sequence[tuple[str, str, float]],
    settings: Sequence[Setting],
    conv: Conv,
) -> dict[Setting, dict[str, float]]:
    """Reference per-query values for every setting under one set of conventions."""
    raw = raw_collection(qrels, run, settings, conv.ties, conv.judged_only)
    return {s: apply_conventions(raw, s, conv) for s in settings}
