"""All topics at once: the internal ranks of every preference row, and the counts of every
equivalence-class judgment group (a JG with one sub-group) by pair counting over sorted
segments instead of a loop over topics.

The counts are those of :func:`assay.compat._te_prefs.ec_counts` (the slow obviously-correct
form, kept for topics that need preference matrices); every sum here is of integers, so the
only floating-point steps are the per-topic divisions and the JG-ordered sums of ratios,
done here in trec_eval's order (``0.0 + v0 + v1 + ...``, one JG index at a time for all
topics: adding 0.0 for a topic without that JG leaves its sum unchanged).

Counting "pairs (i, j) of one group with i ranked above j and a higher level" is done level
by level (a segmented cumulative count per level code), so it costs O(rows x levels); groups
with more than :data:`MAX_LEVELS` distinct levels go to the general path.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Judgment groups with more distinct levels than this are counted by the general path.
MAX_LEVELS = 64


def byte_codes(values: np.ndarray) -> np.ndarray:
    """Dense codes of strings in byte (strcmp) order."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from .._arrow import to_np

    enc = pc.dictionary_encode(pa.array(values, type=pa.string()))
    order = to_np(pc.array_sort_indices(enc.dictionary)).astype(np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    out: np.ndarray = rank[to_np(enc.indices).astype(np.int64)]
    return out


def internal_ranks(
    topic: np.ndarray, doc_rank: np.ndarray, pos: np.ndarray, nt: int
) -> tuple[np.ndarray, np.ndarray]:
    """form_prefs_counts' internal rank of every row and each topic's number of retrieved
    judged documents: per topic, the retrieved documents (``pos >= 0``) in rank order, then
    the others in docno order (``doc_rank``: byte-order codes)."""
    nd = int(doc_rank.max()) + 1 if len(doc_rank) else 1
    key = topic.astype(np.int64) * nd + doc_rank
    ukey, first, inv = np.unique(key, return_index=True, return_inverse=True)
    ut = ukey // nd
    upos = pos[first]
    big = int(upos.max()) + 1 if len(upos) else 0
    second = np.where(upos >= 0, upos, big + np.arange(len(ukey)))
    order = np.lexsort((second, ut))
    start = np.searchsorted(ut, np.arange(nt))  # ut is sorted (unique keys)
    rank = np.empty(len(ukey), dtype=np.int64)
    rank[order] = np.arange(len(ukey)) - start[ut[order]]
    njr = np.bincount(ut[upos >= 0], minlength=nt).astype(np.int64)
    return rank[inv.reshape(-1)], njr


def level_codes(g: np.ndarray, level: np.ndarray, ng: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's level code within its group (0: the group's highest level, as
    ``np.unique(-level)`` numbers them) and each group's number of distinct levels."""
    order = np.lexsort((-level, g))
    gs, ls = g[order], level[order]
    new_g = np.concatenate(([True], gs[1:] != gs[:-1])) if len(g) else np.zeros(0, bool)
    new_l = new_g | np.concatenate(([True], ls[1:] != ls[:-1])) if len(g) else new_g
    cum = np.cumsum(new_l) - 1
    code = np.empty(len(g), dtype=np.int64)
    code[order] = cum - cum[np.flatnonzero(new_g)][np.cumsum(new_g) - 1]
    levels = np.bincount(gs[new_l], minlength=ng).astype(np.int64)
    return code, levels


@dataclass
class EcCounts:
    """The counts of many equivalence-class JGs (one entry per group; see ``JgCounts``)."""

    ful_ret: np.ndarray
    poss_ret: np.ndarray
    ful_imp: np.ndarray
    poss_imp: np.ndarray
    notoccur: np.ndarray
    num_rel: np.ndarray
    num_rel_ret: np.ndarray
    num_nonrel: np.ndarray
    num_nonrel_ret: np.ndarray
    rnonrel: tuple[np.ndarray, np.ndarray]
    rnonrel_ret: tuple[np.ndarray, np.ndarray]


class _Segments:
    """Rows sorted by (group, rank): per-row group start and end, segmented counts."""

    def __init__(self, g: np.ndarray, ng: int) -> None:
        self.g, self.ng = g, ng
        bounds = np.searchsorted(g, np.arange(ng + 1))
        self.start = bounds[:-1][g]
        self.end = bounds[1:][g]
        self.size = np.diff(bounds)

    def before(self, x: np.ndarray) -> np.ndarray:
        """How many rows of the same group before each row have ``x``."""
        c = np.concatenate(([0], np.cumsum(x, dtype=np.int64)))
        out: np.ndarray = c[np.arange(len(x))] - c[self.start]
        return out

    def after(self, x: np.ndarray) -> np.ndarray:
        """How many rows of the same group after each row have ``x``."""
        c = np.concatenate(([0], np.cumsum(x, dtype=np.int64)))
        out: np.ndarray = c[self.end] - c[np.arange(len(x)) + 1]
        return out

    def total(self, x: np.ndarray) -> np.ndarray:
        """Per-group sum of integers."""
        return np.bincount(self.g, weights=x, minlength=self.ng).round().astype(np.int64)


def _pairs_higher(
    s: _Segments, c: np.ndarray, among: np.ndarray, count: np.ndarray, later: bool
) -> np.ndarray:
    """Per group: over rows with ``count``, how many rows with ``among`` of the same group
    come after (``later``) or before them with a greater (later) or smaller (before) code."""
    out = np.zeros(len(c), dtype=np.int64)
    for v in range(int(c.max()) + 1 if len(c) else 0):
        hit = among & (c == v)
        if later:
            out += np.where(count & (c < v), s.after(hit), 0)
        else:
            out += np.where(count & (c > v), s.before(hit), 0)
    return s.total(out)


def _distinct(s: _Segments, c: np.ndarray, m: int, sel: np.ndarray) -> np.ndarray:
    """Per group: pairs of selected rows with different codes."""
    n = s.total(sel.astype(np.int64))
    per = np.bincount(s.g[sel] * m + c[sel], minlength=s.ng * m).reshape(s.ng, m)
    same = (per * (per - 1) // 2).sum(axis=1)
    out: np.ndarray = n * (n - 1) // 2 - same
    return out


def ec_counts_all(
    g: np.ndarray, r: np.ndarray, level: np.ndarray, njr: np.ndarray, ng: int
) -> EcCounts:
    """The counts of ``ng`` equivalence-class groups: rows with group ``g`` (0..ng-1),
    internal rank ``r`` (distinct within a group) and ``level``; ``njr`` is each row's
    topic's number of retrieved judged documents."""
    code, levels = level_codes(g, level, ng)
    order = np.lexsort((r, g))
    g, r, level, njr, c = g[order], r[order], level[order], njr[order], code[order]
    s = _Segments(g, ng)
    m = int(c.max()) + 1 if len(c) else 1
    ret = r < njr
    n_ret = s.total(ret.astype(np.int64))
    per_ret = np.bincount(g[ret] * m + c[ret], minlength=ng * m).reshape(ng, m)
    per_all = np.bincount(g * m + c, minlength=ng * m).reshape(ng, m)
    uv = per_all - per_ret
    lower_u = uv[:, ::-1].cumsum(axis=1)[:, ::-1] - uv
    rel = level > 0.0
    num_rel = s.total(rel.astype(np.int64))
    num_rel_ret = s.total((rel & ret).astype(np.int64))
    num_nonrel = s.size - num_rel
    num_nonrel_ret = n_ret - num_rel_ret
    ful_ret = _pairs_higher(s, c, ret, ret, later=False)
    poss_ret = _distinct(s, c, m, ret)
    ful_imp = (per_ret * lower_u).sum(axis=1)
    poss_imp = (per_ret * (uv.sum(axis=1)[:, None] - uv)).sum(axis=1)
    notoccur = (uv * lower_u).sum(axis=1)

    # the R < N recounts (see ec_counts): the lowest class, its best-ranked R documents kept
    last = c == levels[g] - 1
    up = ~last
    in_class = s.before(last)  # index of a lowest-class row within its class, in rank order
    pos_in_group = np.arange(len(g)) - s.start

    keep = last & (in_class < num_rel[g])
    ful1 = _pairs_higher(s, c, up, up & ret, later=True)
    tot1 = _distinct(s, c, m, up)
    ful2 = s.total(np.where(keep, np.where(ret, pos_in_group, n_ret[g]), 0))
    tot2 = s.size * s.total(keep.astype(np.int64))
    extra = np.maximum(num_rel - num_nonrel, 0)
    r_ge = num_rel >= num_nonrel
    rn_f = np.where(r_ge, ful_ret + ful_imp + num_rel_ret * extra, ful1 + ful2)
    rn_p = np.where(r_ge, poss_ret + poss_imp + notoccur + num_rel * extra, tot1 + tot2)

    keep = last & (in_class < num_rel_ret[g]) & ret
    upr = up & ret
    ful1 = _pairs_higher(s, c, upr, upr, later=True)
    tot1 = _distinct(s, c, m, upr)
    ful2 = s.total(np.where(keep, pos_in_group, 0))
    tot2 = n_ret * s.total(keep.astype(np.int64))
    extra = np.maximum(num_rel_ret - num_nonrel_ret, 0)
    r_ge = num_rel_ret >= num_nonrel_ret
    rr_f = np.where(r_ge, ful_ret + num_rel_ret * extra, ful1 + ful2)
    rr_p = np.where(r_ge, poss_ret + num_rel * extra, tot1 + tot2)
    return EcCounts(
        ful_ret,
        poss_ret,
        ful_imp,
        poss_imp,
        notoccur,
        num_rel,
        num_rel_ret,
        num_nonrel,
        num_nonrel_ret,
        (rn_f, rn_p),
        (rr_f, rr_p),
    )


def _ratio(f: np.ndarray, p: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = np.where(p > 0, f.astype(np.float64) / p, 0.0)
    return out


def topic_values_all(k: EcCounts, gt: np.ndarray, nt: int) -> dict[str, np.ndarray]:
    """The values of :func:`assay.compat._te_prefs.topic_values` for ``nt`` topics at once;
    ``gt`` is each group's topic (groups of a topic contiguous and in JG order)."""

    def tsum(x: np.ndarray) -> np.ndarray:
        return np.bincount(gt, weights=x, minlength=nt).round().astype(np.int64)

    ful_ret, ful_imp = tsum(k.ful_ret), tsum(k.ful_imp)
    poss_ret, poss_imp, notocc = tsum(k.poss_ret), tsum(k.poss_imp), tsum(k.notoccur)
    v: dict[str, np.ndarray] = {
        "prefs_num_prefs_poss": (poss_ret + poss_imp + notocc).astype(np.float64),
        "prefs_num_prefs_ful": (ful_ret + ful_imp).astype(np.float64),
        "prefs_num_prefs_ful_ret": ful_ret.astype(np.float64),
        "prefs_simp": _ratio(ful_ret + ful_imp, poss_ret + poss_imp + notocc),
        "prefs_simp_ret": _ratio(ful_ret, poss_ret),
        "prefs_simp_imp": _ratio(ful_ret + ful_imp, poss_ret + poss_imp),
    }
    n = np.bincount(gt, minlength=nt)
    first = np.searchsorted(gt, np.arange(nt))
    idx = np.arange(len(gt)) - first[gt]  # a group's index among its topic's JGs

    def avg(parts: np.ndarray) -> np.ndarray:
        total = np.zeros(nt)
        for j in range(int(n.max()) if nt else 0):
            sel = idx == j
            add = np.zeros(nt)
            add[gt[sel]] = parts[sel]
            total = total + add
        with np.errstate(invalid="ignore"):
            out: np.ndarray = np.where(total > 0.0, total / np.maximum(n, 1), 0.0)
        return out

    v["prefs_avgjg"] = avg(_ratio(k.ful_ret + k.ful_imp, k.poss_ret + k.poss_imp + k.notoccur))
    v["prefs_avgjg_ret"] = avg(_ratio(k.ful_ret, k.poss_ret))
    v["prefs_avgjg_imp"] = avg(_ratio(k.ful_imp + k.ful_ret, k.poss_ret + k.poss_imp))
    with np.errstate(invalid="ignore", divide="ignore"):
        rn = k.rnonrel[0].astype(np.float64) / k.rnonrel[1].astype(np.float64)
        rnr = k.rnonrel_ret[0].astype(np.float64) / k.rnonrel_ret[1].astype(np.float64)
    v["prefs_avgjg_Rnonrel"] = avg(rn)
    v["prefs_avgjg_Rnonrel_ret"] = avg(rnr)
    v["prefs_pair"] = v["prefs_simp"]
    v["prefs_pair_ret"] = v["prefs_simp_ret"]
    v["prefs_pair_imp"] = v["prefs_simp_imp"]
    return v
