"""Ranking metrics. One declaration per metric; the docstring's first line is its summary.

Notation: rank i = 1..n of a query's ranked list, rel_i = 1 if grade_i >= rel (binary
measures), g_i the grade (unjudged = 0 for graded measures), R the number of judged relevant
documents of the query, k the cutoff (the whole list when absent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from .._options import number
from ..data.ranked import UNJUDGED, Ranked, seg_rev_cummax
from ..errors import ConventionError, MetricError
from ..stats.concordance import tau_b
from .registry import (
    REL,
    Param,
    closed_unit,
    metric,
    one_of,
    open_unit,
    optional,
    positive_float,
    positive_int,
)

_NAN = np.nan


def _div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
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


@metric("P", params=(REL,), aliases=("precision",), trec={"P": "k", "set_P": ""})
def precision(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Precision: fraction of the top k that is relevant, P@k = sum_{i<=k} rel_i / k.

    Without k, the fraction of the whole retrieved list (trec_eval's set_P). A list shorter
    than k still divides by k (trec_eval). Reference: Manning, Raghavan & Schütze (2008), §8.3.
    """
    num = _relret(r, k, rel)
    if k is None:
        return np.where(r.n_ret > 0, _div(num, r.n_ret), 0.0)
    return num / k


@metric("R", params=(REL,), aliases=("recall",), trec={"recall": "k", "set_recall": ""})
def recall(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Recall: fraction of the relevant documents found in the top k, R@k = sum_{i<=k} rel_i / R.

    Undefined when R = 0. Reference: Manning, Raghavan & Schütze (2008), §8.3.
    """
    return _div(_relret(r, k, rel), r.num_rel(rel))


@metric(
    "F",
    params=(REL, Param("beta", 1.0, positive_float("beta"), "weight of recall vs precision")),
    aliases=("f1", "fmeasure"),
    trec={"set_F": ""},
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
    out = _div((1 + b2) * relret, b2 * big_r + depth)
    out[big_r == 0] = _NAN  # undefined, as recall; no_relevant decides
    return out


@metric(
    "relative_P",
    params=(REL,),
    aliases=("relative_precision",),
    trec={"relative_P": "k", "set_relative_P": ""},
)
def relative_precision(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Relative precision: relevant in the top k over the most possible, sum_{i<=k} rel_i / min(k, R).

    Precision up to rank R, recall beyond. Without k, k = the list length (trec_eval's
    set_relative_P; 0 for an empty list). Undefined when R = 0. trec_eval's relative_P.
    """
    big_r = r.num_rel(rel)
    depth = r.n_ret if k is None else np.full(r.nq, k)
    den = np.minimum(depth, big_r)
    out = _div(_relret(r, k, rel), den)
    out[(big_r > 0) & (den == 0)] = 0.0  # an empty list retrieves nothing
    return out


@metric("set_map", params=(REL,), cutoff="none", trec={"set_map": ""})
def set_map(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Unranked AP of the retrieved set: set precision x set recall = relret^2 / (n R).

    relret = sum_i rel_i over the whole list of n documents. Undefined when R = 0; 0 for an
    empty list. trec_eval's set_map (formerly exact_unranked_avg_prec).
    """
    big_r = r.num_rel(rel)
    relret = _relret(r, None, rel)
    out = _div(relret * relret, r.n_ret.astype(np.float64) * big_r)
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
    return ((s / m) * (1.0 + before[gid]) + t * pair) / r.rank


@metric("AP", params=(REL,), aliases=("map", "average_precision"), trec={"map": "", "map_cut": "k"})
def average_precision(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Average precision: AP@k = (1/R) sum_{i<=k} rel_i P@i, R = all judged relevant documents.

    Aggregated over queries this is MAP. Undefined when R = 0. Under ties='average' the exact
    expectation over tied orders. Reference: Buckley & Voorhees (2005), in TREC: Experiment and
    Evaluation in IR, ch. 3.
    """
    return _div(r.seg_sum(_ap_terms(r, rel), r.topk(k)), r.num_rel(rel))


@metric("gm_map", params=(REL,), cutoff="none", aggregate="gmean", trec={"gm_map": ""})
def gm_map(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Average precision aggregated by geometric mean: GMAP = exp(mean log max(AP, 1e-5)).

    Per-query values are AP. The floor 1e-5 is trec_eval's. Reference: Robertson (2006),
    "On GMAP", CIKM.
    """
    return average_precision(r, None, rel)


@metric(
    "Rprec", params=(REL,), cutoff="none", aliases=("r_precision", "rprecision"), trec={"Rprec": ""}
)
def r_precision(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """R-precision: precision at rank R, sum_{i<=R} rel_i / R. Undefined when R = 0.

    Reference: Buckley & Voorhees (2005), ch. 3.
    """
    big_r = r.num_rel(rel)
    x = r.tie_mean(r.isrel(rel).astype(np.float64))
    return _div(r.seg_sum(x, r.pos < big_r[r.qidx]), big_r)


def _first_rel_stats(r: Ranked, rel: int, k: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Per query: 1/rank of the first relevant (within k), and whether one exists (expected)."""
    from scipy.special import gammaln  # imported here: scipy costs 0.15 s at start-up

    isrel = r.isrel(rel)
    if r.ties != "average":
        first = isrel & (r.seg_cumcount(isrel) == 1)
        if k is not None:
            first &= r.pos < k
        return r.seg_sum(1.0 / r.rank, first), r.seg_count(first).astype(np.float64)
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
    "RR", params=(REL,), aliases=("mrr", "recip_rank", "reciprocal_rank"), trec={"recip_rank": ""}
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


@metric("success", params=(REL,), aliases=("hit_rate", "hits"), trec={"success": "k"})
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
    "num_ret", cutoff="none", bounds=(0, None), aggregate="sum", integer=True, trec={"num_ret": ""}
)
def num_ret(r: Ranked, k: int | None) -> np.ndarray:
    """Number of documents retrieved for the query (summed over queries): n = list length."""
    return r.n_ret.astype(np.float64)


@metric(
    "num_rel",
    params=(REL,),
    cutoff="none",
    bounds=(0, None),
    aggregate="sum",
    integer=True,
    trec={"num_rel": ""},
    from_qrels=True,
)
def num_rel(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Number of judged relevant documents of the query (summed over queries).

    R = #{judged documents with grade >= rel}, retrieved or not.
    """
    return r.num_rel(rel).astype(np.float64)


@metric(
    "num_rel_ret",
    params=(REL,),
    cutoff="none",
    bounds=(0, None),
    aggregate="sum",
    integer=True,
    trec={"num_rel_ret": ""},
)
def num_rel_ret(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Number of relevant documents retrieved (summed over queries): num_rel_ret = sum_i rel_i."""
    return r.seg_count(r.isrel(rel)).astype(np.float64)


@metric(
    "num_nonrel_judged_ret",
    params=(REL,),
    cutoff="none",
    bounds=(0, None),
    aggregate="sum",
    integer=True,
    higher_is_better=False,
    trec={"num_nonrel_judged_ret": ""},
)
def num_nonrel_judged_ret(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Judged non-relevant documents retrieved (summed over queries): sum_i [0 <= g_i < rel].

    Documents outside the qrels or pooled but unjudged are not counted. trec_eval's
    num_nonrel_judged_ret.
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
        return np.where(r.n_ret > 0, _div(num, r.n_ret), 0.0)
    return num / k


@metric("unjudged", aliases=("unjudged_at",), higher_is_better=False, trec={"unj": "k"})
def unjudged(r: Ranked, k: int | None) -> np.ndarray:
    """Unjudged@k: fraction of the top k without a judgment, sum_{i<=k} [g_i < 0] / k.

    Counts documents outside the qrels and pooled-but-unjudged ones; a list shorter than k
    is padded with judged documents (divided by k). Without k, the fraction of the whole list
    (0 for an empty list). trec_eval's unj, a "red flag" for poorly covered runs.
    """
    x = r.tie_mean((~r.judged).astype(np.float64))
    num = r.seg_sum(x, r.topk(k))
    if k is None:
        return np.where(r.n_ret > 0, _div(num, r.n_ret), 0.0)
    return num / k


@metric("bpref", params=(REL,), cutoff="none", average_ties=False, trec={"bpref": ""})
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
    return _div(r.seg_sum(term, isrel), big_r)


_INFAP_EPS = 1e-5


@metric("infAP", params=(REL,), cutoff="none", average_ties=False, trec={"infAP": ""})
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
    return _div(r.seg_sum(term, isrel), r.num_rel(rel))


@metric("binG", params=(REL,), cutoff="none", average_ties=False, trec={"binG": ""})
def bin_g(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Binary G: (1/R) sum_{relevant r} 1 / log2(2 + n_r), n_r = documents above r not relevant.

    Unjudged documents count as not relevant. Undefined when R = 0. trec_eval's
    experimental binG (Buckley, 2008): gain 1 per relevant document, discounted by the
    non-relevant ones read before it.
    """
    r.require_average_support("binG", False)
    isrel = r.isrel(rel)
    nonrel_above = r.pos - (r.seg_cumcount(isrel) - 1)
    term = 1.0 / np.log2(2.0 + nonrel_above)
    return _div(r.seg_sum(term, isrel), r.num_rel(rel))


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
    trec={"iprec_at_recall": "recall"},
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
    trec={"11pt_avg": ""},
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


# ---------------------------------------------------------------- graded measures


def _discount(discount: str, base: float) -> Any:
    if discount == "log2":

        def disc(pos: np.ndarray) -> np.ndarray:
            return 1.0 / np.log2(pos + 2.0)
    else:

        def disc(pos: np.ndarray) -> np.ndarray:
            return 1.0 / np.maximum(1.0, np.log(pos + 1.0) / np.log(base))

    return disc


Discount = Literal["log2", "jk"]


def gain_check(value: Any) -> Any:
    """'linear', 'exp', or a mapping grade -> non-negative gain."""
    if value in ("linear", "exp"):
        return value
    if isinstance(value, Mapping):
        out = {}
        for grade, gain in value.items():
            if isinstance(grade, bool) or not isinstance(grade, int):
                raise MetricError(f"gain map keys must be integer grades, got {grade!r}")
            if isinstance(gain, bool) or not isinstance(gain, int | float) or gain < 0:
                raise MetricError(
                    f"gain for grade {grade} must be a non-negative number, got {gain!r}"
                )
            out[int(grade)] = float(gain)
        if not out:
            raise MetricError("gain map is empty")
        return tuple(sorted(out.items()))
    raise MetricError(f"gain must be 'linear', 'exp' or a mapping grade -> gain, got {value!r}")


_GAIN = Param(
    "gain", "linear", gain_check, "'linear' (g), 'exp' (2^g - 1) or a mapping grade -> gain"
)
_DISCOUNT = Param(
    "discount",
    "log2",
    one_of("discount", Discount),
    "'log2': 1/log2(i+1); 'jk': Järvelin-Kekäläinen's original, 1/max(1, log_b i)",
)


def _log_base(value: Any) -> float:
    """The 'jk' discount's log base: a number > 1 (log_b is not a discount for b <= 1)."""
    return number(value, "b", low=1, low_open=True, error=MetricError)


_BASE = Param("b", 2.0, _log_base, "log base of the 'jk' discount (> 1)")


def _dcg(r: Ranked, k: int | None, gain: Any, discount: str, b: float) -> np.ndarray:
    g = r.tie_mean(r.gains(gain))
    mask = r.topk(k)
    disc = _discount(discount, b)
    return r.seg_sum(g * disc(r.pos.astype(np.float64)), mask)


@metric("dcg", params=(_GAIN, _DISCOUNT, _BASE), bounds=(0.0, None))
def dcg(r: Ranked, k: int | None, gain: Any, discount: str, b: float) -> np.ndarray:
    """Discounted cumulative gain: DCG@k = sum_{i<=k} gain(g_i) / log2(i + 1).

    With discount='jk', Järvelin & Kekäläinen's original: sum_{i<=k} g_i / max(1, log_b(i)),
    no discount before rank b.
    Reference: Järvelin & Kekäläinen (2002), "Cumulated gain-based evaluation of IR
    techniques", TOIS 20(4).
    """
    return _dcg(r, k, gain, discount, b)


@metric(
    "ndcg",
    params=(_GAIN, _DISCOUNT, _BASE),
    aliases=("ndcg_at",),
    trec={"ndcg_cut": "k", "ndcg": ""},
)
def ndcg(r: Ranked, k: int | None, gain: Any, discount: str, b: float) -> np.ndarray:
    """Normalised DCG: NDCG@k = DCG@k / IDCG@k.

    The ideal ranking orders all judged documents of the query by gain and is truncated at k.
    Undefined when IDCG@k = 0. Reference: Järvelin & Kekäläinen (2002), TOIS 20(4).
    """
    ideal = r.ideal_dcg(k, gain, (discount, b), _discount(discount, b))
    return _div(_dcg(r, k, gain, discount, b), ideal)


def _level_products(r: Ranked, factor: np.ndarray) -> np.ndarray:
    """prod_{j above i} factor(level_j) for every row i, from exact per-level counts."""
    _values, _ = r.row_levels
    out = np.ones(len(r.grade))
    for li, before in enumerate(r.level_cumcounts_before()):
        f = factor[li]
        if f != 1.0:
            out *= np.power(f, before)
    return out


def _gmax(r: Ranked, gmax: int | None, name: str) -> int:
    # Default: the qrels' maximum grade, at least 1. When no grade is positive every
    # (clipped) grade is 0 and so is every stop probability; 1 only avoids 0 / 0.
    top = max(int(r.max_grade), 1) if gmax is None else int(gmax)
    values, _ = r.row_levels
    if len(values) and values.max() > top:
        raise MetricError(f"{name}: grade {int(values.max())} exceeds gmax={top}")
    return top


_GMAX = Param(
    "gmax", None, optional(positive_int("gmax")), "highest grade (default: the qrels' maximum)"
)


@metric("err", params=(_GMAX,), average_ties=False)
def err(r: Ranked, k: int | None, gmax: int | None) -> np.ndarray:
    """Expected reciprocal rank: ERR@k = sum_{i<=k} (1/i) R_i prod_{j<i} (1 - R_j).

    R_g = (2^g - 1) / 2^gmax, gmax the highest grade (default: the qrels' maximum).
    Reference: Chapelle, Metzler, Zhang & Grinspan (2009), CIKM.
    """
    r.require_average_support("err", False)
    top = _gmax(r, gmax, "err")
    values, inv = r.row_levels
    # (2^g - 1) / 2^gmax written so that it never forms 2^g: exact and equal for g <= 53,
    # and no inf/inf for grades of 1024 and more.
    stop = np.exp2(values.astype(np.float64) - top) - np.exp2(-float(top))
    reach = _level_products(r, 1.0 - stop)
    return r.seg_sum(stop[inv] * reach / r.rank, r.topk(k))


@metric(
    "pfound",
    params=(
        Param("pbreak", 0.15, open_unit("pbreak"), "probability of abandoning after each document"),
        _GMAX,
    ),
    average_ties=False,
)
def pfound(r: Ranked, k: int | None, pbreak: float, gmax: int | None) -> np.ndarray:
    """pFound@k = sum_{i<=k} pLook_i pRel_i, pLook_1 = 1, pLook_i = pLook_{i-1}(1-pRel_{i-1})(1-pBreak).

    pRel_g = g / gmax (gmax default: the qrels' maximum grade). Reference: Segalovich (2010),
    "Machine learning in search quality at Yandex", SIGIR industry track.
    """
    r.require_average_support("pfound", False)
    top = _gmax(r, gmax, "pfound")
    values, inv = r.row_levels
    prel = values.astype(np.float64) / float(top)
    look = _level_products(r, 1.0 - prel) * np.power(1.0 - pbreak, r.pos.astype(np.float64))
    return r.seg_sum(prel[inv] * look, r.topk(k))


_P_RBP = Param("p", 0.8, open_unit("p"), "persistence: probability of reading on")


@metric("rbp", params=(_P_RBP, REL))
def rbp(r: Ranked, k: int | None, p: float, rel: int) -> np.ndarray:
    """Rank-biased precision: RBP = (1 - p) sum_{i<=k} rel_i p^(i-1).

    Unjudged documents count as non-relevant; see rbp_resid for the uncertainty they leave.
    Reference: Moffat & Zobel (2008), TOIS 27(1).
    """
    x = r.tie_mean(r.isrel(rel).astype(np.float64))
    return (1.0 - p) * r.seg_sum(x * np.power(p, r.pos.astype(np.float64)), r.topk(k))


@metric("rbp_resid", params=(_P_RBP,), higher_is_better=False)
def rbp_resid(r: Ranked, k: int | None, p: float) -> np.ndarray:
    """RBP residual: p^d + (1 - p) sum_{i<=d, unjudged} p^(i-1), d = min(k, list length).

    The most RBP could still rise if every unjudged document and everything below depth d
    were relevant. Reference: Moffat & Zobel (2008), TOIS 27(1), §4.
    """
    x = r.tie_mean((~r.judged).astype(np.float64))
    tail = np.power(p, r.depth(k).astype(np.float64))
    return tail + (1.0 - p) * r.seg_sum(x * np.power(p, r.pos.astype(np.float64)), r.topk(k))


# ---------------------------------------------------------------- pairwise and error measures


def _pair_stats(r: Ranked, k: int | None) -> dict[str, np.ndarray]:
    """Pair counts per query over the top k: discordant (score order vs grade), distinct-grade
    pairs, and the Kendall tau-b ingredients."""
    if r.ties == "average" and k is not None:
        raise ConventionError(
            "pairwise metrics support ties='average' only without a cutoff (the tied documents "
            "that fall inside the top k are random); drop @k or use ties='docno'"
        )
    out: dict[str, np.ndarray] = r.memo(("pairs", k), lambda: _count_pairs(r, k))
    return out


def _count_pairs(r: Ranked, k: int | None) -> dict[str, np.ndarray]:
    values, inv = r.row_levels
    mask = np.ones(len(inv), dtype=bool) if k is None else r.pos < k
    n = r.depth(k).astype(np.float64)
    before = r.level_cumcounts_before()
    gid, starts, _sizes = r.tie_group
    # Discordant: a higher grade ranked below a lower one. For row j, count the rows above it
    # with a lower grade. Under ties='average' only rows of earlier tie groups count fully.
    lower_above = np.zeros(len(inv))
    lower_above_groups = np.zeros(len(inv))
    higher_above_groups = np.zeros(len(inv))
    group_start_of_row = starts[gid] if len(gid) else np.zeros(0, dtype=np.int64)
    for li, cnt in enumerate(before):
        at_group_start = cnt[group_start_of_row] if len(cnt) else cnt
        lower = inv > li
        higher = inv < li
        lower_above += np.where(lower, cnt, 0)
        lower_above_groups += np.where(lower, at_group_start, 0)
        higher_above_groups += np.where(higher, at_group_start, 0)
    # Pairs tied in grade, and pairs tied in score, within the top k.
    same_grade = np.zeros(r.nq)
    for li in range(len(values)):
        c = r.seg_count((inv == li) & mask).astype(np.float64)
        same_grade += c * (c - 1) / 2
    total = n * (n - 1) / 2
    # Tie groups restricted to the top k.
    gq = r.qidx[starts] if len(starts) else np.zeros(0, dtype=np.int64)
    gsize_k = (
        np.bincount(gid[mask], minlength=len(starts)).astype(np.float64)
        if len(gid)
        else np.zeros(0)
    )
    same_score = np.bincount(gq, weights=gsize_k * (gsize_k - 1) / 2, minlength=r.nq)
    if r.ties == "average":
        # Within a tie group, each pair with distinct grades is discordant with probability 1/2.
        within: np.ndarray = np.zeros(r.nq)
        if len(gid):
            g_same = np.zeros(len(starts))
            for li in range(len(values)):
                c = np.bincount(gid[mask & (inv == li)], minlength=len(starts)).astype(np.float64)
                g_same += c * (c - 1) / 2
            within = np.bincount(gq, weights=gsize_k * (gsize_k - 1) / 2 - g_same, minlength=r.nq)
        disc = r.seg_sum(lower_above_groups, mask) + 0.5 * within
    else:
        disc = r.seg_sum(lower_above, mask)
    conc_strict = r.seg_sum(higher_above_groups, mask)
    disc_strict = r.seg_sum(lower_above_groups, mask)
    return {
        "discordant": disc,
        "distinct": total - same_grade,
        "total": total,
        "same_grade": same_grade,
        "same_score": same_score,
        "s": conc_strict - disc_strict,
    }


@metric(
    "discordant_pairs", bounds=(0.0, None), higher_is_better=False, aliases=("swaps", "inversions")
)
def discordant_pairs(r: Ranked, k: int | None) -> np.ndarray:
    """Discordant pairs: pairs ranked in the opposite order of their grades (bubble-sort swaps).

    Counts pairs (i above j) with g_i < g_j in the ranking after the tie convention; under
    ties='average' a tied pair of distinct grades counts 1/2. Unjudged documents have grade 0.
    Reference: Kendall (1938); Joachims (2002), "Optimizing search engines using clickthrough data".
    """
    return _pair_stats(r, k)["discordant"]


@metric("pairwise_accuracy", aliases=("pair_acc",))
def pairwise_accuracy(r: Ranked, k: int | None) -> np.ndarray:
    """Pairwise accuracy: 1 - discordant / (pairs with distinct grades).

    Undefined when all documents share one grade. Reference: Joachims (2002).
    """
    s = _pair_stats(r, k)
    return 1.0 - _div(s["discordant"], s["distinct"])


@metric("kendall_tau", bounds=(-1.0, 1.0), aliases=("tau_b", "kendall"))
def kendall_tau(r: Ranked, k: int | None) -> np.ndarray:
    """Kendall's tau-b between scores and grades: (C - D) / sqrt((n0 - n1)(n0 - n2)).

    n0 = n(n-1)/2, n1 pairs tied in score, n2 pairs tied in grade; tied pairs count neither way
    (tau-b handles score ties itself, whatever the tie convention). Undefined when either side
    is constant. Reference: Kendall (1945), "The treatment of ties in ranking problems".
    """
    # The one tau-b of assay, shared with stats.kendall.
    s = _pair_stats(r, k)
    return np.asarray(tau_b(s["s"], s["total"], s["same_score"], s["same_grade"]))


@metric("mse", cutoff="none", bounds=(0.0, None), higher_is_better=False)
def mse(r: Ranked, k: int | None) -> np.ndarray:
    """Mean squared error of scores against grades over the retrieved documents (LTR).

    (1/n) sum_i (score_i - g_i)^2, unjudged documents with grade 0. Undefined for an empty list.
    """
    d = r.score - r.clipped_grade
    return _div(r.seg_sum(d * d), r.n_ret)


@metric("rmse", cutoff="none", bounds=(0.0, None), higher_is_better=False)
def rmse(r: Ranked, k: int | None) -> np.ndarray:
    """Root mean squared error of scores against grades, per query: sqrt(mse).

    rmse = sqrt((1/n) sum_i (score_i - g_i)^2). The aggregate is the mean of the per-query
    values.
    """
    return np.sqrt(mse(r, k))
