"""Slow references for the preference metrics (``assay.ranking.measures.preferences``): every
ordered pair of judged documents examined one by one, as trec_eval's form_prefs_counts.c and
m_prefs_avgjg_Rnonrel*.c describe them, for one query at a time.

A query's judged documents get internal ranks: the retrieved judged ones 0, 1, ... in rank
order, then the unretrieved ones (``QueryFacts.judged`` minus the retrieved grades).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from references.slow_ranking import NAN, Item, QueryFacts

Doc = tuple[int, int]  # (internal rank, grade)


def _docs(items: Sequence[Item], q: QueryFacts) -> tuple[list[Doc], int]:
    ret = [g for _, g in items if g >= 0]
    rest = Counter(q.judged)
    rest.subtract(Counter(ret))
    unret = sorted(rest.elements())
    docs = [(i, g) for i, g in enumerate(ret)]
    docs += [(len(ret) + j, g) for j, g in enumerate(unret)]
    return docs, len(ret)


def _counts(docs: list[Doc], njr: int) -> dict[str, int]:
    c = dict.fromkeys(("ful_ret", "poss_ret", "ful_imp", "poss_imp", "notocc"), 0)
    for ra, ga in docs:
        for rb, gb in docs:
            if not ga > gb:
                continue
            if ra < rb:
                key = "ful_ret" if rb < njr else "ful_imp" if ra < njr else "notocc"
            else:
                key = "poss_ret" if ra < njr else "poss_imp" if rb < njr else "notocc"
            c[key] += 1
    c["poss_ret"] += c["ful_ret"]
    c["poss_imp"] += c["ful_imp"]
    return c


def _ratio(ful: int, poss: int) -> float:
    return ful / poss if poss else NAN


def m_pref_pairs(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    c = _counts(*_docs(items, q))
    return float(c["poss_ret"] + c["poss_imp"] + c["notocc"])


def m_pref_fulfilled(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    c = _counts(*_docs(items, q))
    return float(c["ful_ret"] + c["ful_imp"])


def m_pref_fulfilled_ret(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    return float(_counts(*_docs(items, q))["ful_ret"])


def m_pref_agreement(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    c = _counts(*_docs(items, q))
    return _ratio(c["ful_ret"] + c["ful_imp"], c["poss_ret"] + c["poss_imp"] + c["notocc"])


def m_pref_agreement_ret(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    c = _counts(*_docs(items, q))
    return _ratio(c["ful_ret"], c["poss_ret"])


def m_pref_agreement_imp(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    c = _counts(*_docs(items, q))
    return _ratio(c["ful_ret"] + c["ful_imp"], c["poss_ret"] + c["poss_imp"])


def _recount(docs: list[Doc], keep_n: int, njr: int, retrieved_only: bool) -> float:
    """trec_eval's recount when non-relevant documents outnumber relevant ones: pairs of the
    classes above the lowest, then every document against the first ``keep_n`` of the lowest
    class (itself included)."""
    if retrieved_only:
        docs = [d for d in docs if d[0] < njr]
    lowest = min(g for _, g in docs) if docs else 0
    keep = sorted(d for d in docs if d[1] == lowest)[:keep_n]
    if retrieved_only:
        keep = [d for d in keep if d[0] < njr]
    ful = poss = 0

    def add(ra: int, rb: int) -> None:
        nonlocal ful, poss
        if ra < rb and (retrieved_only or ra < njr):
            ful += 1
        else:
            poss += 1

    for ra, ga in docs:
        for rb, gb in docs:
            if ga > gb and gb != lowest:
                add(ra, rb)
    for ra, _ in docs:
        for rb, _ in keep:
            add(ra, rb)
    return _ratio(ful, ful + poss)


def m_pref_agreement_balanced(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    docs, njr = _docs(items, q)
    c = _counts(docs, njr)
    big_r = sum(1 for _, g in docs if g > 0)
    big_n = len(docs) - big_r
    if big_r >= big_n:
        rel_ret = sum(1 for r, g in docs if g > 0 and r < njr)
        ful = c["ful_ret"] + c["ful_imp"] + rel_ret * (big_r - big_n)
        poss = c["poss_ret"] + c["poss_imp"] + c["notocc"] + big_r * (big_r - big_n)
        return _ratio(ful, poss)
    return _recount(docs, big_r, njr, retrieved_only=False)


def m_pref_agreement_balanced_ret(items: Sequence[Item], q: QueryFacts, k: int | None) -> float:
    docs, njr = _docs(items, q)
    c = _counts(docs, njr)
    big_r = sum(1 for r, g in docs if g > 0 and r < njr)
    big_n = sum(1 for r, g in docs if g == 0 and r < njr)
    if big_r >= big_n:
        num_rel = sum(1 for _, g in docs if g > 0)
        return _ratio(
            c["ful_ret"] + big_r * (big_r - big_n), c["poss_ret"] + num_rel * (big_r - big_n)
        )
    return _recount(docs, big_r, njr, retrieved_only=True)


PREF_MEASURES = {
    "pref_pairs": (m_pref_pairs, "sum"),
    "pref_fulfilled": (m_pref_fulfilled, "sum"),
    "pref_fulfilled_ret": (m_pref_fulfilled_ret, "sum"),
    "pref_agreement": (m_pref_agreement, "mean"),
    "pref_agreement_ret": (m_pref_agreement_ret, "mean"),
    "pref_agreement_imp": (m_pref_agreement_imp, "mean"),
    "pref_agreement_balanced": (m_pref_agreement_balanced, "mean"),
    "pref_agreement_balanced_ret": (m_pref_agreement_balanced_ret, "mean"),
}
