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

The computation loops over topics and judgment groups (numpy inside): each topic has its own
internal ranks and preference matrices, and a topic's counts array is a dense square matrix.
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
    big_r, big_n = out.num_rel, out.num_nonrel
    if big_r >= big_n:
        ful = out.ful_ret + out.ful_imp + out.num_rel_ret * (big_r - big_n)
        poss = out.poss_ret + out.poss_imp + out.notoccur + out.num_rel * (big_r - big_n)
        out.rnonrel = (ful, poss)
    else:
        last = c == m - 1
        keep_y = r[last][:big_r]  # the best-ranked R documents of the lowest class
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
    big_r, big_n = out.num_rel_ret, out.num_nonrel_ret
    if big_r >= big_n:
        ful = out.ful_ret + out.num_rel_ret * (big_r - big_n)
        out.rnonrel_ret = (ful, out.poss_ret + out.num_rel * (big_r - big_n))
    else:
        last = c == m - 1
        keep_y = r[last][:big_r]
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

    big_r, big_n = out.num_rel, out.num_nonrel
    if big_r >= big_n:
        ful = out.ful_ret + out.ful_imp + out.num_rel_ret * (big_r - big_n)
        poss = out.poss_ret + out.poss_imp + out.notoccur + out.num_rel * (big_r - big_n)
        out.rnonrel = (ful, poss)
    else:
        out.rnonrel = recount(nj, nj)
    big_r, big_n = out.num_rel_ret, out.num_nonrel_ret
    if big_r >= big_n:
        ful = out.ful_ret + out.num_rel_ret * (big_r - big_n)
        out.rnonrel_ret = (ful, out.poss_ret + out.num_rel * (big_r - big_n))
    else:
        out.rnonrel_ret = recount(njr, njr)  # QUIRK: scans for num_rel + 1, not num_rel_ret + 1
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
    ``stand_in`` as trec_eval's -c does)."""
    import pyarrow as pa

    from ..errors import MissingQueryError

    index, d, off_end = _rankings(run, depth)
    starts = np.asarray(run.offsets)[:-1]
    # Document ids of the ranked rows (a run's doc codes need not be distinct per id).
    names = np.array(run.doc_ids.take(pa.array(d)).to_pylist(), dtype=object)
    order = np.lexsort((prefs.doc.astype(str), prefs.query.astype(str)))
    qs = prefs.query[order]
    bounds = np.flatnonzero(np.concatenate(([True], qs[1:] != qs[:-1], [True])))
    out: dict[str, list[float]] = {m: [] for m in PREFS_MEASURES}
    queries: list[str] = []
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        rows = order[lo:hi]
        topic = str(qs[lo])
        t = index.get(topic)
        if t is None and not complete:
            raise MissingQueryError(
                f"preference topic {topic!r} has no results in run {run.name!r}; trec_eval 10 "
                "stops here: use -c (complete=True) to score topics without results"
            )
        docs = prefs.doc[rows]
        if t is None:
            pos = np.where(docs == stand_in, 0, -1)
        else:
            at = {doc: i for i, doc in enumerate(names[starts[t] : off_end[t + 1]].tolist())}
            pos = np.array([at.get(doc, -1) for doc in docs.tolist()], dtype=np.int64)
        queries.append(topic)
        for name, value in _topic(prefs, rows, docs, pos, topic).items():
            out[name].append(value)
    return PrefsContext(queries, {k: np.asarray(v, dtype=np.float64) for k, v in out.items()})


def _topic(
    prefs: Preferences, rows: np.ndarray, docs: np.ndarray, pos: np.ndarray, topic: str
) -> dict[str, float]:
    """One topic's values: internal ranks, then each JG's counts."""
    uniq, first, inv = np.unique(docs, return_index=True, return_inverse=True)
    upos = pos[first]
    retrieved = np.flatnonzero(upos >= 0)
    njr = len(retrieved)
    rank_of = np.empty(len(uniq), dtype=np.int64)
    rank_of[retrieved[np.argsort(upos[retrieved], kind="stable")]] = np.arange(njr)
    rank_of[upos < 0] = np.arange(njr, len(uniq))  # unretrieved: docno order
    nj = len(uniq)
    r = rank_of[inv.reshape(-1)]
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
