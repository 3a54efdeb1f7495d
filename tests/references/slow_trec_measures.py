"""Slow, plain-Python references for trec_eval's own measures in the catalogue (G, ndcg_rel,
Rndcg, Rprec_mult, utility, gm_bpref, relstring) and RBP's gains, one query at a time.

Written from the definitions (trec_eval's measure documentation and Buckley's descriptions),
with loops, not by transcribing the vectorised kernels of ``assay.ranking.measures.trec``.
Same calling convention as the other references: ``f(items, q, k, **params)`` with ``items``
the ranked list as ``(score, grade)`` pairs (grade >= 0 judged, -1 not in the qrels, -2
pooled but unjudged) and ``q`` the query's facts (``q.judged``: the grades >= 0 of every
judged document of the query; ``q.num_rel(rel)``, ``q.num_nonrel(rel)``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

NAN = float("nan")
NONPOOL = -1
UNJUDGED = -2

Item = tuple[float, int]


def gain_of(grade: int, table: Any) -> float:
    """A judged grade's gain ('linear': g, 'exp': 2^g - 1, or a map); unjudged: 0."""
    if grade < 0:
        return 0.0
    if table == "linear":
        return float(grade)
    if table == "exp":
        return 2.0**grade - 1.0
    mapping = dict(table)
    if grade not in mapping and grade != 0:
        raise KeyError(grade)
    return float(mapping.get(grade, 0.0))


def ideal_gains(q: Any, table: Any) -> list[float]:
    """Positive gains of the query's judged documents, largest first."""
    return sorted((g for g in (gain_of(x, table) for x in q.judged) if g > 0), reverse=True)


def dcg_at(values: Sequence[float], depth: int) -> float:
    return sum(v / math.log2(i + 2) for i, v in enumerate(values[:depth]))


def m_g(items: Sequence[Item], q: Any, k: int | None, gain: Any) -> float:
    ideal = ideal_gains(q, gain)
    if not ideal:
        return NAN
    value = got = cost = 0.0
    for i, (_, grade) in enumerate(items):
        r = gain_of(grade, gain)
        got += r
        cost += max(ideal[i], 1.0) if i < len(ideal) else 1.0
        if r != 0:
            value += r / math.log2(2.0 + cost - got)
    return value / sum(ideal)


def m_ndcg_rel(items: Sequence[Item], q: Any, k: int | None, gain: Any) -> float:
    ideal = ideal_gains(q, gain)
    if not ideal:
        return NAN
    rs = [gain_of(g, gain) for _, g in items]
    total = 0.0
    found = 0
    for i, r in enumerate(rs):
        if r > 0:
            total += dcg_at(rs, i + 1) / dcg_at(ideal, i + 1)
            found += 1
    total += (len(ideal) - found) * dcg_at(rs, len(rs)) / dcg_at(ideal, len(ideal))
    return total / len(ideal)


def m_rndcg(items: Sequence[Item], q: Any, k: int | None, gain: Any) -> float:
    ideal = ideal_gains(q, gain)
    if not ideal:
        return NAN
    rs = [gain_of(g, gain) for _, g in items]
    n, big_l = len(rs), len(ideal)
    points = [p for p in range(1, big_l + 1) if p == big_l or ideal[p] != ideal[p - 1]]
    values = [dcg_at(rs, min(p, n)) / dcg_at(ideal, p) for p in points]
    if n > big_l:
        values.append(dcg_at(rs, n) / dcg_at(ideal, big_l))
    return sum(values) / len(values)


def m_rprec_mult(items: Sequence[Item], q: Any, k: int | None, mult: float, rel: int) -> float:
    big_r = q.num_rel(rel)
    if big_r == 0:
        return NAN
    cut = math.floor(mult * big_r + 0.9)
    if cut < 1:
        return 0.0
    return sum(1 for _, g in items[:cut] if g >= rel) / cut


def m_utility(
    items: Sequence[Item],
    q: Any,
    k: int | None,
    rel_ret: float,
    nonrel_ret: float,
    rel_unret: float,
    nonrel_unret: float,
    collection_size: int,
    rel: int,
) -> float:
    found = sum(1 for _, g in items if g >= rel)
    n, big_r = len(items), q.num_rel(rel)
    return (
        rel_ret * found
        + nonrel_ret * (n - found)
        + rel_unret * (big_r - found)
        + nonrel_unret * (collection_size + found - n - big_r)
    )


def m_bpref_again(items: Sequence[Item], q: Any, k: int | None, rel: int) -> float:
    """bpref as trec_eval computes it (for gm_bpref, whose per-query values are bpref)."""
    big_r, big_n = q.num_rel(rel), q.num_nonrel(rel)
    if big_r == 0:
        return NAN
    total = 0.0
    nonrel_above = 0
    for _, g in items:
        if g < 0:
            continue
        if g < rel:
            nonrel_above += 1
        elif nonrel_above == 0:
            total += 1.0
        else:
            total += 1.0 - min(nonrel_above, big_r) / min(big_n, big_r)
    return total / big_r


def m_relstring(items: Sequence[Item], q: Any, k: int | None, depth: int) -> str:
    out = []
    for _, g in items[:depth]:
        if g > 9:
            out.append(">")
        elif g >= 0:
            out.append(str(g))
        elif g == NONPOOL:
            out.append("-")
        elif g == UNJUDGED:
            out.append(".")
        else:
            out.append("<")
    return "".join(out)


def rbp_gain(grade: int, q: Any, table: Any, rel: int) -> float:
    """RBP's gain: binary (grade >= rel), 'scaled' (grade / max(1, the query's top grade),
    trec_eval's), or a gain map rescaled to [0, 1] when a gain exceeds 1."""
    if table == "binary":
        return 1.0 if grade >= rel else 0.0
    if grade < 0:
        return 0.0
    if table == "scaled":
        return grade / max(1, max(q.judged, default=0))
    mapping: Mapping[int, float] = dict(table)
    values = list(mapping.values()) + ([] if 0 in mapping else [0.0])
    lo, hi = min(values), max(values)
    g = mapping.get(grade, 0.0)
    return (g - lo) / (hi - lo) if hi > 1 else g


def m_rbp_any(items: Sequence[Item], q: Any, k: int | None, p: float, gain: Any, rel: int) -> float:
    shown = items if k is None else items[:k]
    return (1 - p) * sum(rbp_gain(g, q, gain, rel) * p**i for i, (_, g) in enumerate(shown))


GAIN_DEFAULT = {"gain": "linear"}

#: name -> (function, default parameters, takes a cutoff, exact under ties='average',
#: aggregate), as the catalogue of the reference module expects them.
TREC_MEASURES: dict[str, tuple[Any, dict[str, Any], bool, bool, str]] = {
    "G": (m_g, GAIN_DEFAULT, False, False, "mean"),
    "ndcg_rel": (m_ndcg_rel, GAIN_DEFAULT, False, False, "mean"),
    "Rndcg": (m_rndcg, GAIN_DEFAULT, False, False, "mean"),
    "Rprec_mult": (m_rprec_mult, {"mult": 1.0, "rel": 1}, False, True, "mean"),
    "utility": (
        m_utility,
        {
            "rel_ret": 1.0,
            "nonrel_ret": -1.0,
            "rel_unret": 0.0,
            "nonrel_unret": 0.0,
            "collection_size": 0,
            "rel": 1,
        },
        False,
        True,
        "mean",
    ),
    "gm_bpref": (m_bpref_again, {"rel": 1}, False, False, "gmean"),
    "relstring": (m_relstring, {"depth": 10}, False, False, "none"),
}
