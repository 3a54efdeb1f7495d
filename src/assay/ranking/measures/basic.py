"""Ranking metrics. One declaration per metric; the docstring's first line is its summary.

Notation: rank i = 1..n of a query's ranked list, rel_i = 1 if grade_i >= rel (binary
measures), g_i the grade (unjudged = 0 for graded measures), R the number of judged relevant
documents of the query, k the cutoff (the whole list when absent).
"""

from __future__ import annotations

from typing import cast

import numpy as np

from ...data.ranked import UNJUDGED, Ranked, seg_rev_cummax
from ...metrics.registry import (
    REL,
    TREC_CUTOFFS,
    Param,
    Peer,
    TrecName,
    closed_unit,
    metric,
    positive_float,
)

__all__ = [
    "average_precision",
    "bin_g",
    "bpref",
    "eleven_point",
    "f_measure",
    "gm_map",
    "inf_ap",
    "iprec",
    "judged",
    "nan_divide",
    "num_nonrel_judged_ret",
    "num_rel",
    "num_rel_ret",
    "num_ret",
    "precision",
    "r_precision",
    "recall",
    "reciprocal_rank",
    "relative_precision",
    "set_map",
    "success",
    "unjudged",
]


_NAN = np.nan
#: trec_eval's default recall levels (iprec_at_recall): 0.0, 0.1, ..., 1.0.
TREC_LEVELS = tuple(i / 10 for i in range(11))


def nan_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with NaN where den == 0 (an undefined value)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, _NAN)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _relret(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """(Expected) number of relevant documents in the top k."""
    x = r.tie_mean(r.isrel(rel).astype(np.float64))
    return r.seg_sum(x, r.topk(k))


# ---------------------------------------------------------------- set / cutoff measures


@metric(
    "P",
    params=(REL,),
    aliases=("precision",),
    trec={"P": TrecName("k", TREC_CUTOFFS), "set_P": TrecName()},
    peers=(Peer("cwl_eval", "cwl.ruler.measures.cwl_precision.PrecisionCWLMetric"),),
)
def precision(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Precision: fraction of the top k that is relevant, P@k = sum_{i<=k} rel_i / k.

    Without k, the fraction of the whole retrieved list (trec_eval's set_P). A list shorter
    than k still divides by k (trec_eval). Reference: Manning, Raghavan & Schütze (2008), §8.3.
    """
    num = _relret(r, k, rel)
    if k is None:
        return np.where(r.n_ret > 0, nan_divide(num, r.n_ret), 0.0)
    return num / k


@metric(
    "R",
    params=(REL,),
    aliases=("recall",),
    trec={"recall": TrecName("k", TREC_CUTOFFS), "set_recall": TrecName()},
)
def recall(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Recall: fraction of the relevant documents found in the top k, R@k = sum_{i<=k} rel_i / R.

    Undefined when R = 0. Reference: Manning, Raghavan & Schütze (2008), §8.3.
    """
    return nan_divide(_relret(r, k, rel), r.num_rel(rel))


@metric(
    "F",
    params=(REL, Param("beta", 1.0, positive_float("beta"), "weight of recall vs precision")),
    aliases=("f1", "fmeasure"),
    trec={"set_F": TrecName()},
)
def f_measure(r: Ranked, k: int | None, rel: int, beta: float) -> np.ndarray:
    """F-measure at k: (1 + b^2) P R / (b^2 P + R) = (1 + b^2) relret / (b^2 R + k).

    Without k, k = the list length (trec_eval's set_F). Undefined when R = 0; 0 when nothing
    relevant is retrieved. Reference: van Rijsbergen (1979), Information Retrieval, ch. 7.
    """
    relret = _relret(r, k, rel)
    depth = r.n_ret if k is None else np.full(r.nq, k)
    b2 = beta * beta
    big_r = r.num_rel(rel)
    out = nan_divide((1 + b2) * relret, b2 * big_r + depth)
    out[big_r == 0] = _NAN  # undefined, as recall; no_relevant decides
    return out


@metric(
    "relative_P",
    params=(REL,),
    aliases=("relative_precision",),
    trec={"relative_P": TrecName("k", TREC_CUTOFFS), "set_relative_P": TrecName()},
)
def relative_precision(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Relative precision: relevant in the top k over the most possible, sum_{i<=k} rel_i / min(k, R).

    Precision up to rank R, recall beyond. Without k, k = the list length (trec_eval's
    set_relative_P; 0 for an empty list). Undefined when R = 0. trec_eval's relative_P.

    Reference: trec_eval's relative_P (NIST).
    """
    big_r = r.num_rel(rel)
    depth = r.n_ret if k is None else np.full(r.nq, k)
    den = np.minimum(depth, big_r)
    out = nan_divide(_relret(r, k, rel), den)
    out[(big_r > 0) & (den == 0)] = 0.0  # an empty list retrieves nothing
    return out


@metric("set_map", params=(REL,), cutoff="none", trec={"set_map": TrecName()})
def set_map(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Unranked AP of the retrieved set: set precision x set recall = relret^2 / (n R).

    relret = sum_i rel_i over the whole list of n documents. Undefined when R = 0; 0 for an
    empty list. trec_eval's set_map (formerly exact_unranked_avg_prec).

    Reference: trec_eval's set_map (NIST).
    """
    big_r = r.num_rel(rel)
    relret = _relret(r, None, rel)
    out = nan_divide(relret * relret, r.n_ret.astype(np.float64) * big_r)
    out[(big_r > 0) & (r.n_ret == 0)] = 0.0
    return out


def _ap_terms(r: Ranked, rel: int) -> np.ndarray:
    """Per-row term of AP: rel_i * (relevant in top i) / i, in expectation under tied scores."""
    isrel = r.isrel(rel)
    if r.ties != "average":
        c = r.seg_cumcount(isrel)
        return np.where(isrel, c / r.rank, 0.0)
    # E[rel_i * C_i] for row i at offset t of a tie group of size m holding s relevant, with
    # b relevant ranked above the group: (s/m)(1 + b) + t * s(s-1) / (m(m-1)).
    gid, starts, sizes = r.tie_group
    s_g = np.add.reduceat(isrel.astype(np.float64), starts) if len(starts) else np.zeros(0)
    c = r.seg_cumcount(isrel)
    before = (c - isrel)[starts]  # relevant above each group (within the query)
    m = sizes[gid].astype(np.float64)
    s = s_g[gid]
    t = np.arange(len(gid)) - starts[gid]
    pair = np.where(m > 1, s * (s - 1) / np.where(m > 1, m * (m - 1), 1.0), 0.0)
    return cast(np.ndarray, ((s / m) * (1.0 + before[gid]) + t * pair) / r.rank)


@metric(
    "AP",
    params=(REL,),
    aliases=("map", "average_precision"),
    trec={"map": TrecName(), "map_cut": TrecName("k", TREC_CUTOFFS)},
    peers=(
        Peer(
            "cwl_eval",
            "cwl.ruler.measures.cwl_ap.APCWLMetric",
            "It divides by the relevant documents retrieved within the depth, not by all judged relevant ones.",
        ),
    ),
)
def average_precision(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Average precision: AP@k = (1/R) sum_{i<=k} rel_i P@i, R = all judged relevant documents.

    Aggregated over queries this is MAP. Undefined when R = 0. Under ties='average' the exact
    expectation over tied orders. Reference: Buckley & Voorhees (2005), in TREC: Experiment and
    Evaluation in IR, ch. 3.
    """
    return nan_divide(r.seg_sum(_ap_terms(r, rel), r.topk(k)), r.num_rel(rel))


@metric("gm_map", params=(REL,), cutoff="none", aggregate="gmean", trec={"gm_map": TrecName()})
def gm_map(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Average precision aggregated by geometric mean: GMAP = exp(mean log max(AP, 1e-5)).

    Per-query values are AP. The floor 1e-5 is trec_eval's. Reference: Robertson (2006),
    "On GMAP", CIKM.
    """
    return average_precision(r, None, rel)


@metric(
    "Rprec",
    params=(REL,),
    cutoff="none",
    aliases=("r_precision", "rprecision"),
    trec={"Rprec": TrecName()},
)
def r_precision(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """R-precision: precision at rank R, sum_{i<=R} rel_i / R. Undefined when R = 0.

    Reference: Buckley & Voorhees (2005), ch. 3.
    """
    big_r = r.num_rel(rel)
    x = r.tie_mean(r.isrel(rel).astype(np.float64))
    return nan_divide(r.seg_sum(x, r.pos < big_r[r.qidx]), big_r)


def _first_rel_stats(r: Ranked, rel: int, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Per query: 1/rank of the first relevant (within k), and whether one exists (expected)."""
    isrel = r.isrel(rel)
    if r.ties != "average":
        first = isrel & (r.seg_cumcount(isrel) == 1)
        if k is not None:
            first &= r.pos < k
        return r.seg_sum(1.0 / r.rank, first), r.seg_count(first).astype(np.float64)
    from scipy.special import gammaln  # only under ties="average": scipy costs 0.3 s to import

    # First tie group holding a relevant document: start s, size m, s_rel relevant. The first
    # relevant lands at offset t with probability C(m-1-t, s_rel-1) / C(m, s_rel).
    gid, starts, sizes = r.tie_group
    s_g = np.add.reduceat(isrel.astype(np.int64), starts) if len(starts) else np.zeros(0, np.int64)
    c = r.seg_cumcount(isrel)
    before = (c - isrel)[starts]
    first_group = (s_g > 0) & (before == 0)
    rows = first_group[gid]
    m = sizes[gid][rows].astype(np.float64)
    srel = s_g[gid][rows].astype(np.float64)
    t = (np.arange(len(gid)) - starts[gid])[rows].astype(np.float64)
    ok = m - 1 - t >= srel - 1
    logp = np.full(len(t), -np.inf)
    a = m - 1 - t
    b = srel - 1
    logp[ok] = (gammaln(a + 1) - gammaln(b + 1) - gammaln(a - b + 1))[ok] - (
        gammaln(m + 1) - gammaln(srel + 1) - gammaln(m - srel + 1)
    )[ok]
    prob = np.exp(logp)
    ranks = r.rank[rows]
    if k is not None:
        prob = np.where(ranks <= k, prob, 0.0)
    q = r.qidx[rows]
    rr = np.bincount(q, weights=prob / ranks, minlength=r.nq)
    found = np.bincount(q, weights=prob, minlength=r.nq)
    return rr, found


@metric(
    "RR",
    params=(REL,),
    aliases=("mrr", "recip_rank", "reciprocal_rank"),
    trec={"recip_rank": TrecName()},
    peers=(
        Peer(
            "cwl_eval",
            "cwl.ruler.measures.cwl_rr.RRCWLMetric",
            "It reads the run to its depth: assay's RR@depth.",
        ),
    ),
)
def reciprocal_rank(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Reciprocal rank: 1 / rank of the first relevant document in the top k, 0 if none.

    Aggregated over queries this is MRR. Reference: Voorhees (1999), TREC-8 QA track report.
    """
    return _first_rel_stats(r, rel, k)[0]


def _success_at(r: Ranked, rel: int, k: int) -> np.ndarray:
    """P(at least one relevant in the top k) under random orders of tied documents."""
    from scipy.special import gammaln  # imported here: scipy costs 0.15 s at start-up

    isrel = r.isrel(rel)
    _gid, starts, sizes = r.tie_group
    s_g = np.add.reduceat(isrel.astype(np.int64), starts) if len(starts) else np.zeros(0, np.int64)
    gpos = r.pos[starts]
    gq = r.qidx[starts]
    whole = gpos + sizes <= k
    found = np.bincount(gq[whole], weights=(s_g[whole] > 0).astype(np.float64), minlength=r.nq) > 0
    straddle = (gpos < k) & ~whole
    o = (k - gpos[straddle]).astype(np.float64)  # positions of the group inside the top k
    m = sizes[straddle].astype(np.float64)
    s = s_g[straddle].astype(np.float64)
    # P(no relevant among o draws) = C(m - s, o) / C(m, o)
    ok = m - s >= o
    p_none = np.zeros(len(o))
    p_none[ok] = np.exp(
        (gammaln(m - s + 1) - gammaln(o + 1) - gammaln(m - s - o + 1))[ok]
        - (gammaln(m + 1) - gammaln(o + 1) - gammaln(m - o + 1))[ok]
    )
    p_hit = np.bincount(gq[straddle], weights=1.0 - p_none, minlength=r.nq)
    return np.where(found, 1.0, p_hit)


@metric(
    "success",
    params=(REL,),
    aliases=("hit_rate",),
    trec={"success": TrecName("k", (1, 5, 10))},
)
def success(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Success (hit rate): 1 if a relevant document is in the top k, else 0.

    success@k = min(1, sum_{i<=k} rel_i); under ties='average' the probability of a hit.

    Reference: Craswell & Hawking (2004), TREC web track; trec_eval's success.
    """
    if r.ties == "average" and k is not None:
        return _success_at(r, rel, k)
    return (r.seg_count(r.isrel(rel) & (r.pos < k if k is not None else True)) > 0).astype(
        np.float64
    )


@metric(
    "num_ret",
    cutoff="none",
    bounds=(0, None),
    aggregate="sum",
    integer=True,
    trec={"num_ret": TrecName()},
)
def num_ret(r: Ranked, k: int | None) -> np.ndarray:
    """Number of documents retrieved for the query (summed over queries): n = list length.

    Reference: trec_eval's num_ret (NIST).
    """
    return r.n_ret.astype(np.float64)


@metric(
    "num_rel",
    params=(REL,),
    cutoff="none",
    bounds=(0, None),
    aggregate="sum",
    integer=True,
    trec={"num_rel": TrecName()},
    from_qrels=True,
)
def num_rel(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Number of judged relevant documents of the query (summed over queries).

    R = #{judged documents with grade >= rel}, retrieved or not.

    Reference: trec_eval's num_rel (NIST).
    """
    return r.num_rel(rel).astype(np.float64)


@metric(
    "num_rel_ret",
    params=(REL,),
    cutoff="none",
    bounds=(0, None),
    aggregate="sum",
    integer=True,
    trec={"num_rel_ret": TrecName()},
)
def num_rel_ret(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Number of relevant documents retrieved (summed over queries): num_rel_ret = sum_i rel_i.

    Reference: trec_eval's num_rel_ret (NIST).
    """
    return r.seg_count(r.isrel(rel)).astype(np.float64)


@metric(
    "num_nonrel_judged_ret",
    params=(REL,),
    cutoff="none",
    bounds=(0, None),
    aggregate="sum",
    integer=True,
    higher_is_better=False,
    trec={"num_nonrel_judged_ret": TrecName()},
)
def num_nonrel_judged_ret(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Judged non-relevant documents retrieved (summed over queries): sum_i [0 <= g_i < rel].

    Documents outside the qrels or pooled but unjudged are not counted. trec_eval's
    num_nonrel_judged_ret.

    Reference: trec_eval's num_nonrel_judged_ret (NIST).
    """
    return r.seg_count(r.judged & ~r.isrel(rel)).astype(np.float64)


@metric("judged", aliases=("judged_at",))
def judged(r: Ranked, k: int | None) -> np.ndarray:
    """Judged@k: fraction of the top k that has a judgment (any grade >= 0), divided by k.

    Without k, the fraction of the whole list. Reference: Sakai (2007), "Alternatives to Bpref".
    """
    x = r.tie_mean(r.judged.astype(np.float64))
    num = r.seg_sum(x, r.topk(k))
    if k is None:
        return np.where(r.n_ret > 0, nan_divide(num, r.n_ret), 0.0)
    return num / k


@metric(
    "unjudged",
    aliases=("unjudged_at",),
    higher_is_better=False,
    trec={"unj": TrecName("k", (5, 10, 20))},
)
def unjudged(r: Ranked, k: int | None) -> np.ndarray:
    """Unjudged@k: fraction of the top k without a judgment, sum_{i<=k} [g_i < 0] / k.

    Counts documents outside the qrels and pooled-but-unjudged ones; a list shorter than k
    is padded with judged documents (divided by k). Without k, the fraction of the whole list
    (0 for an empty list). trec_eval's unj, a "red flag" for poorly covered runs.

    Reference: trec_eval's unj (NIST).
    """
    x = r.tie_mean((~r.judged).astype(np.float64))
    num = r.seg_sum(x, r.topk(k))
    if k is None:
        return np.where(r.n_ret > 0, nan_divide(num, r.n_ret), 0.0)
    return num / k


@metric("bpref", params=(REL,), cutoff="none", average_ties=False, trec={"bpref": TrecName()})
def bpref(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Binary preference: (1/R) sum_{judged rel r} (1 - min(n_r, R) / min(N, R)).

    n_r = judged non-relevant documents ranked above r, N = judged non-relevant documents of
    the query; unjudged documents are ignored. Undefined when R = 0. trec_eval's definition.
    Reference: Buckley & Voorhees (2004), "Retrieval evaluation with incomplete information".
    """
    r.require_average_support("bpref", False)
    big_r = r.num_rel(rel)
    big_n = r.num_nonrel(rel)
    isrel = r.isrel(rel)
    nonrel = r.judged & ~isrel
    above = r.seg_cumcount(nonrel)  # non-relevant at or above; the row itself is relevant
    q = r.qidx
    denom = np.minimum(big_n, big_r)[q].astype(np.float64)
    term = np.where(
        above > 0, 1.0 - np.minimum(above, big_r[q]) / np.where(denom > 0, denom, 1.0), 1.0
    )
    return nan_divide(r.seg_sum(term, isrel), big_r)


_INFAP_EPS = 1e-5


@metric("infAP", params=(REL,), cutoff="none", average_ties=False, trec={"infAP": TrecName()})
def inf_ap(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Inferred AP (Yilmaz & Aslam 2006) for qrels that judge a sample of the pool.

    For a judged relevant document at rank j+1 (j documents above, of which r' relevant,
    n' judged non-relevant, u' pooled but unjudged): 1/(j+1) + j/(j+1) * (r'+n'+u')/j *
    (r'+eps)/(r'+n'+2eps), and 1 at rank 1; summed and divided by R; eps = 1e-5. Documents
    outside the pool count as non-relevant. trec_eval's definition. Reference: Yilmaz & Aslam
    (2006), "Estimating average precision with incomplete and imperfect judgments", CIKM.
    """
    r.require_average_support("infAP", False)
    isrel = r.isrel(rel)
    nonrel = r.judged & ~isrel
    unj = r.grade == UNJUDGED
    rel_above = r.seg_cumcount(isrel) - 1
    non_above = r.seg_cumcount(nonrel)
    unj_above = r.seg_cumcount(unj)
    j = r.pos.astype(np.float64)
    jj = np.where(j > 0, j, 1.0)
    term = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((rel_above + non_above + unj_above) / jj) * (
        (rel_above + _INFAP_EPS) / (rel_above + non_above + 2 * _INFAP_EPS)
    )
    term = np.where(j == 0, 1.0, term)
    return nan_divide(r.seg_sum(term, isrel), r.num_rel(rel))


@metric("binG", params=(REL,), cutoff="none", average_ties=False, trec={"binG": TrecName()})
def bin_g(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Binary G: (1/R) sum_{relevant r} 1 / log2(2 + n_r), n_r = documents above r not relevant.

    Unjudged documents count as not relevant. Undefined when R = 0. trec_eval's
    experimental binG (Buckley, 2008): gain 1 per relevant document, discounted by the
    non-relevant ones read before it.

    Reference: trec_eval's binG (NIST; Buckley, 2008).
    """
    r.require_average_support("binG", False)
    isrel = r.isrel(rel)
    nonrel_above = r.pos - (r.seg_cumcount(isrel) - 1)
    term = 1.0 / np.log2(2.0 + nonrel_above)
    return nan_divide(r.seg_sum(term, isrel), r.num_rel(rel))


def _iprec(r: Ranked, rel: int, levels: list[float]) -> list[np.ndarray]:
    """trec_eval 10's interpolated precision at recall levels.

    The level's rank cutoff is lround(level * R) relevant documents; the value is the highest
    precision at or after the rank where that many relevant documents have been seen.
    """
    isrel = r.isrel(rel)
    c = r.seg_cumcount(isrel)
    rows = np.flatnonzero(isrel)
    prec = c[rows] / r.rank[rows]
    seg = r.qidx[rows]
    ip = seg_rev_cummax(prec, seg)  # best precision at or after each relevant document
    nrr = r.seg_count(isrel)
    start = np.concatenate(([0], np.cumsum(nrr)))[:-1]
    big_r = r.num_rel(rel)
    out = []
    for level in levels:
        # lround: half away from zero.
        cut = np.floor(level * big_r + 0.5).astype(np.int64)
        val = np.zeros(r.nq)
        idx = np.maximum(cut, 1) - 1  # cutoff 0 reads the first relevant document
        ok = (cut <= nrr) & (nrr > 0)
        val[ok] = ip[start[ok] + idx[ok]]
        out.append(np.where(big_r > 0, val, _NAN))
    return out


@metric(
    "iprec",
    params=(Param("recall", 0.0, closed_unit("recall"), "recall level in [0, 1]"), REL),
    cutoff="none",
    average_ties=False,
    aliases=("iprec_at_recall",),
    trec={"iprec_at_recall": TrecName("recall", TREC_LEVELS)},
)
def iprec(r: Ranked, k: int | None, recall: float, rel: int) -> np.ndarray:
    """Interpolated precision at a recall level: max precision at any rank with recall >= level.

    As trec_eval 10, the level is turned into lround(level * R) relevant documents.
    Undefined when R = 0. Reference: Manning, Raghavan & Schütze (2008), §8.4.
    """
    r.require_average_support("iprec", False)
    return _iprec(r, rel, [recall])[0]


@metric(
    "11pt_avg",
    params=(REL,),
    cutoff="none",
    average_ties=False,
    aliases=("ipavg11", "11pt"),
    trec={"11pt_avg": TrecName()},
)
def eleven_point(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """11-point interpolated average precision: mean of iprec at recall 0.0, 0.1, ..., 1.0.

    Undefined when R = 0. Reference: Manning, Raghavan & Schütze (2008), §8.4.
    """
    r.require_average_support("11pt_avg", False)
    vals = _iprec(r, rel, [i / 10 for i in range(11)])
    # Summed level by level, in a fixed order: np.mean(axis=0) sums pairwise when the array
    # holds one query, so a query's value would depend on how many were evaluated with it.
    total = vals[0].astype(np.float64, copy=True)
    for level in vals[1:]:
        total += level
    return total / len(vals)
