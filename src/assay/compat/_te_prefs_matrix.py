"""Preference-matrix JGs (several sub-groups) and the counts arrays of ``prefs_pair*``, many
topics at a time: topics of similar size share one padded block of dense matrices
(``[matrices, P, P]``, P the largest topic's number of judged documents), closed under
transitivity by batched boolean products, then counted with masks.

The counts are those of :func:`assay.compat._te_prefs.pa_counts` and
:func:`assay.compat._te_prefs.pair_values` (one topic at a time, the obviously-correct form):
integer sums, and the sums of shares in trec_eval's row-major order (a masked cumulative sum
per topic: adding 0.0 for an unused cell leaves a sum of non-negative shares unchanged).
Padding cells are documents of no JG: no preference, level -1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Cells (matrices x P x P) of one block: bounds the memory of the dense path.
BLOCK_CELLS = 1 << 20


@dataclass
class Topics:
    """What the dense path needs, per row / group / topic (groups numbered 0..ng-1)."""

    g: np.ndarray  # each row's group
    r: np.ndarray  # each row's internal rank
    level: np.ndarray
    sub: np.ndarray  # each row's sub-group code (byte order)
    gt: np.ndarray  # each group's topic
    matrix: np.ndarray  # each group: several sub-groups
    nj: np.ndarray  # each topic's number of judged documents
    njr: np.ndarray  # each topic's number of retrieved judged documents


@dataclass
class Dense:
    """The results of the dense path: counts of the matrix groups (-1 elsewhere), pair
    values of the topics asked for, the first group with an error and its kind."""

    counts: dict[str, np.ndarray]
    pairs: dict[str, np.ndarray]
    error: tuple[int, str] | None


COUNT_NAMES = (
    "ful_ret",
    "poss_ret",
    "ful_imp",
    "poss_imp",
    "notoccur",
    "num_rel",
    "num_rel_ret",
    "num_nonrel",
    "num_nonrel_ret",
    "rn_f",
    "rn_p",
    "rr_f",
    "rr_p",
)


def _pairs_within(seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All ordered pairs (i, j) of positions in the same segment (``seg`` sorted)."""
    n = len(seg)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    bounds = np.flatnonzero(np.concatenate(([True], seg[1:] != seg[:-1], [True])))
    start, size = bounds[:-1], np.diff(bounds)
    npairs = size * size
    pstart = np.cumsum(npairs) - npairs
    s = np.repeat(np.arange(len(size)), npairs)
    w = np.arange(int(npairs.sum())) - pstart[s]
    return start[s] + w // size[s], start[s] + w % size[s]


def _closure(a: np.ndarray) -> np.ndarray:
    """Transitive closure of a stack of boolean matrices (reflexive, diagonal cleared)."""
    p = a.shape[1]
    m = a | np.eye(p, dtype=bool)[None]
    while True:
        f = m.astype(np.float32)
        nxt = np.matmul(f, f) > 0
        if (nxt == m).all():
            break
        m = nxt
    idx = np.arange(p)
    m[:, idx, idx] = False
    return m


def _seq(x: np.ndarray, start: np.ndarray) -> np.ndarray:
    """``start + x0 + x1 + ...`` per row of ``x``, in order."""
    full = np.concatenate((start[:, None], x.reshape(len(x), -1)), axis=1)
    out: np.ndarray = np.cumsum(full, axis=1)[:, -1]
    return out


def _pair_values(ca: np.ndarray, nj: np.ndarray, njr: np.ndarray) -> dict[str, np.ndarray]:
    """prefs_pair, _ret and _imp of a stack of counts arrays (pair_values, batched)."""
    p = ca.shape[1]
    i = np.arange(p)
    s = ca + ca.transpose(0, 2, 1)
    both = (s > 0) & (i[:, None] < i[None, :])[None]
    ret_i = i[None, :, None] < njr[:, None, None]
    ret_j = i[None, None, :] < njr[:, None, None]
    m1 = both & ret_i & ret_j
    m2 = both & ret_i & ~ret_j
    n1 = m1.sum(axis=(1, 2))
    n2 = m2.sum(axis=(1, 2))
    n3 = (both & ~ret_i & ~ret_j).sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(s > 0, ca / np.where(s > 0, s, 1), 0.0)
    s1 = _seq(np.where(m1, share, 0.0), np.zeros(len(ca)))
    s12 = _seq(np.where(m2, share, 0.0), s1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "prefs_pair": np.where(n1 + n2 + n3 > 0, s12 / np.maximum(n1 + n2 + n3, 1), 0.0),
            "prefs_pair_ret": np.where(n1 > 0, s1 / np.maximum(n1, 1), 0.0),
            "prefs_pair_imp": np.where(n1 + n2 > 0, s12 / np.maximum(n1 + n2, 1), 0.0),
        }


def _matrix_counts(
    a: np.ndarray, rel: np.ndarray, njr: np.ndarray, nj: np.ndarray
) -> dict[str, np.ndarray]:
    """pa_counts of a stack of closed matrices (``rel``: each cell's level, -1 padding)."""
    p = a.shape[1]
    i = np.arange(p)
    upper = (i[:, None] < i[None, :])[None]
    ret = i[None, :] < njr[:, None]
    ri, rj = ret[:, :, None], ret[:, None, :]

    def tot(x: np.ndarray) -> np.ndarray:
        out: np.ndarray = x.sum(axis=(1, 2)).astype(np.int64)
        return out

    c: dict[str, np.ndarray] = {}
    c["ful_ret"] = tot(a & upper & ri & rj)
    c["poss_ret"] = tot(a & ri & rj)
    c["ful_imp"] = tot(a & ri & ~rj)
    c["poss_imp"] = c["ful_imp"] + tot(a & ~ri & rj)
    c["notoccur"] = tot(a & ~ri & ~rj)
    isrel, isnon = rel > 0.0, rel == 0.0
    c["num_rel"] = isrel.sum(axis=1)
    c["num_rel_ret"] = (isrel & ret).sum(axis=1)
    c["num_nonrel"] = isnon.sum(axis=1)
    c["num_nonrel_ret"] = (isnon & ret).sum(axis=1)

    def recount(scan: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # the first non-relevant document past the R-th, scanning ranks below ``scan``;
        # it and every later non-relevant one are dropped, as is every rank from ``scan``
        inscan = i[None, :] < scan[:, None]
        non = isnon & inscan
        seen = np.cumsum(non, axis=1)
        hit = non & (seen == (c["num_rel"] + 1)[:, None])
        first = np.where(hit.any(axis=1), hit.argmax(axis=1), scan)
        keep = ~((i[None, :] >= first[:, None]) & isnon) & inscan
        sub = a & keep[:, :, None] & keep[:, None, :]
        return tot(sub & upper & ri), tot(sub)

    extra = np.maximum(c["num_rel"] - c["num_nonrel"], 0)
    f, q = recount(nj)
    ge = c["num_rel"] >= c["num_nonrel"]
    c["rn_f"] = np.where(ge, c["ful_ret"] + c["ful_imp"] + c["num_rel_ret"] * extra, f)
    poss = c["poss_ret"] + c["poss_imp"] + c["notoccur"] + c["num_rel"] * extra
    c["rn_p"] = np.where(ge, poss, q)
    extra = np.maximum(c["num_rel_ret"] - c["num_nonrel_ret"], 0)
    f, q = recount(njr)  # QUIRK: scans for num_rel + 1, not num_rel_ret + 1
    ge = c["num_rel_ret"] >= c["num_nonrel_ret"]
    c["rr_f"] = np.where(ge, c["ful_ret"] + c["num_rel_ret"] * extra, f)
    c["rr_p"] = np.where(ge, c["poss_ret"] + c["num_rel"] * extra, q)
    return c


def _rel_levels(t: Topics, rows: np.ndarray, ng: int) -> tuple[np.ndarray, np.ndarray]:
    """Each matrix-group row's document's last level (sub-groups in byte order), and each
    group's flag: a document both 0 and non-0 in consecutive sub-groups (pa_matrix's check)."""
    order = rows[np.lexsort((t.sub[rows], t.r[rows], t.g[rows]))]
    g, r, lv = t.g[order], t.r[order], t.level[order]
    same = (g[1:] == g[:-1]) & (r[1:] == r[:-1])
    prev, cur = lv[:-1], lv[1:]
    bad = same & (((prev > 0.0) & (cur == 0.0)) | ((prev == 0.0) & (cur > 0.0)))
    flag = np.zeros(ng, dtype=bool)
    flag[g[1:][bad]] = True
    last = np.concatenate((~same, [True])) if len(order) else np.zeros(0, bool)
    return order[last], flag


def dense(t: Topics, want_pairs: np.ndarray, ng: int) -> Dense:
    """Counts of every matrix group, and the pair values of the topics ``want_pairs``
    (boolean per topic), block by block of topics of similar size."""
    nt = len(t.nj)
    counts = {k: np.full(ng, -1, dtype=np.int64) for k in COUNT_NAMES}
    pairs = {k: np.zeros(nt) for k in ("prefs_pair", "prefs_pair_ret", "prefs_pair_imp")}
    has_matrix = np.zeros(nt, dtype=bool)
    has_matrix[t.gt[t.matrix]] = True
    todo = np.flatnonzero(has_matrix | want_pairs)
    if not len(todo):
        return Dense(counts, pairs, None)
    mrows = np.flatnonzero(t.matrix[t.g])
    last_rows, conflict = _rel_levels(t, mrows, ng)
    cycle = np.zeros(ng, dtype=bool)
    todo = todo[np.argsort(t.nj[todo], kind="stable")]
    n_groups = np.bincount(t.gt, minlength=nt)
    row_topic = t.gt[t.g]
    by_topic = np.argsort(row_topic, kind="stable")
    tb = np.searchsorted(row_topic[by_topic], np.arange(nt + 1))
    lo = 0
    while lo < len(todo):  # topics by size: a block's cells stay under BLOCK_CELLS
        hi = lo + 1
        mats = int(n_groups[todo[lo]]) + 1
        while hi < len(todo):
            more = int(n_groups[todo[hi]]) + 1
            p = max(int(t.nj[todo[hi]]), 1)
            if (mats + more) * p * p > BLOCK_CELLS:
                break
            mats += more
            hi += 1
        block = todo[lo:hi]
        p = max(int(t.nj[block].max()), 1)
        _block(t, block, p, by_topic, tb, want_pairs, counts, pairs, cycle, last_rows)
        lo = hi
    error = None
    bad = np.flatnonzero(conflict | cycle)
    if len(bad):
        first = int(bad[0])
        error = (first, "conflict" if conflict[first] else "cycle")
    return Dense(counts, pairs, error)


def _block(
    t: Topics,
    block: np.ndarray,
    p: int,
    by_topic: np.ndarray,
    tb: np.ndarray,
    want_pairs: np.ndarray,
    counts: dict[str, np.ndarray],
    pairs: dict[str, np.ndarray],
    cycle: np.ndarray,
    last_rows: np.ndarray,
) -> None:
    """One block of topics (all padded to ``p`` documents)."""
    rows = np.concatenate([by_topic[tb[x] : tb[x + 1]] for x in block.tolist()])
    nt = len(t.nj)
    tslot = np.full(nt, -1, dtype=np.int64)
    tslot[block] = np.arange(len(block))
    g = t.g[rows]
    mg = np.unique(g[t.matrix[g]])
    gslot = np.full(len(t.gt), -1, dtype=np.int64)
    gslot[mg] = np.arange(len(mg))
    ca = np.zeros((len(block), p, p), dtype=np.int64)

    # equivalence-class groups of the block: their pairs go into the counts arrays only
    ec = rows[~t.matrix[g]]
    if want_pairs[block].any() and len(ec):
        ec = ec[np.lexsort((t.g[ec],))]
        a_i, b_i = _pairs_within(t.g[ec])
        a_i, b_i = ec[a_i], ec[b_i]
        pref = t.level[a_i] > t.level[b_i]
        a_i, b_i = a_i[pref], b_i[pref]
        flat = (tslot[t.gt[t.g[a_i]]] * p + t.r[a_i]) * p + t.r[b_i]
        ca += np.bincount(flat, minlength=ca.size).reshape(ca.shape)
    if not len(mg):
        _fill_pairs(t, block, ca, want_pairs, pairs)
        return

    # preference-matrix groups: each sub-group's pairs, then the closure
    mr = rows[t.matrix[g]]
    mr = mr[np.lexsort((t.sub[mr], t.g[mr]))]
    seg = t.g[mr] * (int(t.sub.max()) + 1) + t.sub[mr]
    a_i, b_i = _pairs_within(seg)
    a_i, b_i = mr[a_i], mr[b_i]
    pref = t.level[a_i] > t.level[b_i]
    a_i, b_i = a_i[pref], b_i[pref]
    a = np.zeros((len(mg), p, p), dtype=bool)
    a[gslot[t.g[a_i]], t.r[a_i], t.r[b_i]] = True
    a = _closure(a)
    cycle[mg] = (a & a.transpose(0, 2, 1)).any(axis=(1, 2))
    rel = np.full((len(mg), p), -1.0)
    lr = last_rows[np.isin(t.g[last_rows], mg)]
    rel[gslot[t.g[lr]], t.r[lr]] = t.level[lr]
    topic = t.gt[mg]
    c = _matrix_counts(a, rel, t.njr[topic], t.nj[topic])
    for k, v in c.items():
        counts[k][mg] = v
    slot = tslot[topic]
    # add each topic's matrices: one group index per topic at a time (no repeated slot)
    rank_in_topic = np.arange(len(mg)) - np.searchsorted(topic, topic)
    for j in range(int(rank_in_topic.max()) + 1):
        sel = rank_in_topic == j
        ca[slot[sel]] += a[sel]
    _fill_pairs(t, block, ca, want_pairs, pairs)


def _fill_pairs(
    t: Topics,
    block: np.ndarray,
    ca: np.ndarray,
    want_pairs: np.ndarray,
    pairs: dict[str, np.ndarray],
) -> None:
    sel = want_pairs[block]
    if not sel.any():
        return
    v = _pair_values(ca[sel], t.nj[block[sel]], t.njr[block[sel]])
    for k, x in v.items():
        pairs[k][block[sel]] = x
