"""trec_eval 10.0's preference measures (``-R prefs`` / ``-R qrels_prefs``, ``-m all_prefs``):
the counts of ``form_prefs_counts.c`` and the fourteen ``m_prefs_*.c`` values, per topic.

How trec_eval forms preferences, reproduced here:

- Ranking: a topic's results sorted by score descending, ties broken by docno *ascending*
  (unlike every other trec_eval measure, which breaks them descending), then cut at ``-M``.
- Documents: every docno of the topic's preference lines is "judged"; the judged documents
  that were retrieved get internal ranks 0.. in rank order, the others follow in docno order.
- A judgment group (JG) with one sub-group (JSG) is a set of equivalence classes (one per
  level): every document of a higher level is preferred to every one of a lower level. A JG
  with several JSGs is a preference matrix: each JSG's pairs, closed under transitivity; a
  cycle, or a document both 0 and non-0 in one JG, is an error (trec_eval aborts).
- Each preference ``a > b`` is "fulfilled" when a ranks above b; it is counted as *ret*
  (both retrieved), *imp* (one retrieved: fulfilled when it is a) or *notoccur* (neither).
- ``prefs_simp*`` pool the counts of all JGs; ``prefs_avgjg*`` average the per-JG ratios over
  the JGs (0 unless the sum is positive); ``prefs_pair*`` average, over document pairs, the
  share of the JGs that agree with the ranking (the counts array of all JGs).
- ``prefs_avgjg_Rnonrel*`` balance relevant (level > 0) and non-relevant documents: with
  R >= N, R - N fulfilled preferences of each retrieved relevant document over an imaginary
  non-relevant one are added; with R < N only the best-ranked R non-relevant documents count.

QUIRK (reproduced): the R < N recount of an equivalence-class JG also counts pairs of the
kept non-relevant documents with every document of the lowest class, themselves included (a
pair (x, x) counts as possible, not fulfilled); the ``_ret`` variant's recount compares with
``num_rel``, not ``num_rel_ret``, when it finds the R-th non-relevant document of a matrix JG.
Not reproducible: trec_eval reads past its arrays when the lowest class (a negative level,
say) holds fewer than R documents; here the recount stops at the class's end.

How it is computed: :func:`prefs_context` finds every row's internal rank for all topics at
once, counts every equivalence-class JG by pair counting over sorted segments
(:mod:`assay.compat._te_prefs_fast`) and every preference-matrix JG, with the counts arrays of
topics of several JGs, in padded blocks of dense matrices (:mod:`assay.compat._te_prefs_matrix`).
The per-JG functions below (:func:`ec_counts`, :func:`pa_matrix`, :func:`pa_counts`,
:func:`pair_values`, :func:`topic_values`) are the same counts one topic at a time, kept as the
obviously-correct form the vectorised one is tested against, and used for the rare topic with
a JG of more than ``MAX_LEVELS`` levels (pair counting level by level would be slow there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..data import Run
from ..errors import InputError
from ._te_arithmetic import seq_sum
from ._te_formats import Preferences

#: The measures' output order (trec_eval's measure table).
PREFS_MEASURES: tuple[str, ...] = (
    "prefs_num_prefs_poss",
    "prefs_num_prefs_ful",
    "prefs_num_prefs_ful_ret",
    "prefs_simp",
    "prefs_pair",
    "prefs_avgjg",
    "prefs_avgjg_Rnonrel",
    "prefs_simp_ret",
    "prefs_pair_ret",
    "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp",
    "prefs_pair_imp",
    "prefs_avgjg_imp",
)


@dataclass
class JgCounts:
    """One JG's preference counts (form_prefs_counts.c's JG fields) and its R/N recounts."""

    ful_ret: int = 0
    poss_ret: int = 0  # both retrieved (fulfilled included)
    ful_imp: int = 0
    poss_imp: int = 0  # exactly one retrieved (fulfilled included)
    notoccur: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0
    rnonrel: tuple[int, int] = (0, 0)  # (fulfilled, possible) of prefs_avgjg_Rnonrel
    rnonrel_ret: tuple[int, int] = (0, 0)

    def rnonrel_padded(self) -> tuple[int, int] | None:
        """prefs_avgjg_Rnonrel's counts when R >= N: every relevant document is also preferred
        to R - N imaginary non-relevant ones (fulfilled when it was retrieved); None when
        R < N, which needs the recount of the kept non-relevant documents."""
        extra = self.num_rel - self.num_nonrel
        if extra < 0:
            return None
        ful = self.ful_ret + self.ful_imp + self.num_rel_ret * extra
        return ful, self.poss_ret + self.poss_imp + self.notoccur + self.num_rel * extra

    def rnonrel_ret_padded(self) -> tuple[int, int] | None:
        """The same for prefs_avgjg_Rnonrel_ret, over retrieved documents (QUIRK: the possible
        pairs are padded by num_rel, not num_rel_ret)."""
        extra = self.num_rel_ret - self.num_nonrel_ret
        if extra < 0:
            return None
        return self.ful_ret + self.num_rel_ret * extra, self.poss_ret + self.num_rel * extra


def _pairs_by_code(c: np.ndarray, after: bool) -> np.ndarray:
    """For each position i, how many positions before it (``after=False``) or after it
    (``after=True``) hold a *greater* code; codes are small integers (O(n x levels))."""
    out = np.zeros(len(c), dtype=np.int64)
    for v in range(int(c.max()) + 1 if len(c) else 0):
        hit = (c == v).astype(np.int64)
        if after:
            cnt = hit[::-1].cumsum()[::-1] - hit
        else:
            cnt = hit.cumsum() - hit
        out += np.where(c < v, cnt, 0)
    return out


def _distinct_pairs(c: np.ndarray) -> int:
    """Pairs of positions with different codes."""
    n = len(c)
    same = np.bincount(c).astype(np.int64) if n else np.zeros(0, dtype=np.int64)
    return int(n * (n - 1) // 2 - int((same * (same - 1) // 2).sum()))


def ec_counts(r: np.ndarray, level: np.ndarray, njr: int) -> JgCounts:
    """The counts of an equivalence-class JG: documents with internal ranks ``r`` (distinct)
    and levels ``level``; ranks below ``njr`` were retrieved."""
    lv, inv = np.unique(-level, return_inverse=True)  # code 0: the highest level
    c = inv.reshape(-1).astype(np.int64)
    m = len(lv)
    order = np.argsort(r, kind="stable")
    r, c, level = r[order], c[order], level[order]
    ret = r < njr
    out = JgCounts()
    cr = c[ret]
    out.ful_ret = int(_pairs_by_code(-cr + m, after=False).sum()) if len(cr) else 0
    out.poss_ret = _distinct_pairs(cr)
    rv = np.bincount(cr, minlength=m).astype(np.int64)
    uv = np.bincount(c[~ret], minlength=m).astype(np.int64)
    lower_u = uv[::-1].cumsum()[::-1] - uv  # unretrieved documents of lower levels
    out.ful_imp = int((rv * lower_u).sum())
    out.poss_imp = int((rv * (int(uv.sum()) - uv)).sum())
    out.notoccur = int((uv * lower_u).sum())
    rel = level > 0.0
    out.num_rel, out.num_rel_ret = int(rel.sum()), int((rel & ret).sum())
    out.num_nonrel, out.num_nonrel_ret = int((~rel).sum()), int((~rel & ret).sum())

    # prefs_avgjg_Rnonrel
    padded = out.rnonrel_padded()
    if padded is not None:
        out.rnonrel = padded
    else:
        last = c == m - 1
        keep_y = r[last][: out.num_rel]  # the best-ranked R documents of the lowest class
        up = ~last
        cu, ru = c[up], r[up]
        # pairs of higher classes: a above b, fulfilled when a ranks first and was retrieved
        ful1 = int(np.where(ru < njr, _pairs_by_code(cu, after=True), 0).sum())
        tot1 = _distinct_pairs(cu)
        # every document against each kept non-relevant one (QUIRK: the lowest class too)
        ful2 = int(np.searchsorted(r, np.minimum(keep_y, njr)).sum())
        tot2 = len(r) * len(keep_y)
        out.rnonrel = (ful1 + ful2, tot1 + tot2)

    # prefs_avgjg_Rnonrel_ret
    padded = out.rnonrel_ret_padded()
    if padded is not None:
        out.rnonrel_ret = padded
    else:
        last = c == m - 1
        keep_y = r[last][: out.num_rel_ret]
        keep_y = keep_y[keep_y < njr]
        up = ~last & ret
        cu = c[up]
        ful1 = int(_pairs_by_code(cu, after=True).sum())
        tot1 = _distinct_pairs(cu)
        rr = r[ret]
        ful2 = int(np.searchsorted(rr, keep_y).sum())
        tot2 = len(rr) * len(keep_y)
        out.rnonrel_ret = (ful1 + ful2, tot1 + tot2)
    return out


def _closure(a: np.ndarray) -> np.ndarray:
    """The transitive closure of a preference matrix (add_transitives: reflexive closure by
    repeated boolean products, diagonal cleared)."""
    m = a | np.eye(len(a), dtype=bool)
    while True:
        nxt = (m.astype(np.float32) @ m.astype(np.float32)) > 0
        if (nxt == m).all():
            break
        m = nxt
    np.fill_diagonal(m, False)
    return m


def pa_matrix(
    r: np.ndarray, level: np.ndarray, jsg: np.ndarray, nj: int, where: str, source: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """A JG's preference matrix over the topic's ``nj`` internal ranks, and its rel_array
    (each rank's last level, -1 for documents the JG does not judge)."""
    order = np.lexsort((r, -level, jsg))  # trec_eval's order: jsg, level descending, rank
    r, level, jsg = r[order], level[order], jsg[order]
    rel = np.full(nj, -1.0)
    for ri, lv in zip(r.tolist(), level.tolist(), strict=True):
        cur = rel[ri]
        if (cur > 0.0 and lv == 0.0) or (cur == 0.0 and lv > 0.0):
            raise InputError(
                f"{where}: a document is both non-relevant (0) and relevant in one judgment "
                "group (trec_eval stops here)",
                source=source,
            )
        rel[ri] = lv
    a = np.zeros((nj, nj), dtype=bool)
    bounds = np.flatnonzero(np.concatenate(([True], jsg[1:] != jsg[:-1], [True])))
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        rs, ls = r[lo:hi], level[lo:hi]
        a[np.ix_(rs, rs)] |= ls[:, None] > ls[None, :]
    a = _closure(a)
    if (a & a.T).any():
        raise InputError(
            f"{where}: the judgment group's preferences contradict each other (a cycle; "
            "trec_eval aborts)",
            source=source,
        )
    return a, rel


def pa_counts(a: np.ndarray, rel: np.ndarray, njr: int) -> JgCounts:
    """The counts of a preference-matrix JG (add_pa_pref_to_jg and the R/N recounts)."""
    nj = len(a)
    out = JgCounts()
    upper = np.triu(np.ones((nj, nj), dtype=bool), 1)
    rr = a[:njr, :njr]
    out.ful_ret = int((rr & upper[:njr, :njr]).sum())
    out.poss_ret = int(rr.sum())
    out.ful_imp = int(a[:njr, njr:].sum())
    out.poss_imp = out.ful_imp + int(a[njr:, :njr].sum())
    out.notoccur = int(a[njr:, njr:].sum())
    isrel, isnon = rel > 0.0, rel == 0.0
    out.num_rel, out.num_rel_ret = int(isrel.sum()), int(isrel[:njr].sum())
    out.num_nonrel, out.num_nonrel_ret = int(isnon.sum()), int(isnon[:njr].sum())

    def recount(scan: int, block: int) -> tuple[int, int]:
        seen = np.cumsum(isnon[:scan])
        hit = np.flatnonzero(isnon[:scan] & (seen == out.num_rel + 1))
        first = int(hit[0]) if len(hit) else scan
        keep = ~((np.arange(nj) >= first) & isnon)
        keep[block:] = False
        sub = a & keep[:, None] & keep[None, :]
        ret_row = (np.arange(nj) < njr)[:, None]
        return int((sub & upper & ret_row).sum()), int(sub.sum())

    out.rnonrel = out.rnonrel_padded() or recount(nj, nj)
    # QUIRK: the recount scans for num_rel + 1, not num_rel_ret + 1
    out.rnonrel_ret = out.rnonrel_ret_padded() or recount(njr, njr)
    return out


def _ratio(ful: int, poss: int) -> float:
    return ful / poss if poss else 0.0


def _avg(parts: Sequence[float], n: int) -> float:
    """Sum in JG order; the topic's value only when the sum is positive (NaN is not)."""
    total = seq_sum(np.asarray(parts, dtype=np.float64)) if parts else 0.0
    return total / n if total > 0.0 else 0.0


def pair_values(ca: np.ndarray, njr: int) -> tuple[float, float, float]:
    """prefs_pair, prefs_pair_ret, prefs_pair_imp from a topic's counts array."""
    nj = len(ca)
    s = ca + ca.T
    upper = np.triu(np.ones((nj, nj), dtype=bool), 1)
    both = (s > 0) & upper
    with np.errstate(invalid="ignore", divide="ignore"):
        share = ca / s
    part1 = share[:njr, :njr][both[:njr, :njr]]  # row-major, as trec_eval's loops add them
    part2 = share[:njr, njr:][both[:njr, njr:]]
    n1, n2 = len(part1), len(part2)
    n3 = int(both[njr:, njr:].sum())
    s1 = seq_sum(part1)
    s12 = seq_sum(np.concatenate((part1, part2)))
    pair = s12 / (n1 + n2 + n3) if n1 + n2 + n3 else 0.0
    pair_imp = s12 / (n1 + n2) if n1 + n2 else 0.0
    return pair, (s1 / n1 if n1 else 0.0), pair_imp


def topic_values(counts: list[JgCounts]) -> dict[str, float]:
    """The fourteen values of one topic from its JGs' counts; ``prefs_pair*`` as with one JG
    (every pair's share is then 0 or 1, so prefs_pair is prefs_simp): with several JGs the
    caller replaces them by :func:`pair_values` of the topic's counts array."""
    ful_ret = sum(c.ful_ret for c in counts)
    ful_imp = sum(c.ful_imp for c in counts)
    poss_ret = sum(c.poss_ret for c in counts)
    poss_imp = sum(c.poss_imp for c in counts)
    notocc = sum(c.notoccur for c in counts)
    n = len(counts)
    v: dict[str, float] = {
        "prefs_num_prefs_poss": float(poss_ret + poss_imp + notocc),
        "prefs_num_prefs_ful": float(ful_ret + ful_imp),
        "prefs_num_prefs_ful_ret": float(ful_ret),
        "prefs_simp": _ratio(ful_ret + ful_imp, poss_ret + poss_imp + notocc),
        "prefs_simp_ret": _ratio(ful_ret, poss_ret),
        "prefs_simp_imp": _ratio(ful_ret + ful_imp, poss_ret + poss_imp),
    }
    avg: dict[str, list[float]] = {"": [], "_ret": [], "_imp": []}
    for c in counts:
        for key, (f, p) in {
            "": (c.ful_ret + c.ful_imp, c.poss_ret + c.poss_imp + c.notoccur),
            "_ret": (c.ful_ret, c.poss_ret),
            "_imp": (c.ful_imp + c.ful_ret, c.poss_ret + c.poss_imp),
        }.items():
            if p:
                avg[key].append(f / p)
    for key, parts in avg.items():
        v["prefs_avgjg" + key] = _avg(parts, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        rn = [np.float64(c.rnonrel[0]) / np.float64(c.rnonrel[1]) for c in counts]
        rnr = [np.float64(c.rnonrel_ret[0]) / np.float64(c.rnonrel_ret[1]) for c in counts]
    v["prefs_avgjg_Rnonrel"] = _avg([float(x) for x in rn], n)
    v["prefs_avgjg_Rnonrel_ret"] = _avg([float(x) for x in rnr], n)
    v["prefs_pair"], v["prefs_pair_ret"], v["prefs_pair_imp"] = (
        v["prefs_simp"],
        v["prefs_simp_ret"],
        v["prefs_simp_imp"],
    )
    return v


@dataclass
class PrefsContext:
    """The preference counts of every evaluated topic (the kernels read ``values``)."""

    queries: list[str]
    values: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def nq(self) -> int:
        return len(self.queries)


def _rankings(run: Run, depth: int | None) -> tuple[dict[str, int], np.ndarray, np.ndarray]:
    """Every run topic's row range and its documents in form_prefs_counts' order: score
    descending, docno ascending (the run is stored docno descending: tie blocks reversed)."""
    q = np.asarray(run.query_codes)
    sc = np.asarray(run.scores)
    d = np.asarray(run.doc_codes)
    n = len(sc)
    if n:
        new = np.ones(n, dtype=bool)
        new[1:] = (q[1:] != q[:-1]) | (sc[1:] != sc[:-1])
        start = np.flatnonzero(new)
        end = np.append(start[1:], n)
        b = np.cumsum(new) - 1
        d = d[start[b] + end[b] - 1 - np.arange(n)]
    off = np.asarray(run.offsets)
    if depth is not None:
        off = off.copy()
        off[1:] = np.minimum(off[1:], off[:-1] + depth)  # starts are kept below
    index = {str(t): i for i, t in enumerate(run.query_ids.to_pylist())}
    return index, d, off


def prefs_context(
    prefs: Preferences,
    run: Run,
    *,
    depth: int | None,
    complete: bool,
    stand_in: str,
) -> PrefsContext:
    """Evaluate ``run`` against ``prefs`` (topics: the preference topics with results; with
    ``complete`` every preference topic, one without results ranking the single document
    ``stand_in`` as trec_eval's -c does).

    Internal ranks and the counts of equivalence-class JGs are computed for all topics at
    once (:mod:`assay.compat._te_prefs_fast`), preference-matrix JGs and the counts arrays
    of topics of several JGs in dense blocks (:mod:`assay.compat._te_prefs_matrix`); only a
    topic with an equivalence-class JG of more than ``MAX_LEVELS`` levels is computed alone
    by :func:`_topic`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from .._arrow import to_np
    from ..errors import MissingQueryError
    from ._te_prefs_fast import (
        MAX_LEVELS,
        EcCounts,
        byte_codes,
        ec_counts_all,
        internal_ranks,
        level_codes,
        topic_values_all,
    )
    from ._te_prefs_matrix import COUNT_NAMES, Topics, dense

    tcode = byte_codes(prefs.query)
    nt = int(tcode.max()) + 1 if len(tcode) else 0
    topics = np.empty(nt, dtype=object)
    topics[tcode] = prefs.query
    queries = [str(t) for t in topics.tolist()]
    # the run's topic of every preference topic (-1: no results)
    in_run = to_np(pc.fill_null(pc.index_in(pa.array(topics, pa.string()), run.query_ids), -1))
    in_run = in_run.astype(np.int64)
    if not complete and (in_run < 0).any():
        topic = queries[int(np.flatnonzero(in_run < 0)[0])]
        raise MissingQueryError(
            f"preference topic {topic!r} has no results in run {run.name!r}; trec_eval 10 "
            "stops here: use -c (complete=True) to score topics without results"
        )
    pos = _positions(prefs, run, depth, in_run[tcode], stand_in)
    r, njr = internal_ranks(tcode, byte_codes(prefs.doc), pos, nt)

    # groups: (topic, JG) in JG byte order; a topic is general when one of its JGs has
    # several sub-groups
    jcode = byte_codes(prefs.jg)
    nj = int(jcode.max()) + 1 if len(jcode) else 1
    gkey = tcode * nj + jcode
    ukey, first_row, g = np.unique(gkey, return_index=True, return_inverse=True)
    g = g.reshape(-1)
    ng = len(ukey)
    gt = ukey // nj
    scode = byte_codes(prefs.jsg)
    ns = int(scode.max()) + 1 if len(scode) else 1
    sub = np.bincount(np.unique(g * ns + scode) // ns, minlength=ng)
    levels = level_codes(g, prefs.level, ng)[1]
    matrix = sub > 1
    slow = np.zeros(nt, dtype=bool)  # topics left to _topic: a JG of very many levels
    slow[gt[~matrix & (levels > MAX_LEVELS)]] = True
    n_jg = np.bincount(gt, minlength=nt)
    nj_t = np.zeros(nt, dtype=np.int64)
    np.maximum.at(nj_t, tcode, r + 1)
    fast_g = ~slow[gt]
    ec_g = fast_g & ~matrix
    ec_row = ec_g[g]
    renum = np.cumsum(ec_g) - 1
    k = ec_counts_all(
        renum[g[ec_row]], r[ec_row], prefs.level[ec_row], njr[tcode[ec_row]], int(ec_g.sum())
    )
    d_in = Topics(
        g=g, r=r, level=prefs.level, sub=scode, gt=gt, matrix=matrix & fast_g, nj=nj_t, njr=njr
    )
    dn = dense(d_in, (n_jg > 1) & ~slow, ng)
    if dn.error is not None:
        bad, kind = dn.error
        where = f"topic {queries[int(gt[bad])]!r} group {str(prefs.jg[first_row[bad]])!r}"
        what = (
            "a document is both non-relevant (0) and relevant in one judgment group "
            "(trec_eval stops here)"
            if kind == "conflict"
            else "the judgment group's preferences contradict each other (a cycle; "
            "trec_eval aborts)"
        )
        raise InputError(f"{where}: {what}", source=prefs.source)
    # every fast group's counts: the equivalence-class ones, then the matrix ones
    names = COUNT_NAMES[:9]  # the plain counts, then the R/N recounts
    cols = {n: dn.counts[n].copy() for n in COUNT_NAMES}
    for n in names:
        cols[n][ec_g] = getattr(k, n)
    for n, (f, q) in (("rn", k.rnonrel), ("rr", k.rnonrel_ret)):
        cols[n + "_f"][ec_g], cols[n + "_p"][ec_g] = f, q
    fg = np.flatnonzero(fast_g)
    c = {n: cols[n][fg] for n in COUNT_NAMES}
    allc = EcCounts(
        c["ful_ret"],
        c["poss_ret"],
        c["ful_imp"],
        c["poss_imp"],
        c["notoccur"],
        c["num_rel"],
        c["num_rel_ret"],
        c["num_nonrel"],
        c["num_nonrel_ret"],
        (c["rn_f"], c["rn_p"]),
        (c["rr_f"], c["rr_p"]),
    )
    values = topic_values_all(allc, gt[fg], nt)
    for m, x in dn.pairs.items():
        values[m] = np.where((n_jg > 1) & ~slow, x, values[m])
    by_topic = np.argsort(tcode, kind="stable")
    bounds = np.searchsorted(tcode[by_topic], np.arange(nt + 1))
    for t in np.flatnonzero(slow).tolist():
        rows = by_topic[bounds[t] : bounds[t + 1]]
        for m, value in _topic(prefs, rows, r[rows], int(njr[t]), queries[t]).items():
            values[m][t] = value
    return PrefsContext(queries, values)


def _positions(
    prefs: Preferences, run: Run, depth: int | None, rt: np.ndarray, stand_in: str
) -> np.ndarray:
    """Each preference row's position in its topic's ranking, -1 when not retrieved (``rt``:
    the run topic of each row, -1 for a topic without results, which ranks ``stand_in``)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from .._arrow import to_np

    _, d, off_end = _rankings(run, depth)
    starts = np.asarray(run.offsets)[:-1]
    # a run's doc codes are per topic, so documents are matched by their ids
    q = np.asarray(run.query_codes).astype(np.int64)
    i = np.arange(len(d))
    kept = i < off_end[q + 1]
    names = run.doc_ids.take(pa.array(np.asarray(d)[kept]))
    pdocs = pa.array(prefs.doc, pa.string())
    both = to_np(pc.dictionary_encode(pa.concat_arrays([names.cast(pa.string()), pdocs])).indices)
    both = both.astype(np.int64)
    nd = int(both.max()) + 1 if len(both) else 1
    rkey = q[kept] * nd + both[: len(names)]
    rpos = (i - starts[q])[kept]
    korder = np.argsort(rkey, kind="stable")
    rkey, rpos = rkey[korder], rpos[korder]
    pkey = rt * nd + both[len(names) :]
    pos = np.full(len(pkey), -1, dtype=np.int64)
    if len(rkey):
        at = np.minimum(np.searchsorted(rkey, pkey), len(rkey) - 1)
        found = (rt >= 0) & (rkey[at] == pkey)
        pos[found] = rpos[at[found]]
    miss = np.flatnonzero(rt < 0)
    pos[miss[prefs.doc[miss] == stand_in]] = 0
    return pos


def _topic(
    prefs: Preferences, rows: np.ndarray, r: np.ndarray, njr: int, topic: str
) -> dict[str, float]:
    """One topic's values from its internal ranks: each JG's counts, alone."""
    nj = int(r.max()) + 1
    level = prefs.level[rows]
    jg = prefs.jg[rows].astype(str)
    jsg = prefs.jsg[rows].astype(str)
    groups = sorted(set(jg.tolist()))
    counts: list[JgCounts] = []
    ca = np.zeros((nj, nj), dtype=np.int64) if len(groups) > 1 else None
    for g in groups:
        sel = jg == g
        if len(set(jsg[sel].tolist())) > 1:
            a, rel = pa_matrix(
                r[sel], level[sel], jsg[sel], nj, f"topic {topic!r} group {g!r}", prefs.source
            )
            counts.append(pa_counts(a, rel, njr))
            if ca is not None:
                ca += a
        else:
            counts.append(ec_counts(r[sel], level[sel], njr))
            if ca is not None:
                rs, ls = r[sel], level[sel]
                ca[np.ix_(rs, rs)] += ls[:, None] > ls[None, :]
    v = topic_values(counts)
    if ca is not None:
        v["prefs_pair"], v["prefs_pair_ret"], v["prefs_pair_imp"] = pair_values(ca, njr)
    return v
