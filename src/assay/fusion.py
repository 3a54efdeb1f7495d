"""Rank aggregation (:func:`aggregate`) and run fusion (:func:`fuse`, :func:`optimize_fusion`).

**Rank aggregation** combines lists of candidates (votes, best first, possibly partial) into a
consensus order: Borda (Liu 2009, *Learning to Rank for Information Retrieval*; Li 2014),
weighted Borda, Dowdall, Copeland (Condorcet), Kemeny–Young and MC4 (Dwork, Kumar, Naor &
Sivakumar 2001).

**Run fusion** combines scored runs query by query: CombSUM, CombMNZ, CombANZ, CombMAX,
CombMIN, CombMED (Fox & Shaw 1993), CombGMNZ (Lee 1997), weighted sum, reciprocal rank fusion
(Cormack, Clarke & Büttcher 2009), inverse square rank (Mourão et al. 2015), BordaFuse (Aslam
& Montague 2001) and Condorcet (Copeland counts over runs), after a per-query score
normalisation. Scores match ranx's ``fuse`` to rounding (see the tests).

Fusion is vectorised over the columnar runs: the rows of all runs are stacked, their
(query, document) pairs joined through integer codes of the exact ids (one dictionary
encoding of the union of the runs' id dictionaries, so ids are compared by value), scores
normalised per (run, query) segment with ``reduceat`` and reduced per (query, document) group
with ``bincount`` / ``ufunc.at`` — there is no per-query Python loop except for
``method="condorcet"``, whose pairwise tallies are computed query by query.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ._arrow import from_np, to_np
from .errors import EmptyInputError, InputError

if TYPE_CHECKING:
    from .data import Qrels, Run

__all__ = [
    "AGGREGATE_METHODS",
    "FUSION_METHODS",
    "NORMS",
    "Consensus",
    "FusionOptimum",
    "aggregate",
    "fuse",
    "optimize_fusion",
]

# ============================================================== rank aggregation

AGGREGATE_METHODS = ("borda", "weighted_borda", "dowdall", "copeland", "kemeny", "mc4")
_KEMENY_EXACT_MAX = 8


class Consensus(NamedTuple):
    """Consensus ``order`` (best first) and the ``scores`` of those candidates (same order)."""

    order: list[Any]
    scores: list[float]


def _sorted_candidates(cands: set[Any]) -> list[Any]:
    try:
        return sorted(cands)
    except TypeError:
        return sorted(cands, key=lambda c: (type(c).__name__, str(c)))


def _prepare(
    rankings: Sequence[Sequence[Hashable]], weights: Sequence[float] | None
) -> tuple[list[Any], np.ndarray, np.ndarray]:
    """Candidates (sorted), position matrix (voters x candidates, -1 = absent), weights."""
    if isinstance(rankings, str | bytes) or not len(rankings):
        raise EmptyInputError("no rankings to aggregate")
    lists = [list(r) for r in rankings]
    for i, r in enumerate(lists):
        if len(set(r)) != len(r):
            raise InputError(f"ranking {i + 1} names a candidate more than once")
    cands = _sorted_candidates({c for r in lists for c in r})
    if not cands:
        raise EmptyInputError("the rankings name no candidates")
    index = {c: j for j, c in enumerate(cands)}
    pos = np.full((len(lists), len(cands)), -1, dtype=np.int64)
    for i, r in enumerate(lists):
        for p, c in enumerate(r):
            pos[i, index[c]] = p
    if weights is None:
        w = np.ones(len(lists))
    else:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (len(lists),):
            raise InputError(f"{len(lists)} rankings but {w.size} weights")
        if not np.isfinite(w).all() or (w < 0).any():
            raise InputError("weights must be finite and non-negative")
    return cands, pos, w


def _points(pos: np.ndarray, values: np.ndarray, partial: str) -> np.ndarray:
    """Per voter and candidate: values[rank]; absent candidates get 0 or the mean of the
    values of the positions the voter left unused."""
    n = pos.shape[1]
    out = np.where(pos >= 0, values[np.maximum(pos, 0)], 0.0)
    if partial == "average":
        n_ranked = (pos >= 0).sum(axis=1)
        tail = np.concatenate([np.cumsum(values[::-1])[::-1], [0.0]])  # tail[k] = sum values[k:]
        avg = np.where(n_ranked < n, tail[n_ranked] / np.maximum(n - n_ranked, 1), 0.0)
        out = np.where(pos >= 0, out, avg[:, None])
    elif partial != "zero":
        raise InputError(f"partial must be 'zero' or 'average', got {partial!r}")
    return out


def _preferences(pos: np.ndarray, w: np.ndarray) -> np.ndarray:
    """P[a, b] = total weight of the voters who rank a above b. A voter who ranks a but not b
    ranks a above b; a voter who ranks neither has no preference."""
    big = np.iinfo(np.int64).max
    p = np.where(pos >= 0, pos, big)
    above = (p[:, :, None] < p[:, None, :]).astype(np.float64)  # voters x a x b
    return np.einsum("v,vab->ab", w, above)


def _order_by(scores: np.ndarray, cands: list[Any]) -> Consensus:
    # Descending score; ties by candidate order (the sorted candidate list), stably.
    idx = np.lexsort((np.arange(len(cands)), -scores))
    return Consensus([cands[i] for i in idx], [float(scores[i]) for i in idx])


def _kemeny_exact(pref: np.ndarray) -> list[int]:
    """Maximise sum over ordered pairs (a before b) of pref[a, b] by DP over subsets."""
    n = pref.shape[0]
    full = (1 << n) - 1
    best = np.full(1 << n, -np.inf)
    choice = np.zeros(1 << n, dtype=np.int64)
    best[0] = 0.0
    for mask in range(1, 1 << n):
        # The first candidate of the set ``mask`` is placed before all the others in it.
        for a in range(n):
            if not mask >> a & 1:
                continue
            rest = mask & ~(1 << a)
            gain = sum(pref[a, b] for b in range(n) if rest >> b & 1)
            v = best[rest] + gain
            if v > best[mask]:  # strict: the lowest-index candidate wins ties
                best[mask] = v
                choice[mask] = a
    order, mask = [], full
    while mask:
        a = int(choice[mask])
        order.append(a)
        mask &= ~(1 << a)
    return order


def _kemeny_local(pref: np.ndarray, start: list[int]) -> list[int]:
    """Local Kemenization (Dwork et al. 2001): swap adjacent candidates while a strict
    majority prefers the lower one. The result is locally Kemeny-optimal."""
    order = list(start)
    changed = True
    while changed:
        changed = False
        for i in range(len(order) - 1):
            a, b = order[i], order[i + 1]
            if pref[b, a] > pref[a, b]:
                order[i], order[i + 1] = b, a
                changed = True
    return order


def aggregate(
    rankings: Sequence[Sequence[Hashable]],
    method: str = "borda",
    weights: Sequence[float] | None = None,
    partial: str = "zero",
    damping: float = 0.15,
) -> Consensus:
    """Consensus of ``rankings`` (each a list of candidates, best first, possibly partial).

    With N candidates in the union of the lists and 0-based ranks r:

    - ``borda``: each list gives N − 1 − r points (best N − 1); points are summed. Votes
      A,B,C / A,C,B / B,A,C give A 5, B 3, C 1.
    - ``weighted_borda``: the same, each list's points times its weight.
    - ``dowdall``: each list gives 1 / (r + 1) points (times its weight, if given).
    - ``copeland``: pairwise majorities; score = wins − losses. A list that ranks a but not b
      prefers a; a list that ranks neither abstains.
    - ``kemeny``: the Kemeny–Young order (fewest pairwise disagreements with the lists,
      weighted): exact by dynamic programming over subsets for ≤ 8 candidates; beyond, local
      Kemenization (Dwork et al. 2001) of the Borda order — locally optimal, and a Condorcet
      winner comes first, but not necessarily the global optimum. Scores are N − 1 − position.
    - ``mc4``: Dwork et al.'s MC4 chain: from candidate a, pick b uniformly; move to b if a
      (weighted) majority of the lists prefers b to a, else stay. With probability
      ``damping`` the walk teleports to a uniform candidate (PageRank-style; this makes the
      chain ergodic). Scores are the stationary probabilities.

    ``partial`` (Borda family): a candidate absent from a list gets ``"zero"`` points from it,
    or ``"average"``: the mean of the points of the positions the list left unused.
    ``weights`` (one per list) apply to every method. Ties in the score are broken by the
    candidates' sort order (ascending), so the result is deterministic.
    """
    if method not in AGGREGATE_METHODS:
        raise InputError(f"unknown method {method!r}; choose from {', '.join(AGGREGATE_METHODS)}")
    cands, pos, w = _prepare(rankings, weights)
    n = len(cands)
    if method in ("borda", "weighted_borda", "dowdall"):
        ranks = np.arange(n, dtype=np.float64)
        values = 1.0 / (ranks + 1.0) if method == "dowdall" else (n - 1) - ranks
        pts = _points(pos, values, partial)
        return _order_by(w @ pts, cands)
    if partial not in ("zero", "average"):
        raise InputError(f"partial must be 'zero' or 'average', got {partial!r}")
    pref = _preferences(pos, w)
    if method == "copeland":
        wins = (pref > pref.T).sum(axis=1)
        losses = (pref < pref.T).sum(axis=1)
        return _order_by((wins - losses).astype(np.float64), cands)
    if method == "kemeny":
        if n <= _KEMENY_EXACT_MAX:
            order = _kemeny_exact(pref)
        else:
            borda = w @ _points(pos, (n - 1) - np.arange(n, dtype=np.float64), partial)
            start = np.lexsort((np.arange(n), -borda)).tolist()
            order = _kemeny_local(pref, start)
        return Consensus([cands[i] for i in order], [float(n - 1 - p) for p in range(n)])
    # mc4
    if not 0.0 <= damping < 1.0:
        raise InputError(f"damping must be in [0, 1), got {damping}")
    move = (pref < pref.T).astype(np.float64) / n  # move[a, b]: b preferred to a by majority
    np.fill_diagonal(move, 0.0)
    trans = move + np.diag(1.0 - move.sum(axis=1))
    trans = (1.0 - damping) * trans + damping / n
    pi = np.full(n, 1.0 / n)
    for _ in range(10_000):
        nxt = pi @ trans
        if np.abs(nxt - pi).sum() < 1e-14:
            pi = nxt
            break
        pi = nxt
    return _order_by(pi / pi.sum(), cands)


# ============================================================== run fusion

_ALIASES = {
    "sum": "combsum",
    "combsum": "combsum",
    "mnz": "combmnz",
    "combmnz": "combmnz",
    "anz": "combanz",
    "combanz": "combanz",
    "max": "combmax",
    "combmax": "combmax",
    "min": "combmin",
    "combmin": "combmin",
    "med": "combmed",
    "combmed": "combmed",
    "gmnz": "combgmnz",
    "combgmnz": "combgmnz",
    "wsum": "wsum",
    "rrf": "rrf",
    "isr": "isr",
    "borda": "borda",
    "bordafuse": "borda",
    "condorcet": "condorcet",
}
FUSION_METHODS = tuple(sorted(set(_ALIASES.values())))
_RANK_METHODS = {"rrf", "isr", "borda", "condorcet"}
NORMS = ("none", "min-max", "max", "sum", "zscore", "rank", "borda")
_NORM_ALIASES = {
    None: "none",
    "none": "none",
    "min-max": "min-max",
    "min_max": "min-max",
    "minmax": "min-max",
    "max": "max",
    "sum": "sum",
    "zscore": "zscore",
    "zmuv": "zscore",
    "rank": "rank",
    "borda": "borda",
}
_FLOOR = 1e-9  # denominators are floored here, as ranx does: constant segments map to 0


@dataclass
class _Stacked:
    """The rows of all runs, on shared query and document codes, joined into groups."""

    n_runs: int
    qids: pa.Array  # union of query ids, byte order
    docs: pa.Array  # union of document ids
    run: np.ndarray  # per row: run index
    score: np.ndarray  # per row: raw score
    rank: np.ndarray  # per row: 1-based rank within (run, query)
    seg: np.ndarray  # per row: (run, query) segment
    seg_start: np.ndarray
    seg_len: np.ndarray
    seg_run: np.ndarray
    seg_q: np.ndarray
    group: np.ndarray  # per row: (query, doc) group
    g_q: np.ndarray  # per group: query code
    g_d: np.ndarray  # per group: doc code
    n_cand: np.ndarray  # per query: candidates (distinct docs over all runs)


def _union_codes(dicts: list[pa.Array], *, sort: bool) -> tuple[list[np.ndarray], pa.Array]:
    """Maps from each dictionary's codes into one dictionary of the union (exact values)."""
    dicts = [d.cast(pa.string()) if d.type != pa.string() else d for d in dicts]
    enc = pc.dictionary_encode(pa.concat_arrays(dicts))
    codes = to_np(enc.indices).astype(np.int64)
    union = enc.dictionary
    if sort:
        order = to_np(pc.sort_indices(union))
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        codes = rank[codes]
        union = union.take(from_np(order))
    bounds = np.cumsum([0, *(len(d) for d in dicts)])
    return [codes[bounds[i] : bounds[i + 1]] for i in range(len(dicts))], union


def _stack(runs: Sequence[Run]) -> _Stacked:
    from .data import Run

    if isinstance(runs, Mapping):
        runs = list(runs.values())
    runs = list(runs)
    if len(runs) < 1:
        raise EmptyInputError("no runs to fuse")
    for r in runs:
        if not isinstance(r, Run):
            raise InputError(f"runs must be assay.Run objects, got {type(r).__name__}")
    qmaps, qids = _union_codes([r.query_ids for r in runs], sort=True)
    dmaps, docs = _union_codes([r.doc_ids for r in runs], sort=False)
    gq = np.concatenate([qm[r.query_codes] for qm, r in zip(qmaps, runs, strict=True)])
    gd = np.concatenate([dm[r.doc_codes] for dm, r in zip(dmaps, runs, strict=True)])
    score = np.concatenate([r.scores for r in runs])
    rank = np.concatenate([r.ranks() for r in runs]).astype(np.float64)
    run = np.repeat(np.arange(len(runs)), [len(r) for r in runs])
    seg_len = np.concatenate([np.diff(r.offsets) for r in runs])
    seg_run = np.repeat(np.arange(len(runs)), [r.n_queries for r in runs])
    seg_q = np.concatenate(qmaps)
    seg_start = np.zeros(len(seg_len), dtype=np.int64)
    np.cumsum(seg_len[:-1], out=seg_start[1:])
    seg = np.repeat(np.arange(len(seg_len)), seg_len)
    key = gq * max(len(docs), 1) + gd
    enc = pc.dictionary_encode(from_np(key))
    group = to_np(enc.indices).astype(np.int64)
    gkey = to_np(enc.dictionary)
    g_q, g_d = gkey // max(len(docs), 1), gkey % max(len(docs), 1)
    n_cand = np.bincount(g_q, minlength=len(qids))
    return _Stacked(
        n_runs=len(runs),
        qids=qids,
        docs=docs,
        run=run,
        score=score,
        rank=rank,
        seg=seg,
        seg_start=seg_start,
        seg_len=seg_len,
        seg_run=seg_run,
        seg_q=seg_q,
        group=group,
        g_q=g_q,
        g_d=g_d,
        n_cand=n_cand,
    )


def _normalise(st: _Stacked, norm: str) -> np.ndarray:
    s = st.score
    if norm == "none":
        return s
    if norm == "rank":
        return 1.0 - (st.rank - 1.0) / st.seg_len[st.seg]
    if norm == "borda":
        return 1.0 - (st.rank - 1.0) / st.n_cand[st.seg_q[st.seg]]
    # Rows within a segment are sorted by score, descending: max first, min last.
    mx = s[st.seg_start]
    mn = s[st.seg_start + st.seg_len - 1]
    if norm == "min-max":
        return (s - mn[st.seg]) / np.maximum(mx - mn, _FLOOR)[st.seg]
    if norm == "max":
        return s / np.maximum(mx, _FLOOR)[st.seg]
    total = np.add.reduceat(s, st.seg_start)
    if norm == "sum":
        return (s - mn[st.seg]) / np.maximum(total - mn * st.seg_len, _FLOOR)[st.seg]
    mean = total / st.seg_len
    dev = s - mean[st.seg]
    std = np.sqrt(np.add.reduceat(dev * dev, st.seg_start) / st.seg_len)
    return dev / np.maximum(std, _FLOOR)[st.seg]  # zscore (population std, as ranx's zmuv)


def _missing_borda(st: _Stacked, norm: str, method: str) -> np.ndarray | None:
    """(runs x queries) value of a document a run did not retrieve, when the norm or the
    method gives one (Borda: the mean of the points of the unused positions); else None."""
    if norm != "borda" and method != "borda":
        return None
    n_q = len(st.qids)
    n_ranked = np.zeros((st.n_runs, n_q))
    n_ranked[st.seg_run, st.seg_q] = st.seg_len
    n = st.n_cand[None, :].astype(np.float64)
    if method == "borda":  # points N - r + 1 (1-based r); unranked: (N - n + 1) / 2
        return (n - n_ranked + 1.0) / 2.0
    return 0.5 - (n_ranked - 1.0) / (2.0 * n)


def _contributions(
    st: _Stacked, method: str, norm: str, k: float
) -> tuple[np.ndarray, np.ndarray | None]:
    if method == "rrf":
        return 1.0 / (k + st.rank), None
    if method == "isr":
        return 1.0 / (st.rank * st.rank), None
    if method == "borda":
        n = st.n_cand[st.seg_q[st.seg]].astype(np.float64)
        return n - st.rank + 1.0, _missing_borda(st, norm, method)
    return _normalise(st, norm), _missing_borda(st, norm, method)


def _reduce(
    st: _Stacked,
    method: str,
    norm: str,
    w: np.ndarray,
    k: float,
    gamma: float,
) -> np.ndarray:
    """Fused score per group."""
    n_g = len(st.g_q)
    val, miss = _contributions(st, method, norm, k)
    val = val * w[st.run]
    count = np.bincount(st.group, minlength=n_g).astype(np.float64)
    if miss is not None:
        # Every run scores every candidate: absent ones get the run's "missing" value.
        miss = miss * w[:, None]
        if method in ("combmax", "combmin", "combmed"):
            dense = np.broadcast_to(miss[:, st.g_q], (st.n_runs, n_g)).copy()
            dense[st.run, st.group] = val
            if method == "combmax":
                return dense.max(axis=0)
            if method == "combmin":
                return dense.min(axis=0)
            return np.median(dense, axis=0)
        present = np.bincount(st.group, weights=miss[st.run, st.g_q[st.group]], minlength=n_g)
        total = np.bincount(st.group, weights=val, minlength=n_g)
        total += miss.sum(axis=0)[st.g_q] - present
        count = np.full(n_g, float(st.n_runs))
    elif method == "combmax":
        out = np.full(n_g, -np.inf)
        np.maximum.at(out, st.group, val)
        return out
    elif method == "combmin":
        out = np.full(n_g, np.inf)
        np.minimum.at(out, st.group, val)
        return out
    elif method == "combmed":
        dense = np.full((st.n_runs, n_g), np.nan)
        dense[st.run, st.group] = val
        dense.sort(axis=0)  # NaN last
        c = count.astype(np.int64)
        cols = np.arange(n_g)
        return (dense[(c - 1) // 2, cols] + dense[c // 2, cols]) / 2.0
    else:
        total = np.bincount(st.group, weights=val, minlength=n_g)
    if method in ("combsum", "wsum", "rrf", "borda"):
        return total
    if method in ("combmnz", "isr"):
        return total * count
    if method == "combanz":
        return total / count
    if method == "combgmnz":
        return total * count**gamma
    raise AssertionError(method)  # pragma: no cover - names are checked before


def _condorcet(st: _Stacked, w: np.ndarray) -> np.ndarray:
    """Copeland count per group, query by query: a run prefers a to b if it ranks a above b
    or retrieves a but not b; score = pairwise majority wins − losses."""
    out = np.zeros(len(st.g_q))
    order = np.argsort(st.g_q, kind="stable")
    g_bounds = np.searchsorted(st.g_q[order], np.arange(len(st.qids) + 1))
    local = np.empty(len(st.g_q), dtype=np.int64)
    local[order] = np.arange(len(order)) - g_bounds[st.g_q[order]]
    row_q = st.g_q[st.group]
    row_order = np.argsort(row_q, kind="stable")
    r_bounds = np.searchsorted(row_q[row_order], np.arange(len(st.qids) + 1))
    for q in range(len(st.qids)):
        groups = order[g_bounds[q] : g_bounds[q + 1]]
        rows = row_order[r_bounds[q] : r_bounds[q + 1]]
        n = len(groups)
        pos = np.full((st.n_runs, n), np.inf)
        pos[st.run[rows], local[st.group[rows]]] = st.rank[rows]
        pref = np.einsum("v,vab->ab", w, (pos[:, :, None] < pos[:, None, :]).astype(float))
        out[groups] = (pref > pref.T).sum(axis=1) - (pref < pref.T).sum(axis=1)
    return out


def _to_run(
    st: _Stacked, fused: np.ndarray, depth: int | None, name: str, tag: str | None = None
) -> Run:
    from .data import Run

    return Run.from_codes(st.qids, st.docs, st.g_q, st.g_d, fused, name=name, tag=tag, depth=depth)


def _check(
    st: _Stacked, method: str, norm: str | None, weights: Any, k: float, depth: int | None
) -> tuple[str, str, np.ndarray]:
    m = _ALIASES.get(method.lower()) if isinstance(method, str) else None
    if m is None:
        raise InputError(f"unknown fusion method {method!r}; choose from {', '.join(_ALIASES)}")
    nm = _NORM_ALIASES.get(norm.lower() if isinstance(norm, str) else norm)
    if nm is None:
        raise InputError(f"unknown norm {norm!r}; choose from {', '.join(NORMS)}")
    if weights is None:
        w = np.ones(st.n_runs)
    else:
        w = np.asarray(weights, dtype=np.float64).ravel()
        if w.shape != (st.n_runs,):
            raise InputError(f"{st.n_runs} runs but {w.size} weights")
        if not np.isfinite(w).all():
            raise InputError("weights must be finite")
    if not (isinstance(k, int | float) and math.isfinite(k) and k >= 0):
        raise InputError(f"k must be a finite number >= 0, got {k!r}")
    if depth is not None and (not isinstance(depth, int) or depth < 1):
        raise InputError(f"depth must be a positive integer, got {depth!r}")
    return m, nm, w


def fuse(
    runs: Sequence[Run] | Mapping[str, Run],
    method: str = "rrf",
    norm: str | None = "min-max",
    weights: Sequence[float] | None = None,
    k: float = 60,
    depth: int | None = None,
    name: str | None = None,
    gamma: float = 1.0,
) -> Run:
    """Fuse scored runs query by query into one :class:`~assay.Run`.

    Methods (``method``; ranx's names are accepted as aliases): with s the normalised score
    of a document in a run, r its 1-based rank there (trec_eval order: ties by docno), and
    n the number of runs that retrieved it,

    - ``combsum`` (``sum``): Σ s — a document a run did not retrieve counts 0 for it;
    - ``wsum``: Σ w·s (``weights``, one per run; default all 1);
    - ``combmnz`` (``mnz``): n · Σ s;  ``combanz`` (``anz``): Σ s / n;
    - ``combgmnz`` (``gmnz``): n^gamma · Σ s;
    - ``combmax``/``combmin``/``combmed``: max/min/median of s over the runs that retrieved it;
    - ``rrf``: Σ 1 / (k + r), k = 60 by default (Cormack et al. 2009);
    - ``isr``: n · Σ 1 / r² (Mourão et al. 2015);
    - ``borda`` (``bordafuse``): Σ (N − r + 1) with N the candidates of the query (union of
      the runs); a run that did not retrieve a document gives it the mean of its unused
      points, (N − n_run + 1) / 2 (Aslam & Montague 2001, as ranx);
    - ``condorcet``: Copeland count (pairwise majority wins − losses; a run prefers the
      documents it retrieved to those it did not), computed query by query.

    ``weights`` multiply each run's contribution for every method (weighted RRF, weighted
    Borda, weighted votes for Condorcet). Normalisations (``norm``, per run and query; they
    apply to the score-based methods, the rank-based ones — rrf, isr, borda, condorcet — use
    ranks): ``none``; ``min-max`` (s − min) / (max − min); ``max`` s / max; ``sum``
    (s − min) / Σ (s − min); ``zscore`` (``zmuv``) (s − mean) / std (population std);
    ``rank`` 1 − (r − 1)/len; ``borda`` 1 − (r − 1)/N, with documents a run did not retrieve
    given 0.5 − (len − 1)/(2N) by it (then every run scores every candidate, so n is the
    number of runs). Denominators are floored at 1e-9 (as ranx), so a segment of equal scores
    normalises to 0.

    The fused run holds every (query, document) of any input run (``depth`` keeps the top
    ``depth`` per query). Being a Run, its rows are ordered by score, ties by docno
    descending — assay's tie rule, applied to equal fused scores too.
    """
    st = _stack(list(runs.values()) if isinstance(runs, Mapping) else runs)
    m, nm, w = _check(st, method, norm, weights, k, depth)
    fused = _condorcet(st, w) if m == "condorcet" else _reduce(st, m, nm, w, float(k), gamma)
    return _to_run(st, fused, depth, name or m)


# ============================================================== optimisation


@dataclass
class FusionOptimum:
    """The result of :func:`optimize_fusion`."""

    method: str
    norm: str
    metric: str
    weights: list[float] | None
    k: float
    score: float  # mean metric on the training queries
    run: Run  # the fused run with the chosen parameters (all queries)
    trials: list[dict[str, Any]] = field(default_factory=list)


def _simplex(n: int, step: float) -> list[tuple[float, ...]]:
    m = round(1 / step)
    out = []
    for c in itertools.product(range(m + 1), repeat=n - 1):
        if sum(c) <= m:
            out.append(tuple(x / m for x in (*c, m - sum(c))))
    return out


def optimize_fusion(
    qrels: Qrels,
    runs: Sequence[Run] | Mapping[str, Run],
    method: str = "wsum",
    metric: str = "ndcg@10",
    norm: str | None = "min-max",
    search: str = "grid",
    n_iter: int = 50,
    seed: int = 0,
    train_queries: Sequence[str] | None = None,
    step: float = 0.1,
    ks: Sequence[float] = (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100),
    depth: int | None = None,
) -> FusionOptimum:
    """Choose fusion parameters maximising ``metric`` (mean over ``train_queries``, default
    all qrels queries) of the fused run, by :func:`assay.evaluate`.

    Searched: for ``rrf``, ``k`` (``grid``: the values ``ks``; ``random``: ``n_iter`` draws
    uniform on [1, 100]); for every other method the run weights (``grid``: the simplex with
    step ``step``; ``random``: ``n_iter`` Dirichlet(1) draws). Ties keep the first candidate
    (grid order, or draw order); ``random`` is seeded by ``seed``. The returned run is fused
    with the chosen parameters over all queries.
    """
    from .evaluation import evaluate

    run_list = list(runs.values()) if isinstance(runs, Mapping) else list(runs)
    st = _stack(run_list)
    m, nm, _ = _check(st, method, norm, None, 60, depth)
    if search not in ("grid", "random"):
        raise InputError(f"search must be 'grid' or 'random', got {search!r}")
    if not 0 < step <= 1:
        raise InputError(f"step must be in (0, 1], got {step}")
    train = qrels if train_queries is None else qrels.restrict(train_queries)
    if len(train) == 0:
        raise EmptyInputError("no training queries with judgments")
    rng = np.random.default_rng(seed)
    candidates: list[tuple[list[float] | None, float]]
    if m == "rrf":
        k_values = list(ks) if search == "grid" else rng.uniform(1, 100, n_iter).tolist()
        candidates = [(None, float(x)) for x in k_values]
    else:
        if search == "grid":
            ws = [list(x) for x in _simplex(st.n_runs, step)]
        else:
            ws = rng.dirichlet(np.ones(st.n_runs), n_iter).tolist()
        candidates = [(x, 60.0) for x in ws]
    best: tuple[float, list[float] | None, float] | None = None
    trials = []
    for wts, kv in candidates:
        w = np.ones(st.n_runs) if wts is None else np.asarray(wts)
        fused = _condorcet(st, w) if m == "condorcet" else _reduce(st, m, nm, w, kv, 1.0)
        run = _to_run(st, fused, depth, "fused")
        score = evaluate(train, run, metric).aggregate("fused", metric)
        trials.append({"weights": wts, "k": kv, "score": score})
        if best is None or score > best[0]:
            best = (score, wts, kv)
    if best is None:  # pragma: no cover - there is always at least one candidate
        raise InputError("no parameter values to try")
    score, wts, kv = best
    run = fuse(run_list, m, nm, wts, kv, depth, name=f"{m}-opt")
    return FusionOptimum(m, nm, metric, wts, kv, score, run, trials)
