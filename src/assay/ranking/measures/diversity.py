"""Diversity (intent-aware) measures of the TREC Web track, as ndeval computes them: α-DCG,
α-nDCG, ERR-IA, nERR-IA, NRBP, nNRBP, P-IA, MAP-IA and subtopic recall.

Notation: S is the number of subtopics of the query with at least one judgment >= ``rel``
(subtopics without a positive judgment are ignored, as ndeval does); a document is relevant
to subtopic s when its judgment for s is >= ``rel`` (ndeval: judgments > 1 count as 1); c(i, s)
is how many documents ranked above i were relevant to s; rank i = 1..n.

The gain of rank i is G(i) = sum over the subtopics s document i is relevant to of
(1 - α)^c(i, s). Normalisation, ndeval's conventions (recorded in every result):

- "collection-independent" (α-DCG, ERR-IA, NRBP): divided by the value of an ideal-ideal
  list whose every document covers every subtopic, sum_{i<=k} S (1 - α)^(i-1) w(i) -- except
  at k = 1, where ndeval leaves α-DCG and ERR-IA undivided;
- "collection-dependent" (α-nDCG, nERR-IA, nNRBP): the same quantity of the run divided by
  that of ndeval's greedy ideal ranking (at every rank the judged document of largest gain,
  ties to the largest document id), an approximation of the NP-hard ideal.

The measures at a cutoff take k = 20 (ndeval's deepest) when asked without one.
Queries with no positive subtopic judgment are undefined (NaN; ``no_relevant`` decides: 0 by
default, as ndeval's values -- ndeval itself prints NaN for nNRBP).
"""

from __future__ import annotations

import numpy as np

from ...data.ranked import Ranked
from ...metrics.registry import REL, Param, Peer, closed_unit, metric
from ._intents import (
    decays,
    discounts,
    ideal_gains,
    ideal_ideal,
    judgments,
    row_gains,
)

__all__ = [
    "alpha_dcg",
    "alpha_ndcg",
    "err_ia",
    "map_ia",
    "nerr_ia",
    "nnrbp",
    "nrbp",
    "p_ia",
    "subtopic_recall",
]

#: The cutoff of a measure asked without one: ndeval's deepest (it reports @5, @10, @20).
DEPTH = 20

_ALPHA = Param("alpha", 0.5, closed_unit("alpha"), "redundancy intolerance α, in [0, 1]")
_BETA = Param("beta", 0.5, closed_unit("beta"), "NRBP's patience β, in [0, 1]")


def _undefined(r: Ranked, rel: int, values: np.ndarray) -> np.ndarray:
    """NaN where the query has no subtopic with a positive judgment."""
    return np.where(judgments(r, rel).n_sub > 0, values, np.nan)


def _cumulated(r: Ranked, k: int, gains: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """sum_{i<=k} G(i) w(i) per query, added in rank order (ndeval's running sum)."""
    rows = r.topk(k)
    pos = r.pos if rows is None else r.pos[rows]
    g = gains if rows is None else gains[rows]
    q = r.qidx if rows is None else r.qidx[rows]
    return np.bincount(q, weights=g * weight[pos], minlength=r.nq)


def _ideal_cumulated(r: Ranked, k: int, rel: int, alpha: float, weight: np.ndarray) -> np.ndarray:
    values, offsets = ideal_gains(r, rel, alpha)
    counts = np.diff(offsets)
    q = np.repeat(np.arange(r.nq, dtype=np.int64), counts)
    pos = np.arange(len(values), dtype=np.int64) - np.repeat(offsets[:-1], counts)
    keep = pos < k
    return np.bincount(q[keep], weights=values[keep] * weight[pos[keep]], minlength=r.nq)


def _normalised(
    r: Ranked, k: int, rel: int, alpha: float, weight: np.ndarray, ideal: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The run's and (``ideal``) the greedy ideal's cumulated gain, each divided by the
    ideal-ideal list's (not at k = 1, as ndeval)."""
    run = _cumulated(r, k, row_gains(r, rel, alpha), weight)
    best = _ideal_cumulated(r, k, rel, alpha, weight) if ideal else run
    if k == 1:
        return run, best
    with np.errstate(divide="ignore", invalid="ignore"):
        norm = ideal_ideal(judgments(r, rel).n_sub, k, alpha, weight)
        return run / norm, best / norm


def _dcg_like(
    r: Ranked, k: int, rel: int, alpha: float, weight: np.ndarray, ratio: bool
) -> np.ndarray:
    r.require_average_support("diversity measures", False)
    run, best = _normalised(r, k, rel, alpha, weight, ratio)
    if ratio:
        with np.errstate(divide="ignore", invalid="ignore"):
            run = np.where(run != 0, run / best, 0.0)
    return _undefined(r, rel, run)


def _err_like(r: Ranked, k: int, rel: int, alpha: float, ratio: bool) -> np.ndarray:
    r.require_average_support("diversity measures", False)
    ranks = np.arange(1, k + 1, dtype=np.float64)
    gains = row_gains(r, rel, alpha)
    rows = r.topk(k)
    pos = r.pos if rows is None else r.pos[rows]
    g = gains if rows is None else gains[rows]
    q = r.qidx if rows is None else r.qidx[rows]
    run = np.bincount(q, weights=g / ranks[pos], minlength=r.nq)
    j = judgments(r, rel)
    values, offsets = ideal_gains(r, rel, alpha)
    counts = np.diff(offsets)
    iq = np.repeat(np.arange(r.nq, dtype=np.int64), counts)
    ipos = np.arange(len(values), dtype=np.int64) - np.repeat(offsets[:-1], counts)
    keep = ipos < k
    best = np.bincount(iq[keep], weights=values[keep] / ranks[ipos[keep]], minlength=r.nq)
    if k > 1:
        with np.errstate(divide="ignore", invalid="ignore"):
            norm = _err_ideal_ideal(j.n_sub, k, alpha)
            run, best = run / norm, best / norm
    if ratio:
        # ndeval divides where the run's α-DCG is non-zero: where some gain is positive
        dcg = _cumulated(r, k, gains, np.ones(max(k, 1)))
        with np.errstate(divide="ignore", invalid="ignore"):
            run = np.where(dcg != 0, run / best, 0.0)
    return _undefined(r, rel, run)


def _err_ideal_ideal(n_sub: np.ndarray, k: int, alpha: float) -> np.ndarray:
    gain = n_sub.astype(np.float64)
    acc = np.zeros(len(n_sub), dtype=np.float64)
    for i in range(k):
        term = gain / float(i + 1)
        acc = term if i == 0 else term + acc
        gain = gain * (1.0 - alpha)
    return acc


@metric(
    "alpha_dcg",
    params=(REL, _ALPHA),
    cutoff="optional",
    average_ties=False,
    aliases=("alpha_DCG",),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('alpha-DCG@k')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def alpha_dcg(r: Ranked, k: int | None, rel: int, alpha: float) -> np.ndarray:
    """α-DCG@k with ndeval's collection-independent normalisation.

    α-DCG@k = sum_{i<=k} G(i) / log2(i + 1), divided by the ideal-ideal list's
    sum_{i<=k} S (1 - α)^(i-1) / log2(i + 1) for k > 1 (ndeval leaves k = 1 undivided).
    Reference: Clarke et al. (2008), "Novelty and diversity in information retrieval
    evaluation", SIGIR; ndeval (TREC Web track).
    """
    k = DEPTH if k is None else k
    return _dcg_like(r, k, rel, alpha, discounts(k), False)


@metric(
    "alpha_ndcg",
    params=(REL, _ALPHA),
    cutoff="optional",
    average_ties=False,
    aliases=("alpha_nDCG",),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('alpha-nDCG@k')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def alpha_ndcg(r: Ranked, k: int | None, rel: int, alpha: float) -> np.ndarray:
    """α-nDCG@k: the run's α-DCG@k over that of ndeval's greedy ideal ranking.

    α-nDCG@k = α-DCG@k(run) / α-DCG@k(greedy ideal), 0 where the run gains nothing.
    Reference: Clarke et al. (2008), "Novelty and diversity in information retrieval
    evaluation", SIGIR; ndeval (TREC Web track).
    """
    k = DEPTH if k is None else k
    return _dcg_like(r, k, rel, alpha, discounts(k), True)


@metric(
    "err_ia",
    params=(REL, _ALPHA),
    cutoff="optional",
    average_ties=False,
    aliases=("ERR_IA",),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('ERR-IA@k')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def err_ia(r: Ranked, k: int | None, rel: int, alpha: float) -> np.ndarray:
    """ERR-IA@k with ndeval's collection-independent normalisation.

    ERR-IA@k = sum_{i<=k} G(i) / i, divided by the ideal-ideal list's
    sum_{i<=k} S (1 - α)^(i-1) / i for k > 1 (ndeval leaves k = 1 undivided).
    Reference: Chapelle et al. (2009), "Expected reciprocal rank for graded relevance",
    CIKM; Agrawal et al. (2009), "Diversifying search results", WSDM; ndeval.
    """
    return _err_like(r, DEPTH if k is None else k, rel, alpha, False)


@metric(
    "nerr_ia",
    params=(REL, _ALPHA),
    cutoff="optional",
    average_ties=False,
    aliases=("nERR_IA",),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('nERR-IA@k')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def nerr_ia(r: Ranked, k: int | None, rel: int, alpha: float) -> np.ndarray:
    """nERR-IA@k: the run's ERR-IA@k over that of ndeval's greedy ideal ranking.

    nERR-IA@k = ERR-IA@k(run) / ERR-IA@k(greedy ideal), 0 where the run gains nothing.
    Reference: Chapelle et al. (2009), "Expected reciprocal rank for graded relevance",
    CIKM; ndeval (TREC Web track).
    """
    return _err_like(r, DEPTH if k is None else k, rel, alpha, True)


def _nrbp_sum(r: Ranked, rel: int, alpha: float, beta: float) -> tuple[np.ndarray, np.ndarray]:
    gains = row_gains(r, rel, alpha)
    values, offsets = ideal_gains(r, rel, alpha)
    n = max(int(r.n_ret.max()) if r.nq else 0, int(np.diff(offsets).max()) if r.nq else 0)
    decay = decays(beta, n)
    run = np.bincount(r.qidx, weights=gains * decay[r.pos], minlength=r.nq)
    counts = np.diff(offsets)
    iq = np.repeat(np.arange(r.nq, dtype=np.int64), counts)
    ipos = np.arange(len(values), dtype=np.int64) - np.repeat(offsets[:-1], counts)
    best = np.bincount(iq, weights=values * decay[ipos], minlength=r.nq)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = (1 - (1 - alpha) * beta) / judgments(r, rel).n_sub.astype(np.float64)
        return run * factor, best * factor


@metric(
    "nrbp",
    params=(REL, _ALPHA, _BETA),
    cutoff="none",
    average_ties=False,
    aliases=("NRBP",),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('NRBP')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def nrbp(r: Ranked, k: None, rel: int, alpha: float, beta: float) -> np.ndarray:
    """Novelty- and rank-biased precision, ndeval's collection-independent normalisation.

    NRBP = (1 - (1 - α) β) / S * sum_i β^(i-1) G(i), over the whole ranking.
    Reference: Clarke, Kolla & Vechtomova (2009), "An effectiveness measure for ambiguous
    and underspecified queries", ICTIR; ndeval.
    """
    r.require_average_support("nrbp", False)
    return _undefined(r, rel, _nrbp_sum(r, rel, alpha, beta)[0])


@metric(
    "nnrbp",
    params=(REL, _ALPHA, _BETA),
    cutoff="none",
    average_ties=False,
    aliases=("nNRBP",),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('nNRBP')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def nnrbp(r: Ranked, k: None, rel: int, alpha: float, beta: float) -> np.ndarray:
    """NRBP over the NRBP of ndeval's greedy ideal ranking.

    nNRBP = NRBP(run) / NRBP(greedy ideal).
    Reference: Clarke, Kolla & Vechtomova (2009), "An effectiveness measure for ambiguous
    and underspecified queries", ICTIR; ndeval.
    """
    r.require_average_support("nnrbp", False)
    run, best = _nrbp_sum(r, rel, alpha, beta)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _undefined(r, rel, run / best)


@metric(
    "p_ia",
    params=(REL,),
    cutoff="optional",
    average_ties=False,
    aliases=("P_IA",),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('P-IA@k')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def p_ia(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Intent-aware precision at k.

    P-IA@k = (number of (document, subtopic) relevant pairs in the top k) / (k S).
    Reference: Agrawal et al. (2009), "Diversifying search results", WSDM; ndeval.
    """
    r.require_average_support("p_ia", False)
    k = DEPTH if k is None else k
    j = judgments(r, rel)
    top = r.pos[j.row] < k
    count = np.bincount(r.qidx[j.row[top]], minlength=r.nq).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _undefined(r, rel, count / (k * j.n_sub).astype(np.float64))


@metric(
    "subtopic_recall",
    params=(REL,),
    cutoff="optional",
    average_ties=False,
    aliases=("strec", "StRecall"),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('strec@k')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def subtopic_recall(r: Ranked, k: int | None, rel: int) -> np.ndarray:
    """Subtopic recall at k: the fraction of the S subtopics covered by the top k.

    S-recall@k = |{s : some document of the top k is relevant to s}| / S.
    Reference: Zhai, Cohen & Lafferty (2003), "Beyond independent relevance", SIGIR; ndeval.
    """
    r.require_average_support("subtopic_recall", False)
    k = DEPTH if k is None else k
    j = judgments(r, rel)
    first = (r.pos[j.row] < k) & (j.seen == 0)
    count = np.bincount(r.qidx[j.row[first]], minlength=r.nq).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _undefined(r, rel, count / j.n_sub.astype(np.float64))


@metric(
    "map_ia",
    params=(REL,),
    cutoff="none",
    average_ties=False,
    aliases=("AP_IA",),
    peers=(
        Peer(
            "pyndeval",
            "pyndeval.RelevanceEvaluator ('MAP-IA')",
            "Gives 0 where no subtopic has a positive judgment (nNRBP: NaN), where assay's no_relevant convention decides; it evaluates only the queries of both qrels and run (assay's missing='skip').",
        ),
    ),
)
def map_ia(r: Ranked, k: None, rel: int) -> np.ndarray:
    """Intent-aware average precision: the mean over the S subtopics of each subtopic's AP.

    MAP-IA = (1/S) sum_s (1/R_s) sum_{i relevant to s} (c(i, s) + 1) / i, R_s the relevant
    judged documents of s.
    Reference: Agrawal et al. (2009), "Diversifying search results", WSDM; ndeval.
    """
    r.require_average_support("map_ia", False)
    j = judgments(r, rel)
    order = np.lexsort((j.row, j.seg))
    seg, row, seen = j.seg[order], j.row[order], j.seen[order]
    total = np.bincount(seg, weights=(seen + 1) / r.rank[row], minlength=len(j.nrel))
    used = np.flatnonzero(np.bincount(seg, minlength=len(j.nrel)))
    ap = np.bincount(j.seg_query[used], weights=total[used] / j.nrel[used], minlength=r.nq)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _undefined(r, rel, ap / j.n_sub.astype(np.float64))
