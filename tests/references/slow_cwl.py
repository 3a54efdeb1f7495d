"""Slow, plain-Python references for the C/W/L measures and Compat, one query at a time.

Written from the definitions (Moffat et al.'s C/W/L framework as cwl_eval reports it;
Clarke, Vtyurina & Smucker's compatibility as ir_measures computes it), with loops over
ranks, not by transcribing the matrix kernels of ``assay.ranking.measures.cwl`` and
``compatibility``. Same calling convention as the other references: ``f(items, q, k,
**params)`` with ``items`` the ranked list as ``(score, grade)`` pairs (grade >= 0 judged,
-1 not in the qrels, -2 pooled but unjudged) and ``q`` the query's facts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

NONPOOL = -1

Item = tuple[float, int]
# continuation: gains g_1..g_N -> C_1..C_N
Continuation = Callable[[list[float]], list[float]]


def _gains(
    items: Sequence[Item], q: Any, min_rel: int, max_rel: int | None, depth: int, best: bool
) -> list[float]:
    """g_1..g_depth: judged grades mapped onto [0, 1]; a document absent from the qrels and
    every rank past the list gain 0 (1 in the best case)."""
    top = max(q.qrels_max, min_rel + 1) if max_rel is None else max_rel
    out = []
    for i in range(depth):
        if i >= len(items) or items[i][1] == NONPOOL:
            out.append(1.0 if best else 0.0)
            continue
        g = min(max(max(items[i][1], 0), min_rel), top)
        out.append((g - min_rel) / (top - min_rel))
    return out


def _measure(gains: list[float], cont: Continuation, quantity: str) -> float:
    n = len(gains)
    c = cont(gains)
    reach = [1.0]
    for i in range(1, n):
        reach.append(reach[-1] * c[i - 1])
    total = sum(reach)
    if quantity == "ED":
        return total
    w = [x / total for x in reach]
    if quantity == "EU":
        return sum(w[i] * gains[i] for i in range(n))
    if quantity == "EC":
        return sum(w)
    value = 0.0
    got = 0.0
    for i in range(n):
        got += gains[i] if quantity == "ETU" else 1.0
        value += reach[i] * (1.0 - c[i]) * got
    return value


def cwl_value(
    items: Sequence[Item],
    q: Any,
    cont: Continuation,
    *,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> float:
    worst = _measure(_gains(items, q, min_rel, max_rel, depth, False), cont, quantity)
    if not residual:
        return worst
    return _measure(_gains(items, q, min_rel, max_rel, depth, True), cont, quantity) - worst


def _each(rule: Callable[[int, float, float], float]) -> Continuation:
    """C_i = rule(i, g_i, g_1 + ... + g_i) for every rank i from 1."""

    def cont(gains: list[float]) -> list[float]:
        out, got = [], 0.0
        for i, g in enumerate(gains, start=1):
            got += g
            out.append(rule(i, g, got))
        return out

    return cont


def m_inst(items: Sequence[Item], q: Any, k: int | None, T: float, **o: Any) -> float:
    def rule(i: int, g: float, got: float) -> float:
        left = T - got
        return ((i + T + left - 1) / (i + T + left)) ** 2

    return cwl_value(items, q, _each(rule), **o)


def _insq(i: int, t: float) -> float:
    return ((i + 2 * t - 1) / (i + 2 * t)) ** 2


def m_insq(items: Sequence[Item], q: Any, k: int | None, T: float, **o: Any) -> float:
    return cwl_value(items, q, _each(lambda i, g, got: _insq(i, T)), **o)


def _bpm(goal_step: Callable[[float], float], T: float, budget: int) -> Continuation:
    """Go on while the gain so far is below the goal and fewer than ``budget`` documents
    are read; once stopped, stopped. The goal moves by goal_step(g_i) after rank i."""

    def cont(gains: list[float]) -> list[float]:
        out, got, goal, going = [], 0.0, T, True
        for i, g in enumerate(gains, start=1):
            got += g
            going = going and got < goal and i < budget
            out.append(1.0 if going else 0.0)
            goal = goal + goal_step(g)
        return out

    return cont


def m_bpm(items: Sequence[Item], q: Any, k: int | None, T: float, **o: Any) -> float:
    budget = o["depth"] if k is None else k
    return cwl_value(items, q, _bpm(lambda g: 0.0, T, budget), **o)


def m_bpm_dynamic(
    items: Sequence[Item],
    q: Any,
    k: int | None,
    T: float,
    hb: float,
    gain_med: float,
    **o: Any,
) -> float:
    budget = o["depth"] if k is None else k
    return cwl_value(items, q, _bpm(lambda g: hb * (g - gain_med), T, budget), **o)


def m_sdcg(items: Sequence[Item], q: Any, k: int | None, **o: Any) -> float:
    cut = o["depth"] if k is None else k
    # W_i proportional to 1 / log2(i + 1) up to rank k: C_i is the ratio of consecutive ones.
    rule = _each(lambda i, g, got: math.log2(i + 1) / math.log2(i + 2) if i < cut else 0.0)
    return cwl_value(items, q, rule, **o)


def m_nerr8(items: Sequence[Item], q: Any, k: int | None, **o: Any) -> float:
    cut = o["depth"] if k is None else k
    return cwl_value(items, q, _each(lambda i, g, got: 1 - g if i < cut else 0.0), **o)


def m_nerr9(items: Sequence[Item], q: Any, k: int | None, **o: Any) -> float:
    cut = o["depth"] if k is None else k
    rule = _each(lambda i, g, got: i / (i + 1) * (1 - g) if i < cut else 0.0)
    return cwl_value(items, q, rule, **o)


def m_nerr10(items: Sequence[Item], q: Any, k: int | None, p: float, **o: Any) -> float:
    return cwl_value(items, q, _each(lambda i, g, got: p * (1 - g)), **o)


def m_nerr11(items: Sequence[Item], q: Any, k: int | None, T: float, **o: Any) -> float:
    return cwl_value(items, q, _each(lambda i, g, got: _insq(i, T) * (1 - g)), **o)


def _rbo(a: Sequence[Any], b: Sequence[Any], p: float, depth: int) -> float:
    """Prefix overlaps / depth, weighted p^(d-1) and normalised by the weights (no
    extrapolation)."""
    num = den = 0.0
    for d in range(1, depth + 1):
        num += p ** (d - 1) * len(set(a[:d]) & set(b[:d])) / d
        den += p ** (d - 1)
    return num / den if den else 0.0


def m_compat(items: Sequence[Item], q: Any, k: int | None, p: float, normalize: bool) -> float:
    run = list(range(len(items)))  # documents as their rank
    retrieved: dict[int, int] = {}
    ideal: list[tuple[tuple[float, ...], Any]] = []
    for i, (score, grade) in enumerate(items):
        if grade > 0:
            retrieved[grade] = retrieved.get(grade, 0) + 1
            # grade, then score (unretrieved: 0), a retrieved document before unretrieved ones.
            ideal.append(((-grade, -score, 0, i), i))
    for grade in set(q.judged):
        if grade > 0:
            for j in range(sum(1 for g in q.judged if g == grade) - retrieved.get(grade, 0)):
                ideal.append(((-grade, 0.0, 1, j), ("unretrieved", grade, j)))
    order = [doc for _, doc in sorted(ideal, key=lambda x: x[0])]
    depth = max(len(run), len(order))
    value = _rbo(run, order, p, depth)
    if normalize:
        best = _rbo(order, order, p, depth)
        return value / best if best > 0 else value
    return value


_COMMON = {"min_rel": 0, "max_rel": None, "depth": 1000, "quantity": "EU", "residual": False}
# name -> (reference, defaults, accepts @k)
CWL_MEASURES: dict[str, tuple[Any, dict[str, Any], bool]] = {
    "INST": (m_inst, {"T": 1.0, **_COMMON}, False),
    "INSQ": (m_insq, {"T": 1.0, **_COMMON}, False),
    "BPM": (m_bpm, {"T": 1.0, **_COMMON}, True),
    "BPM_dynamic": (m_bpm_dynamic, {"T": 1.0, "hb": 1.0, "gain_med": 0.5, **_COMMON}, True),
    "SDCG": (m_sdcg, dict(_COMMON), True),
    "NERR8": (m_nerr8, dict(_COMMON), True),
    "NERR9": (m_nerr9, dict(_COMMON), True),
    "NERR10": (m_nerr10, {"p": 0.9, **_COMMON}, False),
    "NERR11": (m_nerr11, {"T": 1.0, **_COMMON}, False),
    "Compat": (m_compat, {"p": 0.95, "normalize": True}, False),
}
