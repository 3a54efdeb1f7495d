"""Pairwise and error ranking metrics: discordant pairs, pairwise accuracy, Kendall's τ-b
between scores and grades, and the squared error of the scores. One declaration per metric.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from ...data.ranked import Ranked
from ...errors import ConventionError
from ...metrics.registry import metric
from .basic import nan_divide

__all__ = [
    "discordant_pairs",
    "kendall_tau",
    "mse",
    "pairwise_accuracy",
    "rmse",
]


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
    return 1.0 - nan_divide(s["discordant"], s["distinct"])


@metric("kendall_tau", bounds=(-1.0, 1.0), aliases=("tau_b", "kendall"))
def kendall_tau(r: Ranked, k: int | None) -> np.ndarray:
    """Kendall's tau-b between scores and grades: (C - D) / sqrt((n0 - n1)(n0 - n2)).

    n0 = n(n-1)/2, n1 pairs tied in score, n2 pairs tied in grade; tied pairs count neither way
    (tau-b handles score ties itself, whatever the tie convention). Undefined when either side
    is constant. Reference: Kendall (1945), "The treatment of ties in ranking problems".
    """
    # The one tau-b of assay, shared with stats.kendall (imported here: loading the statistics
    # package is a tenth of a small evaluation's start-up, and few evaluations ask for tau).
    from ...stats.concordance import tau_b

    s = _pair_stats(r, k)
    return np.asarray(tau_b(s["s"], s["total"], s["same_score"], s["same_grade"]))


@metric("mse", cutoff="none", bounds=(0.0, None), higher_is_better=False)
def mse(r: Ranked, k: int | None) -> np.ndarray:
    """Mean squared error of scores against grades over the retrieved documents (LTR).

    (1/n) sum_i (score_i - g_i)^2, unjudged documents with grade 0. Undefined for an empty list.

    Reference: Liu (2009), "Learning to Rank for Information Retrieval", Foundations and Trends
    in IR 3(3), ch. 2 (the pointwise approach).
    """
    d = r.score - r.clipped_grade
    return nan_divide(r.seg_sum(d * d), r.n_ret)


@metric("rmse", cutoff="none", bounds=(0.0, None), higher_is_better=False)
def rmse(r: Ranked, k: int | None) -> np.ndarray:
    """Root mean squared error of scores against grades, per query: sqrt(mse).

    rmse = sqrt((1/n) sum_i (score_i - g_i)^2). The aggregate is the mean of the per-query
    values.

    Reference: Liu (2009), "Learning to Rank for Information Retrieval", Foundations and Trends
    in IR 3(3), ch. 2 (the pointwise approach).
    """
    return cast(np.ndarray, np.sqrt(mse(r, k)))
