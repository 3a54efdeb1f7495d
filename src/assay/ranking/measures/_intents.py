"""The (ranked row, subtopic) judgments the diversity measures share, vectorised: the run's
relevant pairs with how often their subtopic was seen before, the number of subtopics per
query, and ndeval's greedy ideal ranking -- each computed once per ranked collection.

Every floating-point step follows ndeval.c's order of operations (gains by repeated
multiplication, per-row gains added in subtopic order, per-query sums in rank order), so the
values are those of ndeval's C code bit for bit.

Without subtopic judgments (ordinary qrels) every judgment is of one subtopic, as ndeval reads
ordinary qrels (their second field, 0, is the subtopic).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..._arrow import from_np, to_np
from ...data.ranked import Ranked
from ...data.subtopics import expand

__all__ = [
    "Judgments",
    "decays",
    "discounts",
    "ideal_ideal",
    "judgments",
    "powers",
]


def powers(base: float, n: int) -> np.ndarray:
    """``base**i`` for i < n by repeated multiplication from 1.0, as ndeval updates a gain."""
    out = np.empty(max(n, 1), dtype=np.float64)
    value = 1.0
    for i in range(len(out)):
        out[i] = value
        value *= base
    return out[:n] if n else out[:0]


def decays(beta: float, n: int) -> np.ndarray:
    """NRBP's rank discount ``beta**i`` (repeated multiplication)."""
    return powers(beta, n)


def discounts(n: int) -> np.ndarray:
    """ndeval's DCG discount ``log(2) / log(i + 2)`` of 0-based rank i, with C's ``log``."""
    return np.array([math.log(2.0) / math.log(i + 2.0) for i in range(n)], dtype=np.float64)


def ideal_ideal(n_sub: np.ndarray, k: int, alpha: float, weight: np.ndarray) -> np.ndarray:
    """ndeval's collection-independent normaliser at cutoff k: the cumulated gain of a list
    whose i-th document covers every subtopic, S * (1 - alpha)^i * weight[i]."""
    gain = n_sub.astype(np.float64)
    acc = np.zeros(len(n_sub), dtype=np.float64)
    for i in range(k):
        term = gain * weight[i]
        acc = term if i == 0 else term + acc
        gain = gain * (1.0 - alpha)
    return acc


@dataclass(frozen=True)
class Judgments:
    """The relevant (ranked row, subtopic) pairs and the per-query subtopic statistics.

    ``row``/``seen`` are sorted by row then subtopic; ``seg``, the (query, subtopic) group of
    every pair, indexes ``nrel`` (relevant qrels documents of that subtopic) and ``seg_query``.
    """

    row: np.ndarray
    seen: np.ndarray
    seg: np.ndarray
    nrel: np.ndarray
    seg_query: np.ndarray
    n_sub: np.ndarray
    # the qrels' positive (document, subtopic) pairs, for the ideal ranking
    ideal_doc: np.ndarray
    ideal_seg: np.ndarray
    doc_query: np.ndarray
    doc_key: np.ndarray


def judgments(r: Ranked, rel: int) -> Judgments:
    """The pairs of ``r`` judged at least ``rel`` (computed once per ``rel``)."""
    out: Judgments = r.memo(("intents", rel), lambda: _judgments(r, rel))
    return out


def _judgments(r: Ranked, rel: int) -> Judgments:
    if r.intents is None:
        return _single_subtopic(r, rel)
    it = r.intents
    table = it.table
    # Qrels side: the positive (judged document, subtopic) pairs of every evaluated query.
    jq = np.repeat(np.arange(r.nq, dtype=np.int64), np.diff(it.judged_offsets))
    pick, off = expand(table.offsets, it.judged_rows)
    entry = np.repeat(np.arange(len(it.judged_rows), dtype=np.int64), np.diff(off))
    pos = table.grade[pick] >= rel
    entry, sub = entry[pos], table.sub[pick][pos].astype(np.int64)
    n_codes = max(len(table.ids), 1)
    qs = jq[entry] * n_codes + sub
    keys, seg_of_entry, nrel = np.unique(qs, return_inverse=True, return_counts=True)
    seg_query = keys // n_codes
    n_sub = np.bincount(seg_query, minlength=r.nq).astype(np.int64)
    # Run side: the ranked rows' positive pairs, in (row, subtopic) order.
    qrow = it.qrow
    judged = np.flatnonzero(qrow >= 0)
    rpick, roff = expand(table.offsets, qrow[judged])
    rrow = np.repeat(judged, np.diff(roff))
    rpos = table.grade[rpick] >= rel
    rrow, rsub = rrow[rpos], table.sub[rpick][rpos].astype(np.int64)
    rkey = r.qidx[rrow] * n_codes + rsub
    seg = np.searchsorted(keys, rkey)  # every positive run pair is a positive qrels pair
    ideal_doc, doc_query, doc_key = _ideal_docs(entry, jq, it.judged_docs)
    return Judgments(
        rrow,
        _seen(seg, rrow),
        seg,
        nrel.astype(np.int64),
        seg_query,
        n_sub,
        ideal_doc,
        seg_of_entry.reshape(-1),
        doc_query,
        doc_key,
    )


def _ideal_docs(
    entry: np.ndarray, jq: np.ndarray, docs: pa.Array
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The relevant judged documents numbered 0.., each pair's document, each document's
    query and its rank by document id within the query (ndeval's greedy tie-break)."""
    used, doc_of_pair = np.unique(entry, return_inverse=True)
    ids = docs.take(from_np(used))
    order = to_np(
        pc.sort_indices(
            pa.table({"q": from_np(jq[used]), "d": ids}),
            sort_keys=[("q", "ascending"), ("d", "ascending")],
        )
    )
    key = np.empty(len(used), dtype=np.int64)
    key[order] = np.arange(len(used), dtype=np.int64)
    return doc_of_pair.reshape(-1), jq[used], key


def _seen(seg: np.ndarray, row: np.ndarray) -> np.ndarray:
    """How many earlier rows of the same query had each pair's subtopic."""
    if len(seg) == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((row, seg))
    s = seg[order]
    new = np.ones(len(s), dtype=bool)
    new[1:] = s[1:] != s[:-1]
    idx = np.arange(len(s), dtype=np.int64)
    start = np.maximum.accumulate(np.where(new, idx, 0))
    out = np.empty(len(s), dtype=np.int64)
    out[order] = idx - start
    return out


def _single_subtopic(r: Ranked, rel: int) -> Judgments:
    """Ordinary qrels: one subtopic per query, the document's grade its judgment."""
    n_rel = r.num_rel(rel)
    n_sub = (n_rel > 0).astype(np.int64)
    rrow = np.flatnonzero(r.grade >= rel)
    seg = r.qidx[rrow]
    seen = r.seg_cumcount(r.grade >= rel)[rrow] - 1
    doc_query = np.repeat(np.arange(r.nq, dtype=np.int64), n_rel)
    n_docs = len(doc_query)
    # One subtopic: the greedy order does not depend on which relevant document is chosen.
    return Judgments(
        rrow,
        seen,
        seg,
        n_rel,
        np.arange(r.nq, dtype=np.int64),
        n_sub,
        np.arange(n_docs, dtype=np.int64),
        doc_query,
        doc_query,
        np.arange(n_docs, dtype=np.int64),
    )


def row_gains(r: Ranked, rel: int, alpha: float) -> np.ndarray:
    """ndeval's per-rank gain: the sum, in subtopic order, of (1 - alpha)^(times the
    subtopic was seen before) over the subtopics the row is relevant to."""

    def compute() -> np.ndarray:
        j = judgments(r, rel)
        pw = powers(1.0 - alpha, int(j.seen.max()) + 1 if len(j.seen) else 0)
        return np.bincount(j.row, weights=pw[j.seen], minlength=len(r.grade))

    out: np.ndarray = r.memo(("div_gain", rel, alpha), compute)
    return out


def ideal_gains(r: Ranked, rel: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """ndeval's greedy ideal ranking of the relevant judged documents: per query (CSR
    offsets) the gain of each rank. At every rank it takes the document of largest gain,
    a tie going to the largest document id (byte order); documents of no relevant subtopic
    gain 0 and are left out (they add nothing)."""

    def compute() -> tuple[np.ndarray, np.ndarray]:
        return _greedy(judgments(r, rel), r.nq, alpha)

    out: tuple[np.ndarray, np.ndarray] = r.memo(("div_ideal", rel, alpha), compute)
    return out


def _greedy(j: Judgments, nq: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    n_docs = len(j.doc_query)
    counts = np.bincount(j.doc_query, minlength=nq)
    offsets = np.zeros(nq + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    gains = np.zeros(n_docs, dtype=np.float64)
    if n_docs == 0:
        return gains, offsets
    pw = powers(1.0 - alpha, int(counts.max()) + 1)
    # Pairs in (document, subtopic) order: a document's gain adds its subtopics in order.
    order = np.lexsort((j.ideal_seg, j.ideal_doc))
    pdoc, pseg = j.ideal_doc[order], j.ideal_seg[order]
    seen = np.zeros(len(j.nrel), dtype=np.int64)
    docs = np.arange(n_docs, dtype=np.int64)  # alive documents, grouped by query
    taken = np.zeros(n_docs, dtype=bool)
    for step in range(int(counts.max())):
        score = np.bincount(pdoc, weights=pw[seen[pseg]], minlength=n_docs)[docs]
        dq = j.doc_query[docs]
        starts = np.flatnonzero(np.r_[True, dq[1:] != dq[:-1]])
        best = np.maximum.reduceat(score, starts)
        size = np.diff(np.r_[starts, len(docs)])
        tie = score == np.repeat(best, size)
        key = np.where(tie, j.doc_key[docs], -1)
        top = np.maximum.reduceat(key, starts)
        pick = tie & (key == np.repeat(top, size))
        gains[offsets[dq[starts]] + step] = best
        # masks over all documents, not np.isin: that sorts on every step
        taken[docs[pick]] = True
        seen[pseg[taken[pdoc]]] += 1
        docs = docs[~pick]
        if len(docs) == 0:
            break
        alive = ~taken[pdoc]
        pdoc, pseg = pdoc[alive], pseg[alive]
    return gains, offsets
