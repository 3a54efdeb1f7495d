"""trec_eval's own measures beyond the usual ones: normalised gain G, NDCG averaged over the
relevant documents (ndcg_rel) and at the R levels (Rndcg), precision at multiples of R
(Rprec_mult), set utility, bpref's geometric mean (gm_bpref) and the relevance string
(relstring). One declaration per metric; each is named as in trec_eval and means what
trec_eval computes with its default parameters.

Notation as :mod:`assay.ranking.measures.basic`; for the gain-based measures, r_i = gain(g_i) of the
document at rank i (unjudged documents gain 0) and the *ideal gains* I_1 >= I_2 >= ... >= I_L
are the positive gains of the query's judged documents in decreasing order (L of them).
DCG_i = sum_{j<=i} r_j / log2(j + 1), IDCG_i = sum_{j<=min(i, L)} I_j / log2(j + 1).

trec_eval's quirks (custom gains less than 1 apart compared as equal, a query whose judgments
are all negative reading the previous query's grades, Rndcg's missing last point when
exactly one document follows the ideal ranking) are reproduced only by ``assay trec-eval``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ...data.ranked import UNJUDGED, Ranked, seg_cumsum
from ...metrics.registry import (
    REL,
    Param,
    TrecName,
    metric,
    nonneg_int,
    positive_float,
    real_number,
)
from .basic import bpref, nan_divide
from .graded import _GAIN

__all__ = [
    "g_measure",
    "gm_bpref",
    "ndcg_rel",
    "relstring",
    "rndcg",
    "rprec_mult",
    "utility",
]

_NAN = np.nan


def _ideal(r: Ranked, gain: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ideal gains of every query (positive gains of its judged documents, decreasing),
    concatenated, with their CSR offsets and counts L."""
    key = tuple(sorted(gain.items())) if isinstance(gain, Mapping) else gain

    def build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        gains = r.gains(gain, r.ideal_grades)
        counts = np.diff(r.ideal_offsets)
        qi = np.repeat(np.arange(r.nq, dtype=np.int64), counts)
        keep = gains > 0
        gains, qi = gains[keep], qi[keep]
        order = np.lexsort((-gains, qi))  # a gain map need not be monotone in the grade
        length = np.bincount(qi, minlength=r.nq).astype(np.int64)
        offsets = np.concatenate(([0], np.cumsum(length))).astype(np.int64)
        return gains[order], offsets, length

    out: tuple[np.ndarray, np.ndarray, np.ndarray] = r.memo(("trec_ideal", key), build)
    return out


def _ideal_at(r: Ranked, gain: Any, pos: np.ndarray, q: np.ndarray) -> np.ndarray:
    """I at 0-based position ``pos`` of query ``q`` (0 beyond the ideal ranking)."""
    ig, offsets, length = _ideal(r, gain)
    inside = pos < length[q]
    at = np.where(inside, offsets[q] + pos, 0)
    return np.where(inside, ig[at] if len(ig) else 0.0, 0.0)


def _discounted(values: np.ndarray, pos: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(values != 0, values / np.log2(pos + 2.0), 0.0)


@metric("G", params=(_GAIN,), cutoff="none", average_ties=False, trec={"G": TrecName("pairs")})
def g_measure(r: Ranked, k: int | None, gain: Any) -> np.ndarray:
    """Normalised gain G: (1 / sum_j I_j) sum_i r_i / log2(2 + C_i - S_i).

    S_i = sum_{j<=i} r_j, the gain read so far; C_i = sum_{j<=i} c_j, with c_j = max(I_j, 1)
    within the ideal ranking and 1 beyond: a document counts nearly fully when the
    documents before it were as good as possible. Undefined without a positive ideal gain.
    trec_eval's experimental G (Buckley, 2008).

    Reference: trec_eval's G (NIST; Buckley, 2008).
    """
    r.require_average_support("G", False)
    ideal, _, length = _ideal(r, gain)
    rg = r.gains(gain)
    inside = r.pos < length[r.qidx]
    cost = np.where(inside, np.maximum(_ideal_at(r, gain, r.pos, r.qidx), 1.0), 1.0)
    spare = (2.0 + seg_cumsum(cost, r.offsets)) - seg_cumsum(rg, r.offsets)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = np.where(rg != 0, rg / np.log2(spare), 0.0)
    iq = np.repeat(np.arange(r.nq, dtype=np.int64), length)
    return nan_divide(r.seg_sum(term), np.bincount(iq, weights=ideal, minlength=r.nq))


def _dcg_parts(r: Ranked, gain: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: r_i and DCG_i; and the running ideal DCG over the ideal gains."""
    rg = r.gains(gain)
    ig, offsets, length = _ideal(r, gain)
    ipos = np.arange(len(ig), dtype=np.int64) - np.repeat(offsets[:-1], length)
    return (
        rg,
        seg_cumsum(_discounted(rg, r.pos), r.offsets),
        seg_cumsum(_discounted(ig, ipos), offsets),
    )


@metric(
    "ndcg_rel",
    params=(_GAIN,),
    cutoff="none",
    average_ties=False,
    trec={"ndcg_rel": TrecName("pairs")},
)
def ndcg_rel(r: Ranked, k: int | None, gain: Any) -> np.ndarray:
    """NDCG averaged over the relevant documents: (1/L) sum over the L ideal documents of
    NDCG at the rank where each is retrieved, DCG_i / IDCG_i, or DCG_n / IDCG_L for one not
    retrieved (n = list length; "relevant" = positive gain).

    Undefined when L = 0. trec_eval's experimental ndcg_rel.

    Reference: trec_eval's ndcg_rel (NIST).
    """
    r.require_average_support("ndcg_rel", False)
    rg, dcg, icum = _dcg_parts(r, gain)
    _, offsets, length = _ideal(r, gain)
    q = r.qidx
    hit = rg > 0
    at = offsets[q[hit]] + np.minimum(r.pos[hit], length[q[hit]] - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = np.bincount(q[hit], weights=dcg[hit] / icum[at], minlength=r.nq)
        found = np.bincount(q[hit], minlength=r.nq)
        last = _last(dcg, r.offsets) / _last(icum, offsets)
        total = total + np.where(length > found, (length - found) * last, 0.0)
    return np.where(length > 0, total / np.maximum(length, 1), _NAN)


def _last(cum: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The last running value of every segment (0 for an empty one)."""
    n = np.diff(offsets)
    return np.where(n > 0, cum[np.maximum(offsets[1:] - 1, 0)] if len(cum) else 0.0, 0.0)


@metric(
    "Rndcg", params=(_GAIN,), cutoff="none", average_ties=False, trec={"Rndcg": TrecName("pairs")}
)
def rndcg(r: Ranked, k: int | None, gain: Any) -> np.ndarray:
    """NDCG averaged at the R levels: the mean of NDCG@p = DCG_min(p, n) / IDCG_p over the
    points p where the ideal gain changes (after the last position of each gain level of
    the ideal ranking, p = L included) and, when the list is longer than the ideal ranking,
    at its end p = n (DCG_n / IDCG_L).

    With 5 documents of grade 3, 3 of grade 2 and 10 of grade 1 (linear gains): the mean of
    NDCG at 5, 8, 18 and n. Undefined when L = 0. trec_eval's experimental Rndcg.

    Reference: trec_eval's Rndcg (NIST).
    """
    r.require_average_support("Rndcg", False)
    _, dcg, icum = _dcg_parts(r, gain)
    ig, offsets, length = _ideal(r, gain)
    iq = np.repeat(np.arange(r.nq, dtype=np.int64), length)
    change = np.ones(len(ig), dtype=bool)  # boundary after each ideal position p (1-based)
    if len(ig):
        change[:-1] = (ig[1:] != ig[:-1]) | (iq[1:] != iq[:-1])
    at = np.flatnonzero(change)
    q, p = iq[at], at - offsets[iq[at]] + 1
    depth = np.minimum(p, r.n_ret[q])
    num = np.where(depth > 0, dcg[np.maximum(r.offsets[q] + depth - 1, 0)] if len(dcg) else 0, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = np.bincount(q, weights=num / icum[at], minlength=r.nq)
        count = np.bincount(q, minlength=r.nq).astype(np.float64)
        tail = (length > 0) & (r.n_ret > length)
        end = _last(dcg, r.offsets) / _last(icum, offsets)
        total = total + np.where(tail, end, 0.0)
        count = count + tail
        return np.where(length > 0, total / count, _NAN)


#: trec_eval's default multiples of R (Rprec_mult).
TREC_MULTS = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
_MULT = Param("mult", 1.0, positive_float("mult"), "multiple of R (the cutoff is m R)")


@metric(
    "Rprec_mult",
    params=(_MULT, REL),
    cutoff="none",
    trec={"Rprec_mult": TrecName("mult", TREC_MULTS)},
)
def rprec_mult(r: Ranked, k: int | None, mult: float, rel: int) -> np.ndarray:
    """Precision at a multiple of R: sum_{i<=c} rel_i / c with c = floor(m R + 0.9).

    Missing documents below the list count as non-relevant; 0 when c = 0 (m R < 0.1).
    Undefined when R = 0. At m = 1 it is R-precision. trec_eval's Rprec_mult.

    Reference: trec_eval's Rprec_mult (NIST).
    """
    big_r = r.num_rel(rel)
    cut = np.floor(mult * big_r + 0.9).astype(np.int64)
    x = r.tie_mean(r.isrel(rel).astype(np.float64))
    hits = r.seg_sum(x, r.pos < cut[r.qidx])
    value = np.where(cut >= 1, hits / np.maximum(cut, 1), 0.0)
    return np.where(big_r > 0, value, _NAN)


_UTILITY = (
    Param("rel_ret", 1.0, real_number("rel_ret"), "worth of a relevant retrieved document"),
    Param("nonrel_ret", -1.0, real_number("nonrel_ret"), "worth of a non-relevant retrieved one"),
    Param("rel_unret", 0.0, real_number("rel_unret"), "worth of a relevant document not retrieved"),
    Param(
        "nonrel_unret",
        0.0,
        real_number("nonrel_unret"),
        "worth of a non-relevant one not retrieved",
    ),
    Param(
        "collection_size",
        0,
        nonneg_int("collection_size"),
        "documents in the collection (for nonrel_unret; trec_eval's -N)",
    ),
)


@metric(
    "utility",
    params=(*_UTILITY, REL),
    cutoff="none",
    bounds=(None, None),
    trec={"utility": TrecName("coefficients", (1.0, -1.0, 0.0, 0.0))},
)
def utility(
    r: Ranked,
    k: int | None,
    rel_ret: float,
    nonrel_ret: float,
    rel_unret: float,
    nonrel_unret: float,
    collection_size: int,
    rel: int,
) -> np.ndarray:
    """Set utility: U = a x + b (n - x) + c (R - x) + d (N + x - n - R), x relevant retrieved.

    a, b, c, d are rel_ret, nonrel_ret, rel_unret, nonrel_unret (default 1, -1, 0, 0); n the
    list length, R the judged relevant documents, N the collection size. trec_eval's
    utility (``utility.a,b,c,d``; N is its -N). Reference: Lewis (1995), "Evaluating and
    optimizing autonomous text classification systems", SIGIR (linear utility).
    """
    x = r.seg_count(r.isrel(rel)).astype(np.float64)
    n = r.n_ret.astype(np.float64)
    big_r = r.num_rel(rel).astype(np.float64)
    return (
        rel_ret * x
        + nonrel_ret * (n - x)
        + rel_unret * (big_r - x)
        + nonrel_unret * (collection_size + x - n - big_r)
    )


@metric(
    "gm_bpref",
    params=(REL,),
    cutoff="none",
    aggregate="gmean",
    average_ties=False,
    trec={"gm_bpref": TrecName()},
)
def gm_bpref(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """bpref aggregated by geometric mean: GM = exp(mean log max(bpref, 1e-5)).

    Per-query values are bpref. The floor 1e-5 is trec_eval's. trec_eval's gm_bpref;
    Robertson (2006), "On GMAP", CIKM, for the geometric mean over topics.

    Reference: Robertson (2006), "On GMAP", CIKM; trec_eval's gm_bpref (NIST).
    """
    return bpref(r, None, rel)


# Indexed by grade - UNJUDGED: UNJUDGED (-2) '.', NONPOOL (-1) '-', grades 0..9.
_RELCHAR = np.frombuffer(b".-0123456789", dtype="S1")


@metric(
    "relstring",
    params=(Param("depth", 10, nonneg_int("depth"), "documents shown"),),
    cutoff="none",
    bounds=(None, None),
    aggregate="none",
    average_ties=False,
    value="text",
    trec={"relstring": TrecName("depth", (10,))},
)
def relstring(r: Ranked, k: int | None, depth: int) -> np.ndarray:
    """The grades of the first ``depth`` documents as text: c(g_1) c(g_2) ... c(g_depth).

    c(g) = the digit g for grades 0-9, '>' above 9, '-' for a document not in the qrels, '.'
    for one judged with a negative grade (pooled, unjudged). Text, not a number: no
    aggregate, not comparable; ``Results`` holds the strings as the per-query values.
    trec_eval's relstring.

    Reference: trec_eval's relstring (NIST).
    """
    r.require_average_support("relstring", False)
    g = r.grade.astype(np.int64)
    chars = np.where(g > 9, b">", _RELCHAR[np.clip(g - UNJUDGED, 0, 11)])
    chars = np.where(g < UNJUDGED, b"<", chars)
    keep = r.pos < depth
    text = chars[keep].astype("S1").tobytes().decode("ascii")
    counts = np.minimum(r.n_ret, depth)
    ends = np.cumsum(counts)
    out = np.empty(r.nq, dtype=object)
    out[:] = [text[e - c : e] for e, c in zip(ends.tolist(), counts.tolist(), strict=True)]
    return out
