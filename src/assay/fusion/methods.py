"""Run fusion: scored runs combined query by query into one run.

CombSUM, CombMNZ, CombANZ, CombMAX, CombMIN, CombMED (Fox & Shaw 1993), CombGMNZ (Lee 1997),
weighted sum, reciprocal rank fusion (Cormack, Clarke & Büttcher 2009), inverse square rank
(Mourão et al. 2015), BordaFuse (Aslam & Montague 2001) and Condorcet (Copeland counts over
runs), after a per-query score normalisation. Scores match ranx's ``fuse`` to rounding (see the
tests).

Fusion is vectorised over the columnar runs: the rows of all runs are stacked, their
(query, document) pairs joined through integer codes of the exact ids (one dictionary
encoding of the union of the runs' id dictionaries, so ids are compared by value), scores
normalised per (run, query) segment with ``reduceat`` and reduced per (query, document) group
with ``bincount`` / ``ufunc.at`` — there is no per-query Python loop except for
``method="condorcet"``, whose pairwise tallies are computed query by query.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from .._options import choice, choices, integer, number
from ..errors import EmptyInputError, OptionError
from .options import FUSION_ALIASES, NORMALIZATION_ALIASES, FusionMethod, Normalization

if TYPE_CHECKING:
    from ..data import Run

__all__ = ["FUSION_METHODS", "NORMS", "fuse"]

#: The fusion methods, alphabetically (ranx's names are accepted as aliases: FUSION_ALIASES).
FUSION_METHODS: tuple[str, ...] = tuple(sorted(choices(FusionMethod)))
#: The score normalisations (aliases: NORMALIZATION_ALIASES).
NORMS: tuple[str, ...] = choices(Normalization)
_FLOOR = 1e-9  # denominators are floored here, as ranx does: constant segments map to 0


# ---------------------------------------------------------------- options


def check_method(method: Any) -> FusionMethod:
    """A fusion method, or one of ranx's names for it, in any case."""
    out: FusionMethod = choice(
        method, FusionMethod, "method", aliases=FUSION_ALIASES, ignore_case=True
    )
    return out


def check_norm(norm: Any) -> Normalization:
    """A score normalisation (None is ``"none"``), or an alias of one, in any case."""
    out: Normalization = choice(
        norm, Normalization, "norm", aliases=NORMALIZATION_ALIASES, ignore_case=True
    )
    return out


def check_rrf_k(value: Any, name: str = "rrf_k") -> float:
    """The RRF constant: a finite number >= 0 (1 / (rrf_k + rank), ranks from 1)."""
    return number(value, name, low=0)


def check_depth(depth: Any) -> int | None:
    """Fused documents kept per query: a positive integer, or None for all."""
    return None if depth is None else integer(depth, "depth", minimum=1)


def run_weights(weights: Any, n_runs: int) -> np.ndarray:
    """One finite weight per run (all 1 by default)."""
    if weights is None:
        return np.ones(n_runs)
    try:
        w = np.asarray(weights, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise OptionError(f"weights must be numbers, got {weights!r}", option="weights") from None
    if w.shape != (n_runs,):
        raise OptionError(f"{n_runs} runs but {w.size} weights", option="weights")
    if not np.isfinite(w).all():
        raise OptionError("weights must be finite", option="weights")
    return w


# ---------------------------------------------------------------- the stacked runs


@dataclass
class Stacked:
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


def stack(runs: Sequence[Run] | Mapping[str, Run]) -> Stacked:
    """The rows of ``runs`` (a sequence or a mapping of Run objects) on shared codes."""
    from ..data import Run

    if isinstance(runs, Mapping):
        runs = list(runs.values())
    runs = list(runs)
    if len(runs) < 1:
        raise EmptyInputError("no runs to fuse")
    runs = [Run.coerce(r, where="fuse", role="a run") for r in runs]
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
    return Stacked(
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


def _normalise(st: Stacked, norm: str) -> np.ndarray:
    s = st.score
    if norm == "none":
        return s
    if norm == "rank":
        return cast(np.ndarray, 1.0 - (st.rank - 1.0) / st.seg_len[st.seg])
    if norm == "borda":
        return cast(np.ndarray, 1.0 - (st.rank - 1.0) / st.n_cand[st.seg_q[st.seg]])
    # Rows within a segment are sorted by score, descending: max first, min last.
    mx = s[st.seg_start]
    mn = s[st.seg_start + st.seg_len - 1]
    if norm == "min-max":
        return cast(np.ndarray, (s - mn[st.seg]) / np.maximum(mx - mn, _FLOOR)[st.seg])
    if norm == "max":
        return cast(np.ndarray, s / np.maximum(mx, _FLOOR)[st.seg])
    total = np.add.reduceat(s, st.seg_start)
    if norm == "sum":
        return cast(
            np.ndarray, (s - mn[st.seg]) / np.maximum(total - mn * st.seg_len, _FLOOR)[st.seg]
        )
    mean = total / st.seg_len
    dev = s - mean[st.seg]
    std = np.sqrt(np.add.reduceat(dev * dev, st.seg_start) / st.seg_len)
    zscore = dev / np.maximum(std, _FLOOR)[st.seg]  # population std, as ranx's zmuv
    return cast(np.ndarray, zscore)


def _missing_borda(st: Stacked, norm: str, method: str) -> np.ndarray | None:
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
    st: Stacked, method: str, norm: str, rrf_k: float
) -> tuple[np.ndarray, np.ndarray | None]:
    if method == "rrf":
        return 1.0 / (rrf_k + st.rank), None
    if method == "isr":
        return 1.0 / (st.rank * st.rank), None
    if method == "borda":
        n = st.n_cand[st.seg_q[st.seg]].astype(np.float64)
        return n - st.rank + 1.0, _missing_borda(st, norm, method)
    return _normalise(st, norm), _missing_borda(st, norm, method)


def _reduce(
    st: Stacked,
    method: str,
    norm: str,
    w: np.ndarray,
    rrf_k: float,
    gamma: float,
) -> np.ndarray:
    """Fused score per group."""
    n_g = len(st.g_q)
    val, miss = _contributions(st, method, norm, rrf_k)
    val = val * w[st.run]
    count = np.bincount(st.group, minlength=n_g).astype(np.float64)
    if miss is not None:
        # Every run scores every candidate: absent ones get the run's "missing" value.
        miss = miss * w[:, None]
        if method in ("combmax", "combmin", "combmed"):
            dense = np.broadcast_to(miss[:, st.g_q], (st.n_runs, n_g)).copy()
            dense[st.run, st.group] = val
            if method == "combmax":
                return cast(np.ndarray, dense.max(axis=0))
            if method == "combmin":
                return cast(np.ndarray, dense.min(axis=0))
            return cast(np.ndarray, np.median(dense, axis=0))
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
        return cast(np.ndarray, (dense[(c - 1) // 2, cols] + dense[c // 2, cols]) / 2.0)
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


def _condorcet(st: Stacked, w: np.ndarray) -> np.ndarray:
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


def fused_scores(
    st: Stacked, method: str, norm: str, w: np.ndarray, rrf_k: float, gamma: float
) -> np.ndarray:
    """The fused score of every (query, document) group of ``st`` (options validated)."""
    if method == "condorcet":
        return _condorcet(st, w)
    return _reduce(st, method, norm, w, rrf_k, gamma)


def to_run(st: Stacked, fused: np.ndarray, depth: int | None, name: str) -> Run:
    """The fused scores of ``st``'s groups as a Run (the top ``depth`` per query)."""
    from ..data import Run

    return Run.from_codes(st.qids, st.docs, st.g_q, st.g_d, fused, name=name, depth=depth)


# ---------------------------------------------------------------- fuse


def fuse(
    runs: Sequence[Run] | Mapping[str, Run],
    *,
    method: FusionMethod | str = "rrf",
    norm: Normalization | str | None = "min-max",
    weights: Sequence[float] | None = None,
    rrf_k: float = 60,
    depth: int | None = None,
    name: str | None = None,
    gamma: float = 1.0,
) -> Run:
    """Fuse scored runs query by query into one :class:`~assay.Run`.

    Methods (``method``; ranx's names are accepted as aliases, in any case): with s the
    normalised score of a document in a run, r its 1-based rank there (trec_eval order: ties
    by docno), and n the number of runs that retrieved it,

    - ``combsum`` (``sum``): Σ s — a document a run did not retrieve counts 0 for it;
    - ``wsum``: Σ w·s (``weights``, one per run; default all 1);
    - ``combmnz`` (``mnz``): n · Σ s;  ``combanz`` (``anz``): Σ s / n;
    - ``combgmnz`` (``gmnz``): n^gamma · Σ s;
    - ``combmax``/``combmin``/``combmed``: max/min/median of s over the runs that retrieved it;
    - ``rrf``: Σ 1 / (rrf_k + r), rrf_k = 60 by default (Cormack et al. 2009);
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

    The fused run holds every (query, document) of any input run (``depth``, a positive
    integer, keeps the top ``depth`` per query). Being a Run, its rows are ordered by score,
    ties by docno descending — assay's tie rule, applied to equal fused scores too. Bad
    options raise :class:`~assay.errors.OptionError`.

    Parameters
    ----------
    runs : sequence of Run or mapping of str to Run
        The runs to fuse (a sequence, or runs by name).
    method : str
        The fusion method (:data:`FUSION_METHODS`, or a ranx alias).
    norm : str or None
        The per-query score normalisation (:data:`NORMS`; None is ``none``).
    weights : sequence of float, optional
        One weight per run (default: all 1).
    rrf_k : float
        The RRF constant.
    depth : int, optional
        Keep the top ``depth`` documents of each fused query.
    name : str, optional
        The fused run's name (default: the method).
    gamma : float
        The exponent of ``combgmnz``.

    Returns
    -------
    Run
        The fused run, named ``name`` (default: the method).

    Examples
    --------
    >>> from assay import Run
    >>> from assay.fusion import fuse
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0, "d4": 1.0}}, name="b")
    >>> fuse([a, b], method="combsum").to_dict()
    {'q1': {'d2': 1.5, 'd1': 1.5, 'd4': 0.0, 'd3': 0.0}}
    """
    m, nm = check_method(method), check_norm(norm)
    k, g, depth = check_rrf_k(rrf_k), number(gamma, "gamma"), check_depth(depth)
    st = stack(runs)
    w = run_weights(weights, st.n_runs)
    return to_run(st, fused_scores(st, m, nm, w, k, g), depth, name or m)
