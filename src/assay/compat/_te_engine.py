"""trec_eval 10.0's measures as whole-array kernels over assay's ranked-list context.

Every kernel takes the :class:`TrecContext` (one run joined with the qrels, in CSR form: rows are
retrieved documents in rank order, grouped by topic) and the measure's parsed parameters, and
returns one per-topic array per output value. Kernels loop over cutoffs, parameters and gain
levels — never over documents.

Exactness. trec_eval prints ``%6.4f``, so a value must be the same double, not merely close, to
print the same bytes. The kernels therefore keep trec_eval's arithmetic: every per-topic sum is
sequential in rank order (``np.bincount`` and ``np.cumsum`` add left to right; a per-topic
running sum is :func:`seg_cumsum`), divisions are divisions (not multiplications by a
reciprocal), integer parts stay integers until trec_eval converts them, and ``log2`` of an
integer comes from the C library (numpy's SIMD ``log2`` differs from glibc's in the last bit for
a few integers). Where trec_eval's own arithmetic produces NaN or infinity (0/0 on an empty
ranking, say), so do the kernels; :func:`format_value` prints them as glibc does.

trec_eval behaviours reproduced on purpose are marked ``QUIRK`` in the comments.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..data.ranked import NONPOOL, UNJUDGED, Ranked, seg_rev_cummax
from ..metrics.ranking import (
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

MIN_GEO_MEAN = 0.00001  # trec_eval's floor before taking a logarithm (gm_map, gm_bpref)

# ---------------------------------------------------------------- C number parsing


_ATOF = re.compile(
    r"\s*([+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))", re.IGNORECASE
)
_ATOF_HEX = re.compile(
    r"\s*([+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?)"
)
_ATOL = re.compile(r"\s*([+-]?\d+)")


def atof(text: str) -> float:
    """C's ``atof``: the longest numeric prefix, 0.0 when there is none (trec_eval's parameter
    parser uses it, so ``-m P.5x`` means ``P.5`` and ``-m set_F.x`` means ``set_F.0``)."""
    m = _ATOF_HEX.match(text)
    if m:
        body = m.group(1)
        if "p" not in body.lower():
            body += "p0"
        try:
            return float.fromhex(body)
        except ValueError:  # pragma: no cover - the pattern only matches valid hex floats
            return 0.0
    m = _ATOF.match(text)
    return float(m.group(1)) if m else 0.0


def atol(text: str) -> int:
    """C's ``atol``: the leading integer (after white space), 0 when there is none."""
    m = _ATOL.match(text)
    return int(m.group(1)) if m else 0


def valid_int(text: str) -> bool:
    """gain_init.c's test of a ``level=gain`` name: an optional sign and at least one digit."""
    body = text[1:] if text[:1] in ("+", "-") else text
    return bool(body) and all("0" <= c <= "9" for c in body)


def c_int_diff(a: float, b: float) -> int:
    """``(int)(a - b)``, the comparison gain_init.c sorts gains with.

    QUIRK: the difference is truncated to an int, so two gains less than 1 apart compare as
    equal, and a difference beyond the int range (or NaN) gives INT_MIN on x86-64.
    """
    d = a - b
    if not math.isfinite(d) or abs(d) >= 2.0**31:
        return -(2**31)
    return int(d)


def glibc_msort(items: list[Any], cmp: Callable[[Any, Any], int]) -> list[Any]:
    """glibc 2.36's ``qsort`` for small arrays: a top-down merge sort (first half ``n // 2``),
    merging from the left half while ``cmp(left, right) <= 0``.

    trec_eval sorts gain levels with a comparator that is not a total order (see
    :func:`c_int_diff`), so the result depends on the algorithm; this is the one trec_eval runs.
    """
    n = len(items)
    if n <= 1:
        return list(items)
    n1 = n // 2
    left = glibc_msort(items[:n1], cmp)
    right = glibc_msort(items[n1:], cmp)
    out: list[Any] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if cmp(left[i], right[j]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    out.extend(left[i:])
    out.extend(right[j:])
    return out


# ---------------------------------------------------------------- exact arithmetic helpers


_LOG2_TABLE = np.zeros(0)


def log2_int(n: np.ndarray) -> np.ndarray:
    """glibc's ``log2`` of positive integers, from a cached table (numpy's vectorised log2
    differs from glibc's in the last bit for some integers)."""
    global _LOG2_TABLE
    n = np.asarray(n, dtype=np.int64)
    top = int(n.max()) if n.size else 0
    if top >= len(_LOG2_TABLE):
        size = max(top + 1, 2 * len(_LOG2_TABLE), 4096)
        _LOG2_TABLE = np.fromiter(
            (math.log2(i) if i > 0 else -math.inf for i in range(size)), np.float64, size
        )
    out: np.ndarray = _LOG2_TABLE[n]
    return out


def log2_any(x: np.ndarray) -> np.ndarray:
    """log2 of doubles: glibc's for positive integral values, numpy's otherwise."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log2(x)
    whole = np.isfinite(x) & (x >= 1) & (x < 2.0**31) & (x == np.floor(x))
    if whole.any():
        out[whole] = log2_int(x[whole].astype(np.int64))
    return out


def seg_cumsum(x: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Inclusive running sum within each segment, added left to right from 0.0 exactly as a C
    loop would (a global cumsum minus segment starts would round differently).

    Segments are bucketed by length (powers of two) into zero-padded matrices whose rows are
    accumulated along the axis; padding costs at most twice the data.
    """
    x = np.asarray(x, dtype=np.float64)
    out = np.empty_like(x)
    lengths = np.diff(offsets)
    if len(x) == 0:
        return out
    bucket = np.zeros(len(lengths), dtype=np.int64)
    nz = lengths > 0
    bucket[nz] = np.ceil(np.log2(lengths[nz])).astype(np.int64)
    for b in np.unique(bucket[nz]):
        segs = np.flatnonzero(nz & (bucket == b))
        width = int(lengths[segs].max())
        cols = np.arange(width)
        valid = cols[None, :] < lengths[segs][:, None]
        idx = offsets[segs][:, None] + cols[None, :]
        mat = np.zeros((len(segs), width))
        mat[valid] = x[idx[valid]]
        # A leading +0.0 column: C starts every sum at 0.0 (this also turns -0.0 into 0.0).
        acc = np.cumsum(np.concatenate([np.zeros((len(segs), 1)), mat], axis=1), axis=1)[:, 1:]
        out[idx[valid]] = acc[valid]
    return out


def seq_sum(values: np.ndarray) -> float:
    """0.0 + v0 + v1 + ... in order: trec_eval's accumulation over topics."""
    v = np.asarray(values, dtype=np.float64)
    return float(np.cumsum(np.concatenate(([0.0], v)))[-1])


def seg_total(r: Ranked, x: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Per-topic sum in rank order (``np.bincount`` adds sequentially from 0.0)."""
    return r.seg_sum(x, mask)


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


def format_value(value: float) -> str:
    """``printf("%6.4f")`` as glibc prints it (NaN with its sign: 0/0 on x86-64 is -nan)."""
    if math.isnan(value):
        text = "-nan" if math.copysign(1.0, value) < 0 else "nan"
        return f"{text:>6}"
    return f"{value:6.4f}"


# ---------------------------------------------------------------- the context


class TrecContext:
    """One run joined with the qrels, as trec_eval's ``form_res_rels`` sees every topic.

    ``r`` is assay's :class:`Ranked` (grades: judged >= 0, NONPOOL -1, UNJUDGED -2), already
    truncated by ``-M`` and filtered by ``-J``; ``rel`` is trec_eval's relevance level ``-l``.
    """

    def __init__(self, r: Ranked, rel: int, *, num_docs: int = 0, iprec_rounding: str = "lround"):
        self.r = r
        self.rel = rel
        self.num_docs = num_docs
        self.iprec_rounding = iprec_rounding
        self.nq = r.nq
        self.grade = r.grade.astype(np.int64)
        self.pos = r.pos
        self.qidx = r.qidx
        self.offsets = r.offsets
        self.n_ret = r.n_ret.astype(np.int64)
        self.isrel = self.grade >= rel
        self.num_rel = r.num_rel(rel)
        # form_res_rels counts relevant retrieved documents among the judged ones only.
        self.num_rel_ret = r.seg_count(self.isrel & (self.grade >= 0))
        self.num_nonpool = r.seg_count(self.grade == NONPOOL)
        self.num_unjudged = r.seg_count(self.grade == UNJUDGED)
        self._cache: dict[Any, Any] = {}

    # -------------------------------------------------------------- per-topic statistics

    def relret_top(self, k: int | np.ndarray) -> np.ndarray:
        """Relevant documents among the first k (k a number or one per topic)."""
        if np.isscalar(k):
            return self.r.seg_count(self.isrel, self.r.topk(int(k)))  # type: ignore[arg-type]
        kk = np.asarray(k)[self.qidx]
        return self.r.seg_count(self.isrel & (self.pos < kk))

    @property
    def levels(self) -> np.ndarray:
        """rel_levels of every topic: judged qrels documents per grade (columns
        ``r.level_grades``), as the gain-based measures see them.

        QUIRK: for a topic whose judgments are all negative ("pooled but unjudged"),
        form_res_rels.c counts no level and leaves its level buffer and level count as the
        previous topic left them, so ndcg, G, rbp, ... use the previous topic's levels (the
        ideal DCG of such a topic is the previous topic's). trec_eval fails outright when it
        is the first topic; here that topic has no levels.
        """
        if "levels" not in self._cache:
            lev = self.r.levels.astype(np.int64)
            judged = lev.sum(axis=1) > 0
            if not judged.all() and judged.any():
                src = np.maximum.accumulate(np.where(judged, np.arange(self.nq), -1))
                lev = np.where((src >= 0)[:, None], lev[np.maximum(src, 0)], 0)
            self._cache["levels"] = lev
        out: np.ndarray = self._cache["levels"]
        return out

    def level_count(self, level: int) -> np.ndarray:
        """Judged qrels documents of every topic with grade ``level`` (rel_levels[level])."""
        at = np.flatnonzero(self.r.level_grades == level)
        if len(at) == 0:
            return np.zeros(self.nq, dtype=np.int64)
        out: np.ndarray = self.levels[:, at[0]]
        return out

    @property
    def num_rel_levels(self) -> np.ndarray:
        """Highest judged grade with a document, plus one (0 for a topic with none)."""
        if "nl" not in self._cache:
            lg = self.r.level_grades
            present = self.levels > 0
            top = np.where(present, lg[None, :] if len(lg) else 0, -1)
            nl = (top.max(axis=1) + 1) if top.shape[1] else np.zeros(self.nq, dtype=np.int64)
            self._cache["nl"] = np.maximum(nl, 0).astype(np.int64)
        out: np.ndarray = self._cache["nl"]
        return out

    def powers(self, p: float) -> np.ndarray:
        """p^0, p^1, ... by repeated multiplication (rbp's ``cur_p = cur_p * p``)."""
        cache: dict[float, np.ndarray] = self._cache.setdefault("pow", {})
        need = int(self.n_ret.max()) + 2 if self.nq else 2
        if p not in cache or len(cache[p]) < need:
            steps = np.full(need, p, dtype=np.float64)
            steps[0] = 1.0
            cache[p] = np.cumprod(steps)
        return cache[p]

    def gains(self, pairs: Sequence[tuple[str, float]], *, rbp_scale: bool = False) -> Gains:
        key = (tuple(pairs), rbp_scale)
        if key not in self._cache:
            self._cache[key] = Gains(self, pairs, rbp_scale=rbp_scale)
        out: Gains = self._cache[key]
        return out


# ---------------------------------------------------------------- gains (gain_init.c)


@dataclass
class _GainTable:
    levels: np.ndarray  # relevance level of each entry, in trec_eval's sorted order
    gains: np.ndarray
    owner: np.ndarray  # level whose document count the entry carries, -1 for none


def _gain_table(pairs: Sequence[tuple[str, float]], nl: int, rbp_scale: bool) -> _GainTable:
    """setup_gains(): explicit ``level=gain`` pairs first, then levels 0..nl-1 not named
    (gain = level), sorted by gain with trec_eval's comparator and qsort."""
    entries: list[list[Any]] = []
    for name, value in pairs:
        if valid_int(name):  # other names ("p" of rbp, say) are not gain levels
            entries.append([atol(name), float(value), -1])
    for level in range(nl):
        for e in entries:
            if e[0] == level:
                # Only the first entry naming a level gets its documents (a repeated level
                # keeps count 0, but may still be the one get_gain() finds after sorting).
                if e[2] == -1:
                    e[2] = level
                break
        else:
            entries.append([level, float(level), level])
    ordered = glibc_msort(entries, lambda a, b: c_int_diff(a[1], b[1]))
    gains = np.array([e[1] for e in ordered], dtype=np.float64)
    if rbp_scale and len(gains):
        # m_rbp.c rescales gains to [0, 1] when any lies outside.
        # QUIRK (not reproducible): trec_eval 10.0 reads `min` and `max` uninitialised there,
        # so its rbp depends on what the measure computed just before left on the stack (after
        # yaap, for one, the values change). We take the minimum and maximum over the gain
        # table: what the code intends, and what trec_eval prints with all_trec.
        lo, hi = float(gains.min()), float(gains.max())
        if lo < 0 or hi > 1:
            with np.errstate(divide="ignore", invalid="ignore"):
                gains = (gains - lo) / (hi - lo)
    return _GainTable(
        levels=np.array([e[0] for e in ordered], dtype=np.int64),
        gains=gains,
        owner=np.array([e[2] for e in ordered], dtype=np.int64),
    )


class Gains:
    """Per-row gains and the ideal gain sequence of every topic, as ndcg/G/rbp use them.

    The gain table depends on a topic only through its number of relevance levels, so it is
    built once per distinct level count.
    """

    def __init__(self, ctx: TrecContext, pairs: Sequence[tuple[str, float]], *, rbp_scale: bool):
        nl = ctx.num_rel_levels
        groups, group_of = np.unique(nl, return_inverse=True)
        group_of = group_of.reshape(-1)
        tables = [_gain_table(pairs, int(v), rbp_scale) for v in groups]
        self.tables = tables
        self.group_of = group_of

        # Row gains: get_gain() returns the first entry (in sorted order) with the row's
        # relevance value, 0 for values not in the table (unjudged documents, usually).
        lo = min(int(ctx.grade.min()) if len(ctx.grade) else 0, UNJUDGED)
        hi = max(int(ctx.grade.max()) if len(ctx.grade) else 0, 0)
        lut = np.zeros((len(groups), hi - lo + 1))
        for gi, t in enumerate(tables):
            for level, gain in zip(t.levels[::-1].tolist(), t.gains[::-1].tolist(), strict=True):
                if lo <= level <= hi:
                    lut[gi, level - lo] = gain
        self.row_gain = lut[group_of[ctx.qidx], ctx.grade - lo] if len(ctx.grade) else np.zeros(0)

        # Ideal sequence: entries from the highest sorted position down, each repeated by its
        # document count, until an entry with documents and gain <= 0 (or the end).
        nq = ctx.nq
        parts_q: list[np.ndarray] = []
        parts_g: list[np.ndarray] = []
        for gi, t in enumerate(tables):
            qs = np.flatnonzero(group_of == gi)
            if len(t.gains) == 0 or len(qs) == 0:
                continue
            counts = np.zeros((len(qs), len(t.gains)), dtype=np.int64)
            for j, owner in enumerate(t.owner.tolist()):
                if owner >= 0:
                    counts[:, j] = ctx.level_count(owner)[qs]
            top = float(t.gains[-1])
            # QUIRK: the ideal ranking starts from the entry sorted last even when it has no
            # documents, and stops at once if its gain is <= 0 — with custom gains less than 1
            # apart (sorted as equal, kept in input order) that can leave no ideal at all.
            alive = np.full(len(qs), top > 0)
            take = np.zeros_like(counts)
            for j in range(len(t.gains) - 1, -1, -1):
                has = counts[:, j] > 0
                alive &= ~(has & (not float(t.gains[j]) > 0))
                take[:, j] = np.where(alive & has, counts[:, j], 0)
            cols = np.arange(len(t.gains) - 1, -1, -1)
            t_take = take[:, cols]
            parts_q.append(np.repeat(np.repeat(qs, len(cols)), t_take.reshape(-1)))
            parts_g.append(np.repeat(np.tile(t.gains[cols], len(qs)), t_take.reshape(-1)))
        iq = np.concatenate(parts_q) if parts_q else np.zeros(0, dtype=np.int64)
        ig = np.concatenate(parts_g) if parts_g else np.zeros(0)
        order = np.argsort(iq, kind="stable")
        self.iq = iq[order].astype(np.int64)
        self.ig = ig[order]
        self.length = np.bincount(self.iq, minlength=nq).astype(np.int64)
        self.ioffsets = np.concatenate(([0], np.cumsum(self.length))).astype(np.int64)
        self.ipos = np.arange(len(self.iq), dtype=np.int64) - np.repeat(
            self.ioffsets[:-1], self.length
        )

    def dcg_terms(self, ctx: TrecContext) -> np.ndarray:
        g = self.row_gain
        with np.errstate(invalid="ignore"):
            return np.where(g != 0, g / log2_int(ctx.pos + 2), 0.0)

    def ideal_terms(self) -> np.ndarray:
        return self.ig / log2_int(self.ipos + 2)


# ---------------------------------------------------------------- measure kernels

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
    return (t + np.where(np.abs(frac) >= 0.5, np.sign(x), 0.0)).astype(np.int64)


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


# ---------------------------------------------------------------- measure declarations


@dataclass(frozen=True)
class MeasureDef:
    """A trec_eval measure: parameter style, defaults, printing and averaging, kernel."""

    name: str
    style: str  # "none" | "long" | "double" | "cut_long" | "cut_double" | "p_double" | "p_pair"
    kernel: Callable[[TrecContext, Any], Values] | None
    doc: str
    defaults: tuple[Any, ...] = ()
    kind: str = "float"  # "float" | "int" | "str" | "runid"
    per_query: bool = True  # printed with -q
    summary: bool = True  # printed in the summary
    average: str = "mean"  # "mean" | "sum" | "gm" | "count" | "num_rel" | "none"
    param_doc: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_GAIN_DOC = "level=gain pairs, e.g. 1=3,2=9 (other levels gain their own value)"

MEASURES: dict[str, MeasureDef] = {
    m.name: m
    for m in (
        MeasureDef(
            "runid",
            "none",
            None,
            "run tag from the last line of the run file",
            kind="runid",
            per_query=False,
            average="none",
        ),
        MeasureDef(
            "num_q",
            "long",
            k_num_q,
            "number of topics evaluated",
            kind="int",
            per_query=False,
            average="count",
        ),
        MeasureDef(
            "num_ret",
            "long",
            k_num_ret,
            "documents retrieved (summary: total)",
            kind="int",
            average="sum",
        ),
        MeasureDef(
            "num_rel",
            "long",
            k_num_rel,
            "judged relevant documents (summary: total; with -c, qrels lines with grade > 0)",
            kind="int",
            average="num_rel",
        ),
        MeasureDef(
            "num_rel_ret",
            "long",
            k_num_rel_ret,
            "relevant documents retrieved (summary: total)",
            kind="int",
            average="sum",
        ),
        MeasureDef("map", "double", k_map, "average precision (summary: MAP)"),
        MeasureDef(
            "gm_map",
            "double",
            k_gm_map,
            "average precision, geometric mean over topics (floor 1e-5); summary only",
            per_query=False,
            average="gm",
        ),
        MeasureDef("Rprec", "double", k_Rprec, "precision after R documents (R = relevant judged)"),
        MeasureDef("bpref", "double", k_bpref, "binary preference (Buckley & Voorhees 2004)"),
        MeasureDef("recip_rank", "double", k_recip_rank, "1 / rank of the first relevant document"),
        MeasureDef(
            "iprec_at_recall",
            "cut_double",
            k_iprec_at_recall,
            "interpolated precision at recall levels",
            _LEVELS,
            param_doc="recall levels",
        ),
        MeasureDef(
            "P",
            "cut_long",
            k_P,
            "precision at cutoffs (a short list is padded with non-relevant documents)",
            _CUTS,
            param_doc="cutoffs",
        ),
        MeasureDef(
            "relstring",
            "p_double",
            k_relstring,
            "relevance of the first N documents as a string (0-9, > above 9, - not "
            "pooled, . pooled unjudged); per topic only",
            (10.0,),
            kind="str",
            summary=False,
            average="none",
            param_doc="N",
        ),
        MeasureDef("recall", "cut_long", k_recall, "recall at cutoffs", _CUTS, param_doc="cutoffs"),
        MeasureDef(
            "infAP", "double", k_infAP, "inferred AP for sampled judgments (Yilmaz & Aslam 2006)"
        ),
        MeasureDef(
            "gm_bpref",
            "double",
            k_gm_bpref,
            "bpref, geometric mean over topics (floor 1e-5); summary only",
            per_query=False,
            average="gm",
        ),
        MeasureDef(
            "Rprec_mult",
            "cut_double",
            k_Rprec_mult,
            "precision at multiples of R documents",
            (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
            param_doc="multiples of R",
        ),
        MeasureDef(
            "utility",
            "p_double",
            k_utility,
            "set utility a*relret + b*nonrelret + c*relnotret + d*nonrelnotret (d needs -N)",
            (1.0, -1.0, 0.0, 0.0),
            param_doc="a,b,c,d",
        ),
        MeasureDef(
            "11pt_avg",
            "p_double",
            k_11pt_avg,
            "interpolated precision averaged over recall levels",
            _LEVELS,
            param_doc="recall levels (name unchanged by them)",
        ),
        MeasureDef(
            "binG",
            "double",
            k_binG,
            "binary G: mean over relevant of 1 / log2(2 + non-relevant above)",
        ),
        MeasureDef("G", "p_pair", k_G, "normalised gain G (experimental)", (), param_doc=_GAIN_DOC),
        MeasureDef(
            "dcg",
            "p_pair",
            k_dcg,
            "discounted cumulative gain of the whole ranking",
            (),
            param_doc=_GAIN_DOC,
        ),
        MeasureDef(
            "ideal_dcg", "p_pair", k_ideal_dcg, "DCG of the ideal ranking", (), param_doc=_GAIN_DOC
        ),
        MeasureDef("ndcg", "p_pair", k_ndcg, "NDCG of the whole ranking", (), param_doc=_GAIN_DOC),
        MeasureDef(
            "ndcg_rel",
            "p_pair",
            k_ndcg_rel,
            "NDCG averaged over the relevant documents (experimental)",
            (),
            param_doc=_GAIN_DOC,
        ),
        MeasureDef(
            "Rndcg",
            "p_pair",
            k_Rndcg,
            "NDCG averaged at the R-level boundaries (experimental)",
            (),
            param_doc=_GAIN_DOC,
        ),
        MeasureDef(
            "ndcg_cut",
            "cut_long",
            k_ndcg_cut,
            "NDCG at cutoffs, gain = grade",
            _CUTS,
            param_doc="cutoffs",
        ),
        MeasureDef(
            "map_cut",
            "cut_long",
            k_map_cut,
            "average precision at cutoffs",
            _CUTS,
            param_doc="cutoffs",
        ),
        MeasureDef(
            "relative_P",
            "cut_long",
            k_relative_P,
            "precision at cutoffs relative to the best possible (P up to R, then recall)",
            _CUTS,
            param_doc="cutoffs",
        ),
        MeasureDef(
            "success",
            "cut_long",
            k_success,
            "1 if a relevant document is in the top k",
            (1, 5, 10),
            param_doc="cutoffs",
        ),
        MeasureDef("set_P", "double", k_set_P, "relevant retrieved / retrieved"),
        MeasureDef(
            "set_relative_P",
            "double",
            k_set_relative_P,
            "relevant retrieved / min(retrieved, relevant)",
        ),
        MeasureDef("set_recall", "double", k_set_recall, "relevant retrieved / relevant"),
        MeasureDef("set_map", "double", k_set_map, "set precision x set recall"),
        MeasureDef(
            "set_F",
            "p_double",
            k_set_F,
            "F measure of the retrieved set, (x+1)PR / (xP + R)",
            (1.0,),
            param_doc="x",
        ),
        MeasureDef(
            "num_nonrel_judged_ret",
            "long",
            k_num_nonrel_judged_ret,
            "judged non-relevant documents retrieved (summary: total)",
            kind="int",
            average="sum",
        ),
        MeasureDef(
            "yaap", "double", k_yaap, "yet another AP (Robertson 2012), log((1 + s) / (1 + R - s))"
        ),
        MeasureDef(
            "rbp",
            "p_pair",
            k_rbp,
            "rank-biased precision, gains scaled to [0, 1] (p=0.9)",
            (),
            param_doc="p=persistence and level=gain pairs",
        ),
        MeasureDef(
            "rbp_resid",
            "p_pair",
            k_rbp_resid,
            "RBP residual: the most unjudged documents could add (p=0.9)",
            (),
            param_doc="p=persistence",
        ),
        MeasureDef(
            "unj",
            "cut_long",
            k_unj,
            "fraction of unjudged documents at cutoffs",
            (5, 10, 20),
            param_doc="cutoffs",
        ),
    )
}
