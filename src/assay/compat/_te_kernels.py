"""trec_eval 10.0's measures as whole-array kernels over assay's ranked-list context.

Every kernel takes the :class:`TrecContext` (one run joined with the qrels, in CSR form: rows are
retrieved documents in rank order, grouped by topic) and the measure's parsed parameters, and
returns one per-topic array per output value. Kernels loop over cutoffs, parameters and gain
levels — never over documents.

Exactness. trec_eval prints ``%6.4f``, so a value must be the same double, not merely close, to
print the same bytes. The kernels therefore keep trec_eval's arithmetic: every per-topic sum is
sequential in rank order (``np.bincount`` and ``np.cumsum`` add left to right; a per-topic
running sum is :func:`~assay.compat._te_arithmetic.seg_cumsum`), divisions are divisions (not multiplications by a
reciprocal), integer parts stay integers until trec_eval converts them, and ``log2`` of an
integer comes from the C library (numpy's SIMD ``log2`` differs from glibc's in the last bit for
a few integers). Where trec_eval's own arithmetic produces NaN or infinity (0/0 on an empty
ranking, say), so do the kernels; :func:`~assay.compat._te_arithmetic.format_value` prints
them as glibc does.

trec_eval behaviours reproduced on purpose are marked ``QUIRK`` in the comments.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from ..data.ranked import seg_rev_cummax
from ..ranking.measures.basic import (
    average_precision,
    bpref,
    inf_ap,
    num_nonrel_judged_ret,
    precision,
    r_precision,
    recall,
    reciprocal_rank,
    relative_precision,
    set_map,
    success,
    unjudged,
)
from ._te_arithmetic import (
    MIN_GEO_MEAN,
    log2_any,
    log2_int,
    seg_cumsum,
    seg_total,
)
from ._te_context import Gains, TrecContext


def _div0(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den where den != 0, else 0 (trec_eval leaves the value at its initial 0)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _nan0(x: np.ndarray) -> np.ndarray:
    """assay's kernels return NaN where a measure is undefined (no relevant document); trec_eval
    leaves 0 there. Only used on kernels whose NaN means exactly that."""
    return np.where(np.isnan(x), 0.0, x)


Values = list[Any]  # one per-topic array (or list of strings) per output value


def k_num_q(ctx: TrecContext, params: Any) -> Values:
    return [np.ones(ctx.nq)]


def k_num_ret(ctx: TrecContext, params: Any) -> Values:
    return [ctx.n_ret.astype(np.float64)]


def k_num_rel(ctx: TrecContext, params: Any) -> Values:
    return [ctx.num_rel.astype(np.float64)]


def k_num_rel_ret(ctx: TrecContext, params: Any) -> Values:
    return [ctx.num_rel_ret.astype(np.float64)]


def _once(ctx: TrecContext, key: str, compute: Any) -> np.ndarray:
    """A per-topic column computed once per context (shared by map/gm_map, bpref/gm_bpref)."""
    if key not in ctx._cache:
        ctx._cache[key] = compute()
    out: np.ndarray = ctx._cache[key]
    return out


def _ap(ctx: TrecContext) -> np.ndarray:
    # assay's AP kernel: rel_so_far / rank summed in rank order, divided by R (NaN when R = 0,
    # where trec_eval has nothing to sum and leaves 0).
    return _once(ctx, "ap", lambda: _nan0(average_precision(ctx.r, None, ctx.rel)))


def k_map(ctx: TrecContext, params: Any) -> Values:
    return [_ap(ctx)]


def k_gm_map(ctx: TrecContext, params: Any) -> Values:
    # Per topic trec_eval keeps log(max(AP, 1e-5)); the summary is exp of their mean.
    return [np.log(np.maximum(_ap(ctx), MIN_GEO_MEAN))]


def k_Rprec(ctx: TrecContext, params: Any) -> Values:
    return [_nan0(r_precision(ctx.r, None, ctx.rel))]


def _bpref(ctx: TrecContext) -> np.ndarray:
    return _once(ctx, "bpref", lambda: _nan0(bpref(ctx.r, None, ctx.rel)))


def k_bpref(ctx: TrecContext, params: Any) -> Values:
    return [_bpref(ctx)]


def k_gm_bpref(ctx: TrecContext, params: Any) -> Values:
    return [np.log(np.maximum(_bpref(ctx), MIN_GEO_MEAN))]


def k_recip_rank(ctx: TrecContext, params: Any) -> Values:
    return [reciprocal_rank(ctx.r, None, ctx.rel)]


def _c_lround(x: np.ndarray) -> np.ndarray:
    """C's ``lround``: nearest integer, halves away from zero (exact, unlike floor(x + 0.5))."""
    t = np.trunc(x)
    frac = x - t  # exact
    return cast(np.ndarray, (t + np.where(np.abs(frac) >= 0.5, np.sign(x), 0.0)).astype(np.int64))


def _iprec_walk(
    ctx: TrecContext, levels: Sequence[float]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """m_iprec_at_recall.c / m_11pt_avg.c: interpolated precision at recall levels.

    Each level becomes a number of relevant documents, lround(level * R) (trec_eval 10) or
    (long)(level * R + 0.9) (trec_eval 9, ``iprec_rounding="trec9"``). trec_eval then walks the
    ranking from the bottom with a pointer over the levels, from the last one given down to the
    first; this reproduces that walk for any order of levels (11pt_avg does not sort them):
    levels whose count exceeds the relevant retrieved documents are skipped (0) until the first
    one that does not; a level is then met at its count — the best precision at or below that
    relevant document — unless it is 0 or above the previous one met, which stops the pointer;
    the stopped level and all after it get the final interpolated precision (of the first
    relevant document; num_rel_ret / num_ret when none was retrieved, NaN for an empty list).

    Returns the values in level order and, per level, whether it was given a value (for
    11pt_avg's running sum, which adds only those).
    """
    nq = ctx.nq
    num_rel = ctx.num_rel.astype(np.float64)
    nrr = ctx.num_rel_ret
    rows = np.flatnonzero(ctx.isrel)
    c = ctx.r.seg_cumcount(ctx.isrel)
    prec = c[rows] / ctx.r.rank[rows]
    best = seg_rev_cummax(prec, ctx.qidx[rows])  # interpolated precision at each relevant doc
    start = np.concatenate(([0], np.cumsum(ctx.r.seg_count(ctx.isrel))))[:-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        none_found = nrr / ctx.n_ret.astype(np.float64)  # 0/0 = NaN for an empty ranking
    final = none_found.copy()
    have = nrr > 0
    final[have] = best[start[have]]
    n = len(levels)
    values = [np.zeros(nq) for _ in range(n)]
    assigned = [np.zeros(nq, dtype=bool) for _ in range(n)]
    skipping = np.ones(nq, dtype=bool)
    stuck = np.zeros(nq, dtype=bool)
    m_pos = nrr.copy()
    for ci in range(n - 1, -1, -1):
        x = levels[ci] * num_rel
        if ctx.iprec_rounding == "trec9":
            cut = np.trunc(x + 0.9).astype(np.int64)
        else:
            cut = _c_lround(x)
        skip_now = skipping & (cut > nrr)
        walking = ~skip_now & ~stuck
        skipping &= skip_now
        meet = walking & (cut >= 1) & (cut <= m_pos)
        stuck |= walking & ~meet
        val = np.zeros(nq)
        idx = start + np.maximum(cut, 1) - 1
        val[meet] = best[idx[meet]]
        val[stuck] = final[stuck]
        m_pos = np.where(meet, cut, m_pos)
        values[ci] = val
        assigned[ci] = meet | stuck
    return values, assigned


def k_iprec_at_recall(ctx: TrecContext, params: Sequence[float]) -> Values:
    values, _ = _iprec_walk(ctx, params)
    return values


def k_11pt_avg(ctx: TrecContext, params: Sequence[float]) -> Values:
    values, assigned = _iprec_walk(ctx, params)
    total = np.zeros(ctx.nq)
    for ci in range(len(params) - 1, -1, -1):  # trec_eval adds them as the pointer meets them
        total = total + np.where(assigned[ci], values[ci], 0.0)
    return [total / float(len(params))]


def k_P(ctx: TrecContext, params: Sequence[int]) -> Values:
    return [precision(ctx.r, k, ctx.rel) for k in params]


_RELCHAR = np.frombuffer(b".-0123456789", dtype="S1")  # UNJUDGED, NONPOOL, 0..9


def k_relstring(ctx: TrecContext, params: Sequence[float]) -> Values:
    # The first N relevance values as characters: 0-9, '>' above 9, '-' not in the pool,
    # '.' pooled but unjudged, '<' any other negative value (none reach here).
    length = int(params[0]) if math.isfinite(params[0]) else 0
    g = ctx.grade
    chars = np.where(g > 9, b">", np.where(g < -2, b"<", _RELCHAR[np.clip(g + 2, 0, 11)]))
    keep = ctx.pos < max(length, 0)
    text = chars[keep].astype("S1").tobytes().decode("ascii")
    counts = np.minimum(ctx.n_ret, max(length, 0))
    ends = np.cumsum(counts)
    starts = ends - counts
    return [[text[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]]


def k_recall(ctx: TrecContext, params: Sequence[int]) -> Values:
    return [_nan0(recall(ctx.r, k, ctx.rel)) for k in params]


def k_infAP(ctx: TrecContext, params: Any) -> Values:
    return [_nan0(inf_ap(ctx.r, None, ctx.rel))]


def k_Rprec_mult(ctx: TrecContext, params: Sequence[float]) -> Values:
    # Precision at (long)(m * R + 0.9) documents (this one kept trec_eval 9's rounding);
    # beyond the list the missing documents count as non-relevant; a cutoff below 1 gives 0.
    num_rel = ctx.num_rel.astype(np.float64)
    out = []
    for mult in params:
        cut = np.trunc(mult * num_rel + 0.9).astype(np.int64)
        hits = ctx.relret_top(cut).astype(np.float64)
        out.append(_div0(hits, np.where(cut >= 1, cut, 0).astype(np.float64)))
    return out


def k_utility(ctx: TrecContext, params: Sequence[float]) -> Values:
    p1, p2, p3, p4 = params
    nrr = ctx.num_rel_ret.astype(np.float64)
    ret = ctx.n_ret
    rel = ctx.num_rel
    value = (
        p1 * nrr
        + p2 * (ret - ctx.num_rel_ret).astype(np.float64)
        + p3 * (rel - ctx.num_rel_ret).astype(np.float64)
        + p4 * (ctx.num_docs + ctx.num_rel_ret - ret - rel).astype(np.float64)
    )
    return [value]


def k_binG(ctx: TrecContext, params: Any) -> Values:
    # Each relevant document adds 1 / log2(2 + non-relevant documents above it) (assay's binG,
    # with glibc's log2 of the integer).
    c = ctx.r.seg_cumcount(ctx.isrel)
    term = np.where(ctx.isrel, 1.0 / log2_int(np.maximum(3 + ctx.pos - c, 1)), 0.0)
    total = seg_total(ctx.r, term, ctx.isrel)
    found = ctx.r.seg_count(ctx.isrel) > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        return [np.where(found, total / ctx.num_rel.astype(np.float64), 0.0)]


def k_G(ctx: TrecContext, params: Sequence[tuple[str, float]]) -> Values:
    # G: each document adds gain / log2(2 + ideal gain so far - gain so far), the "ideal gain"
    # per position being max(ideal gain, 1) while the ideal ranking lasts, then 1.
    gs = ctx.gains(params)
    g = gs.row_gain
    in_ideal = ctx.pos < gs.length[ctx.qidx]
    at = np.where(in_ideal, gs.ioffsets[:-1][ctx.qidx] + ctx.pos, 0)
    ideal_here = gs.ig[at] if len(gs.ig) else np.zeros(len(g))
    cost = np.where(in_ideal & (ideal_here >= 1.0), ideal_here, 1.0)
    sum_cost = seg_cumsum(cost, ctx.offsets)
    sum_results = seg_cumsum(g, ctx.offsets)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = np.where(g != 0, g / log2_any((2.0 + sum_cost) - sum_results), 0.0)
    results_g = seg_total(ctx.r, term)
    sum_ideal = np.bincount(gs.iq, weights=gs.ig, minlength=ctx.nq)
    with np.errstate(divide="ignore", invalid="ignore"):
        return [np.where(sum_ideal > 0, results_g / sum_ideal, 0.0)]


def _dcgs(
    ctx: TrecContext, params: Sequence[tuple[str, float]]
) -> tuple[Gains, np.ndarray, np.ndarray]:
    gs = ctx.gains(params)
    rdcg = seg_total(ctx.r, gs.dcg_terms(ctx))
    idcg = np.bincount(gs.iq, weights=gs.ideal_terms(), minlength=ctx.nq)
    return gs, rdcg, idcg


def k_dcg(ctx: TrecContext, params: Sequence[tuple[str, float]]) -> Values:
    return [_dcgs(ctx, params)[1]]


def k_ideal_dcg(ctx: TrecContext, params: Sequence[tuple[str, float]]) -> Values:
    return [_dcgs(ctx, params)[2]]


def k_ndcg(ctx: TrecContext, params: Sequence[tuple[str, float]]) -> Values:
    _, rdcg, idcg = _dcgs(ctx, params)
    with np.errstate(divide="ignore", invalid="ignore"):
        return [np.where(idcg > 0, rdcg / idcg, 0.0)]


def _prefix(cum: np.ndarray, offsets: np.ndarray, q: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Running sum over the first m items of segment q (0.0 for m = 0)."""
    out = np.zeros(len(q))
    ok = m >= 1
    out[ok] = cum[offsets[q[ok]] + m[ok] - 1]
    return out


def k_ndcg_rel(ctx: TrecContext, params: Sequence[tuple[str, float]]) -> Values:
    # NDCG averaged over the positive-gain documents: at each retrieved one its NDCG (ideal
    # DCG up to the same rank, or the whole ideal once exhausted); every one not retrieved
    # counts the final DCG / ideal DCG. 0 unless the sum is positive.
    gs, rdcg, idcg = _dcgs(ctx, params)
    rcum = seg_cumsum(gs.dcg_terms(ctx), ctx.offsets)
    icum = seg_cumsum(gs.ideal_terms(), gs.ioffsets)
    hit = gs.row_gain > 0
    q = ctx.qidx[hit]
    ideal_len = np.minimum(ctx.pos[hit] + 1, gs.length[q])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = rcum[hit] / _prefix(icum, gs.ioffsets, q, ideal_len)
        total = np.bincount(q, weights=ratio, minlength=ctx.nq)
        n_hit = np.bincount(q, minlength=ctx.nq)
        total = total + (gs.length - n_hit).astype(np.float64) * rdcg / idcg
        return [np.where(total > 0, total / gs.length.astype(np.float64), 0.0)]


def k_Rndcg(ctx: TrecContext, params: Sequence[tuple[str, float]]) -> Values:
    # NDCG averaged at the points where the ideal gain changes (R levels). Walking the ideal
    # ranking, each change at position i >= 1 adds DCG(min(i, num_ret)) / idealDCG(i); the end
    # of the ideal ranking (position L) is a change. If the ideal ranking ends with at least
    # two documents of the run left, the final DCG / ideal DCG is added once more.
    # QUIRK: with exactly one document left after the ideal ranking ends, it is not.
    # QUIRK: a topic with relevant documents but no change point gives 0/0 (printed -nan).
    gs = ctx.gains(params)
    rcum = seg_cumsum(gs.dcg_terms(ctx), ctx.offsets)
    icum = seg_cumsum(gs.ideal_terms(), gs.ioffsets)
    nq = ctx.nq
    change = np.zeros(len(gs.ig), dtype=bool)
    if len(gs.ig):
        change[1:] = (gs.ig[1:] != gs.ig[:-1]) & (gs.ipos[1:] >= 1)
    ends = np.flatnonzero(gs.length >= 1)
    ev_q = np.concatenate([gs.iq[change], ends]).astype(np.int64)
    ev_pos = np.concatenate([gs.ipos[change], gs.length[ends]]).astype(np.int64)
    order = np.lexsort((ev_pos, ev_q))
    ev_q, ev_pos = ev_q[order], ev_pos[order]
    with np.errstate(divide="ignore", invalid="ignore"):
        num = _prefix(rcum, ctx.offsets, ev_q, np.minimum(ev_pos, ctx.n_ret[ev_q]))
        den = _prefix(icum, gs.ioffsets, ev_q, ev_pos)
        total = np.bincount(ev_q, weights=num / den, minlength=nq)
        count = np.bincount(ev_q, minlength=nq).astype(np.float64)
        tail = (gs.length >= 1) & (gs.length + 1 < ctx.n_ret)
        tq = np.flatnonzero(tail)
        total[tq] = total[tq] + _prefix(rcum, ctx.offsets, tq, ctx.n_ret[tq]) / _prefix(
            icum, gs.ioffsets, tq, gs.length[tq]
        )
        count[tq] += 1
        value = total / count
    return [np.where(ctx.num_rel > 0, value, 0.0)]


def k_ndcg_cut(ctx: TrecContext, params: Sequence[int]) -> Values:
    # Gains are the grades themselves (positive ones); the ideal ranking is the judged
    # positive grades in decreasing order. A topic without one keeps the (zero) DCG.
    r = ctx.r
    g = ctx.grade
    pos_g = g > 0
    term = np.where(pos_g, g / log2_int(ctx.pos + 2), 0.0)
    ideal = r.ideal_grades.astype(np.int64)
    counts = np.diff(r.ideal_offsets)
    iq = np.repeat(np.arange(ctx.nq, dtype=np.int64), counts)
    ipos = np.arange(len(ideal), dtype=np.int64) - np.repeat(r.ideal_offsets[:-1], counts)
    keep = ideal > 0
    iq, ipos, ideal = iq[keep], ipos[keep], ideal[keep]
    iterm = ideal / log2_int(ipos + 2)
    out = []
    for k in params:
        dcg = seg_total(r, term, pos_g & (ctx.pos < k))
        idcg = np.bincount(iq[ipos < k], weights=iterm[ipos < k], minlength=ctx.nq)
        with np.errstate(divide="ignore", invalid="ignore"):
            out.append(np.where(idcg > 0, dcg / idcg, dcg))
    return out


def k_map_cut(ctx: TrecContext, params: Sequence[int]) -> Values:
    # assay's AP@k (terms rel_so_far / rank summed over the top k, divided by R), with the
    # per-row terms computed once for all cutoffs.
    r = ctx.r
    c = r.seg_cumcount(ctx.isrel)
    terms = np.where(ctx.isrel, c / r.rank, 0.0)
    return [_div0(r.seg_sum(terms, r.topk(k)), ctx.num_rel) for k in params]


def k_relative_P(ctx: TrecContext, params: Sequence[int]) -> Values:
    return [_nan0(relative_precision(ctx.r, k, ctx.rel)) for k in params]


def k_success(ctx: TrecContext, params: Sequence[int]) -> Values:
    return [success(ctx.r, k, ctx.rel) for k in params]


def k_set_P(ctx: TrecContext, params: Any) -> Values:
    return [precision(ctx.r, None, ctx.rel)]  # 0 for an empty list, as trec_eval


def k_set_relative_P(ctx: TrecContext, params: Any) -> Values:
    return [_nan0(relative_precision(ctx.r, None, ctx.rel))]


def k_set_recall(ctx: TrecContext, params: Any) -> Values:
    return [_nan0(recall(ctx.r, None, ctx.rel))]


def k_set_map(ctx: TrecContext, params: Any) -> Values:
    return [_nan0(set_map(ctx.r, None, ctx.rel))]


def k_set_F(ctx: TrecContext, params: Sequence[float]) -> Values:
    x = params[0]
    nrr = ctx.num_rel_ret.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = nrr / ctx.n_ret.astype(np.float64)
        rc = nrr / ctx.num_rel.astype(np.float64)
        value = (x + 1.0) * p * rc / (x * p + rc)
    return [np.where(ctx.num_rel_ret > 0, value, 0.0)]


def k_num_nonrel_judged_ret(ctx: TrecContext, params: Any) -> Values:
    # num_ret - not pooled - pooled unjudged - relevant: the judged non-relevant ones.
    return [num_nonrel_judged_ret(ctx.r, None, ctx.rel)]


def k_yaap(ctx: TrecContext, params: Any) -> Values:
    c = ctx.r.seg_cumcount(ctx.isrel)
    s = seg_total(ctx.r, np.where(ctx.isrel, c / ctx.r.rank, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        return [np.log((1.0 + s) / ((1.0 + ctx.num_rel.astype(np.float64)) - s))]


def _rbp_p(params: Sequence[tuple[str, float]]) -> float:
    p = 0.9
    for name, value in params:
        if name == "p":  # the last "p=" wins
            p = float(value)
    return p


def k_rbp(ctx: TrecContext, params: Sequence[tuple[str, float]]) -> Values:
    # Graded RBP: gains from the gain table (level = gain unless given), rescaled per topic to
    # [0, 1] when any lies outside; (1 - p) * sum gain_i p^(i-1), p^i by repeated products.
    p = _rbp_p(params)
    gs = ctx.gains(params, rbp_scale=True)
    g = gs.row_gain
    pw = ctx.powers(p)[ctx.pos]
    total = seg_total(ctx.r, np.where(g != 0, g * pw, 0.0), g != 0)
    return [(1.0 - p) * total]


def k_rbp_resid(ctx: TrecContext, params: Sequence[tuple[str, float]]) -> Values:
    # p^num_ret + (1 - p) * sum over unjudged (and unpooled) documents of p^(i-1).
    # QUIRK: 0 when no retrieved document is unjudged (instead of the tail p^num_ret).
    p = _rbp_p(params)
    pw = ctx.powers(p)
    unj = ctx.grade < 0
    total = seg_total(ctx.r, pw[ctx.pos], unj)
    value = pw[ctx.n_ret] + (1.0 - p) * total
    return [np.where(ctx.r.seg_count(unj) > 0, value, 0.0)]


def k_unj(ctx: TrecContext, params: Sequence[int]) -> Values:
    return [unjudged(ctx.r, k) for k in params]
