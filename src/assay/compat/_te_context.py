"""The context trec_eval's measures are computed from: one run joined with the qrels
(:class:`TrecContext`) and the gain tables of the gain-based measures (:class:`Gains`,
gain_init.c). trec_eval behaviours reproduced on purpose are marked ``QUIRK``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..data.ranked import NONPOOL, UNJUDGED, Ranked
from ._te_arithmetic import atol, c_int_diff, glibc_msort, log2_int, valid_int


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
            return self.r.seg_count(self.isrel, self.r.topk(int(k)))  # type: ignore[arg-type]  # why: np.isscalar does not narrow k to int
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
        return cast(np.ndarray, self.ig / log2_int(self.ipos + 2))
