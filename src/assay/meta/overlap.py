"""Rank-biased overlap (Webber, Moffat & Zobel 2010, "A similarity measure for indefinite
rankings", ACM TOIS 28(4)), between two rankings, between two runs query by query, and between
two orderings of systems.

RBO = (1 − p) Σ_{d≥1} p^{d−1} A_d, with A_d the agreement of the two depth-d prefixes. Only
prefixes are seen, so the paper gives a lower bound RBO_min (unseen items assumed disjoint),
the residual RBO_res (RBO_max − RBO_min: how much the unseen part could add) and a point
estimate RBO_ext (agreement extrapolated from the seen part). For a shorter list S of length s
and a longer L of length l (Section 4.2, uneven lengths), with X_d the overlap at depth d
(for d > s, the overlap of all of S with L's prefix):

- RBO_min = (1 − p)/p · [Σ_{d≤l} X_d p^d/d + X_l (−ln(1 − p) − Σ_{d≤l} p^d/d)];
- RBO_max: at depth d the unseen items can add d − s matches for s < d ≤ l and
  min(d, X_l + (d − s) + (d − l)) in all beyond l; the sums are finite up to
  f = s + l − X_l, where agreement reaches 1, and in closed form after it;
- RBO_ext (eq. 32) = (1 − p)/p · [Σ_{d≤l} X_d p^d/d + Σ_{s<d≤l} X_s (d − s)/(s·d) p^d]
  + [(X_l − X_s)/l + X_s/s] p^l.

Ties (Section 4.3): a ranking may hold tie groups; every item of a group that starts at rank
r is seen from depth r on, so a prefix can hold more than d items, and agreement is
A_d = 2X_d / (|S_{:d}| + |L_{:d}|) (eq. 28), with a list that has ended counted as holding d
items (unseen placeholders). The bounds and the extrapolation use the effective overlap
d·A_d in place of X_d, which is X_d itself when there are no ties. Both rankings empty: min 0,
max 1, ext 1; one empty: ext 0 (as the ``rbo`` package).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _options as opt
from .._arrow import from_np, to_np
from .._result import Result, provenance
from ..errors import InputError, InputWarning, shown
from ..report.reported import Reported
from .options import RBOTies

if TYPE_CHECKING:
    from ..data import RunLike
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["RBOResult", "RBORuns", "RBOTies", "rbo", "rbo_runs", "rbo_systems"]


@dataclass(frozen=True, eq=False, repr=False)
class RBOResult(Result):
    """RBO of two rankings (Webber, Moffat & Zobel 2010), made by :func:`rbo`.

    ``float()`` gives ``ext``; ``records()`` one row with every field.

    Parameters
    ----------
    min, res, max, ext : float
        RBO_min (the lower bound), RBO_res (= ``max`` − ``min``), RBO_max and RBO_ext (the
        extrapolated point estimate).
    p : float
        The persistence.
    len_a, len_b : int
        The lengths of the two rankings compared.
    provenance : mapping
        The persistence, the depth and the tie rule.

    Examples
    --------
    >>> from assay import meta
    >>> res = meta.rbo(["a", "b", "c"], ["b", "a", "d"], p=0.9)
    >>> res.max, float(res)
    (0.873, 0.63)
    """

    min: float
    res: float
    max: float
    ext: float
    p: float
    len_a: int
    len_b: int
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    def __float__(self) -> float:
        return float(self.ext)

    def records(self) -> list[dict[str, Any]]:
        """One row: rbo_min, rbo_res, rbo_max, rbo_ext, p, len_a, len_b."""
        return [
            {
                "rbo_min": self.min,
                "rbo_res": self.res,
                "rbo_max": self.max,
                "rbo_ext": self.ext,
                "p": self.p,
                "len_a": self.len_a,
                "len_b": self.len_b,
            }
        ]


@dataclass(frozen=True, eq=False, repr=False)
class RBORuns(Result, Reported):
    """RBO between two runs, query by query, made by :func:`rbo_runs`; ``mean()`` averages
    the per-query values.

    Parameters
    ----------
    run_a, run_b : str
        The names of the two runs.
    queries : tuple of str
        The union of both runs' queries (a query only one run has compares with an empty
        ranking and is counted in ``warnings``).
    min, res, ext : numpy.ndarray
        RBO_min, RBO_res and RBO_ext of every query, aligned with ``queries``.
    p : float
        The persistence.
    warnings : tuple of str
        What was adjusted (queries only one run has).
    provenance : mapping
        The persistence, depth, tie rule and number of queries.

    Examples
    --------
    >>> from assay import Run, meta
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0}, "q2": {"d1": 1.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0}, "q2": {"d1": 1.0}}, name="b")
    >>> res = meta.rbo_runs(a, b)
    >>> res.queries, res.ext.round(3)
    (('q1', 'q2'), array([0.9, 1. ]))
    """

    family = "meta"

    run_a: str
    run_b: str
    queries: tuple[str, ...]
    min: np.ndarray
    res: np.ndarray
    ext: np.ndarray
    p: float
    warnings: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    def mean(self) -> dict[str, float]:
        """Mean RBO_min, RBO_res and RBO_ext over the queries.

        Returns
        -------
        dict of str to float
            ``rbo_min``, ``rbo_res`` and ``rbo_ext``.

        Examples
        --------
        >>> from assay import Run, meta
        >>> a = Run.from_dict({"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d1": 1.0}})
        >>> b = Run.from_dict({"q1": {"d2": 2.0, "d1": 1.0}, "q2": {"d1": 1.0}})
        >>> meta.rbo_runs(a, b).mean()["rbo_ext"]
        0.95
        """
        return {
            "rbo_min": float(np.mean(self.min)),
            "rbo_res": float(np.mean(self.res)),
            "rbo_ext": float(np.mean(self.ext)),
        }

    def records(self) -> list[dict[str, Any]]:
        """One row per query (``aggregate`` None), then the means: ``query`` None and
        ``aggregate`` "mean" (a query id, "all" included, never marks the aggregate)."""
        rows = [
            {
                "run_a": self.run_a,
                "run_b": self.run_b,
                "query": q,
                "aggregate": None,
                "rbo_min": float(lo),
                "rbo_res": float(r),
                "rbo_ext": float(e),
            }
            for q, lo, r, e in zip(self.queries, self.min, self.res, self.ext, strict=True)
        ]
        rows.append(
            {
                "run_a": self.run_a,
                "run_b": self.run_b,
                "query": None,
                "aggregate": "mean",
                **self.mean(),
            }
        )
        return rows

    def report(self, *, per_query: bool = False) -> Report:
        """The table ``assay meta rbo`` prints and its records (``per_query``: every
        query's RBO too, not only the means)."""
        from .report import rbo_report

        return rbo_report(self, per_query=per_query)

    def document(self, *, per_query: bool = False) -> Document:
        """The ``--report`` content: :meth:`report`'s tables under "Rank-biased overlap"."""
        from ..report.sections_tasks import tables_document

        return tables_document("Rank-biased overlap", self.family, self.report(per_query=per_query))


# ----------------------------------------------------------------------------- the kernel


def _check_p(p: Any, where: str) -> float:
    return opt.number(p, "p", low=0, high=1, low_open=True, high_open=True, where=where)


def _profile(
    a_codes: np.ndarray, a_start: np.ndarray, b_codes: np.ndarray, b_start: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Effective overlap d·A_d and raw overlap X_d at depths 1..max(len a, len b)."""
    depth = max(len(a_codes), len(b_codes))
    _, ia, ib = np.intersect1d(a_codes, b_codes, assume_unique=True, return_indices=True)
    seen_both = np.maximum(a_start[ia], b_start[ib])
    x = np.cumsum(np.bincount(seen_both, minlength=depth + 1))[1:].astype(np.float64)
    d = np.arange(1, depth + 1, dtype=np.float64)
    size_a = np.maximum(np.cumsum(np.bincount(a_start, minlength=depth + 1))[1:], d)
    size_b = np.maximum(np.cumsum(np.bincount(b_start, minlength=depth + 1))[1:], d)
    return 2.0 * d * x / (size_a + size_b), x


def _log_tail(p: float, upto: int) -> float:
    """Σ_{d>upto} p^d / d = −ln(1 − p) − Σ_{d≤upto} p^d / d."""
    d = np.arange(1, upto + 1, dtype=np.float64)
    return float(-math.log1p(-p) - np.sum(p**d / d)) if upto else -math.log1p(-p)


def _rbo_values(
    a_codes: np.ndarray, a_start: np.ndarray, b_codes: np.ndarray, b_start: np.ndarray, p: float
) -> tuple[float, float, float]:
    """(RBO_min, RBO_res, RBO_ext) of two rankings given as item codes and tie starts."""
    s, l_ = sorted((len(a_codes), len(b_codes)))
    if l_ == 0:
        return 0.0, 1.0, 1.0
    if s == 0:
        return 0.0, 1.0, 0.0
    x_eff, _ = _profile(a_codes, a_start, b_codes, b_start)
    d = np.arange(1, l_ + 1, dtype=np.float64)
    w = p**d / d
    x_l, x_s = float(x_eff[-1]), float(x_eff[s - 1])
    seen = float(np.sum(x_eff * w))
    rbo_min = (1 - p) / p * (seen + x_l * _log_tail(p, l_))
    extra = float(np.sum(x_s * (d[s:] - s) / (s * d[s:]) * p ** d[s:])) if l_ > s else 0.0
    rbo_ext = (1 - p) / p * (seen + extra) + ((x_l - x_s) / l_ + x_s / s) * p**l_
    return rbo_min, _residual(s, l_, x_l, p), rbo_ext


def _residual(s: int, l_: int, x_l: float, p: float) -> float:
    """RBO_max − RBO_min = (1 − p) Σ_{d>s} p^{d−1} (X_d^max − X_d^min)/d (see the module)."""
    total = 0.0
    if l_ > s:
        d = np.arange(s + 1, l_ + 1, dtype=np.float64)
        total += float(np.sum(p ** (d - 1) * (d - s) / d))
    f = max(l_ + 1, math.ceil(s + l_ - x_l))  # from depth f on, agreement can be 1
    if f > l_ + 1:
        d = np.arange(l_ + 1, f, dtype=np.float64)
        total += float(np.sum(p ** (d - 1) * (2.0 - (s + l_) / d)))
    # Σ_{d≥f} p^{d−1} (1 − X_l/d) = p^{f−1}/(1 − p) − X_l/p · Σ_{d≥f} p^d/d
    total += p ** (f - 1) / (1 - p) - x_l / p * _log_tail(p, f - 1)
    return (1 - p) * total


# ----------------------------------------------------------------------------- rankings


def _groups(ranking: Iterable[Any], where: str, name: str) -> list[list[Hashable]]:
    """A ranking as tie groups: each element an item, or a set/list/tuple of tied items."""
    out: list[list[Hashable]] = []
    for element in ranking:
        if isinstance(element, set | frozenset | list | tuple):
            group = list(element)
            if not group:
                raise InputError(f"{where}: {name} holds an empty tie group")
            out.append(group)
        else:
            out.append([element])
    return out


def _encode(
    groups_a: list[list[Hashable]], groups_b: list[list[Hashable]], where: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    codes: dict[Hashable, int] = {}

    def one(groups: list[list[Hashable]], name: str) -> tuple[np.ndarray, np.ndarray]:
        items: list[int] = []
        starts: list[int] = []
        seen: set[Hashable] = set()
        for group in groups:
            start = len(items) + 1
            for item in group:
                if item in seen:
                    raise InputError(f"{where}: {name} ranks {item!r} twice")
                seen.add(item)
                items.append(codes.setdefault(item, len(codes)))
                starts.append(start)
        return np.asarray(items, dtype=np.int64), np.asarray(starts, dtype=np.int64)

    a, sa = one(groups_a, "ranking a")
    b, sb = one(groups_b, "ranking b")
    return a, sa, b, sb


def rbo(
    a: Iterable[Hashable | Collection[Hashable]],
    b: Iterable[Hashable | Collection[Hashable]],
    *,
    p: float = 0.9,
    depth: int | None = None,
) -> RBOResult:
    """RBO of two rankings, best first (Webber, Moffat & Zobel 2010): RBO_min, RBO_res and
    RBO_ext (see the module documentation for the formulas, uneven lengths and ties).

    Each ranking is a sequence of items, or of tie groups (a set, list or tuple of items tied
    at one rank). ``p`` is the persistence in (0, 1) (the weight of depth d is
    (1 − p)p^{d−1}; p = 0.9 gives the top 10 ranks 86% of the weight). ``depth`` truncates both
    rankings to their first ``depth`` items (None: all).

    Parameters
    ----------
    a, b : iterable of items or of tie groups
        The two rankings, best first; an element that is a set, list or tuple is a group of
        items tied at one rank.
    p : float
        The persistence, in (0, 1).
    depth : int, optional
        Compare the first ``depth`` items only.

    Returns
    -------
    RBOResult
        RBO_min, RBO_res, RBO_max = RBO_min + RBO_res and RBO_ext.

    Examples
    --------
    >>> from assay import meta
    >>> meta.rbo(["a", "b", "c", "d"], ["b", "a", "c", "e"], p=0.9).ext
    0.71775
    """
    where = "rbo"
    p = _check_p(p, where)
    depth = opt.depth(depth, where=where)
    ga, gb = _groups(a, where, "ranking a"), _groups(b, where, "ranking b")
    a_codes, a_start, b_codes, b_start = _encode(ga, gb, where)
    if depth is not None:
        a_codes, a_start = a_codes[:depth], a_start[:depth]
        b_codes, b_start = b_codes[:depth], b_start[:depth]
    lo, res, ext = _rbo_values(a_codes, a_start, b_codes, b_start, p)
    return RBOResult(
        min=lo,
        res=res,
        max=lo + res,
        ext=ext,
        p=p,
        len_a=len(a_codes),
        len_b=len(b_codes),
        provenance=provenance(p=p, depth=depth, ties="groups share the rank of their first item"),
    )


def rbo_systems(
    scores_a: Mapping[str, float], scores_b: Mapping[str, float], *, p: float = 0.9
) -> RBOResult:
    """RBO between two orderings of systems: each mapping system → value (higher first; equal
    values form a tie group), e.g. the mean of each run under two metrics or two qrels.

    The orderings are compared by :func:`rbo` (ties as tie groups, Webber et al. §4.3).

    Parameters
    ----------
    scores_a, scores_b : mapping of str to float
        System → value (finite), one ordering each.
    p : float
        The persistence, in (0, 1).

    Returns
    -------
    RBOResult
        RBO_min, RBO_res, RBO_max and RBO_ext of the two orderings.

    Examples
    --------
    >>> from assay import meta
    >>> by_map = {"bm25": 0.31, "dense": 0.35, "rm3": 0.31}
    >>> by_ndcg = {"bm25": 0.30, "dense": 0.28, "rm3": 0.33}
    >>> round(meta.rbo_systems(by_map, by_ndcg).ext, 3)
    0.882
    """
    where = "rbo_systems"
    return rbo(_ordering(scores_a, where), _ordering(scores_b, where), p=p)


def _ordering(scores: Mapping[str, float], where: str) -> list[list[str]]:
    if not isinstance(scores, Mapping) or not scores:
        raise InputError(f"{where}: give a non-empty mapping system -> value")
    values = {k: float(v) for k, v in scores.items()}
    if not all(math.isfinite(v) for v in values.values()):
        raise InputError(f"{where}: system values must be finite")
    groups: dict[float, list[str]] = {}
    for name, v in sorted(values.items(), key=lambda kv: -kv[1]):
        groups.setdefault(v, []).append(name)
    return list(groups.values())


# ----------------------------------------------------------------------------- runs


def _ranked_rows(run: Any, ties: str) -> tuple[np.ndarray, Any, np.ndarray]:
    """Rows in rank order: their query codes, document ids (Arrow) and tie-group start ranks
    (1-based, per query; equal to the rank unless ``ties="group"``)."""
    order = run.order("input" if ties == "input" else "docno")
    rows = np.arange(len(run)) if order is None else np.asarray(order)
    q = np.asarray(run.query_codes)[rows]
    docs = run.doc_ids.take(from_np(np.asarray(run.doc_codes)[rows]))
    first = np.r_[True, q[1:] != q[:-1]]
    index = np.arange(len(q), dtype=np.int64)
    start_of_query = np.maximum.accumulate(np.where(first, index, 0))
    pos = index - start_of_query + 1
    if ties == "group":
        scores = np.asarray(run.scores)[rows]
        new = first | np.r_[True, scores[1:] != scores[:-1]]
        pos = np.maximum.accumulate(np.where(new, index, 0)) - start_of_query + 1
    return q, docs, pos


def _query_slices(run: Any, q: np.ndarray) -> dict[str, tuple[int, int]]:
    qids = run.query_ids.to_pylist()
    bounds = np.flatnonzero(np.diff(q)) + 1
    return {
        qids[q[lo]]: (int(lo), int(hi))
        for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(q)], strict=True)
    }


def run_lists(run: RunLike, ties: str) -> dict[str, tuple[list[str], np.ndarray]]:
    """Every query's documents in rank order with their tie-group start ranks (1-based).
    ``run``: a Run or what :meth:`~assay.data.Run.coerce` takes (a data frame, a dict)."""
    from ..data import Run

    run = Run.coerce(run, where="rbo", role="a run")
    q, docs, pos = _ranked_rows(run, ties)
    names = docs.to_pylist()
    return {k: (names[lo:hi], pos[lo:hi]) for k, (lo, hi) in _query_slices(run, q).items()}


def rbo_runs(
    run_a: RunLike,
    run_b: RunLike,
    *,
    p: float = 0.9,
    depth: int | None = None,
    ties: RBOTies = "docno",
) -> RBORuns:
    """RBO_min, RBO_res and RBO_ext between the rankings of two runs, query by query.

    ``ties``: "docno" (tied scores in trec_eval's order), "input" (input order) or "group"
    (documents with equal scores form a tie group, Webber et al. §4.3). ``depth`` truncates
    every ranking. Queries only one run has are compared with an empty ranking (RBO_ext 0)
    and counted in a warning (:class:`~assay.errors.InputWarning`, also in ``warnings``).

    Parameters
    ----------
    run_a, run_b : RunLike
        The two runs (:class:`~assay.Run`, or what :meth:`Run.coerce` accepts: a path, a
        data frame, a ``{query: {doc: score}}`` dict).
    p : float
        The persistence, in (0, 1).
    depth : int, optional
        The depth every ranking is cut at.
    ties : {"docno", "input", "group"}
        How tied scores are ordered.

    Returns
    -------
    RBORuns
        Per query RBO_min, RBO_res and RBO_ext; ``mean()`` averages them; ``report()`` is
        the table ``assay meta rbo`` prints.

    Examples
    --------
    >>> from assay import Run, meta
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0, "d4": 1.0}}, name="b")
    >>> meta.rbo_runs(a, b).mean()["rbo_ext"]
    0.63
    """
    where = "rbo_runs"
    p = _check_p(p, where)
    depth = opt.depth(depth, where=where)
    ties = opt.choice(ties, RBOTies, "ties", where=where)
    from ..data import Run

    run_a = Run.coerce(run_a, where=where, role="run_a")
    run_b = Run.coerce(run_b, where=where, role="run_b")
    qa, docs_a, pos_a = _ranked_rows(run_a, ties)
    qb, docs_b, pos_b = _ranked_rows(run_b, ties)
    codes = _joint_codes(docs_a, docs_b)  # one exact dictionary for both runs' documents
    ca, cb = codes[: len(qa)], codes[len(qa) :]
    la, lb = _query_slices(run_a, qa), _query_slices(run_b, qb)
    queries = sorted(set(la) | set(lb))
    only = [q for q in queries if (q in la) != (q in lb)]
    values = np.empty((len(queries), 3))
    for k, qid in enumerate(queries):
        a0, a1 = la.get(qid, (0, 0))
        b0, b1 = lb.get(qid, (0, 0))
        if depth is not None:
            a1, b1 = min(a1, a0 + depth), min(b1, b0 + depth)
        values[k] = _rbo_values(ca[a0:a1], pos_a[a0:a1], cb[b0:b1], pos_b[b0:b1], p)
    notes = []
    if only:
        notes.append(
            f"{len(only)} queries are in only one of the runs (compared with an empty "
            f"ranking), e.g. {', '.join(shown(q) for q in only[:3])}"
        )
        warnings.warn(f"rbo_runs: {notes[0]}", InputWarning, stacklevel=2)
    return RBORuns(
        run_a=str(getattr(run_a, "name", "a")),
        run_b=str(getattr(run_b, "name", "b")),
        queries=tuple(queries),
        min=values[:, 0],
        res=values[:, 1],
        ext=values[:, 2],
        p=p,
        warnings=tuple(notes),
        provenance=provenance(p=p, depth=depth, ties=ties, n_queries=len(queries)),
    )


def _joint_codes(docs_a: Any, docs_b: Any) -> np.ndarray:
    """Exact integer codes of the document ids of both runs (one shared dictionary)."""
    import pyarrow as pa

    both = pa.concat_arrays([docs_a.cast(pa.string()), docs_b.cast(pa.string())])
    return to_np(both.dictionary_encode().indices).astype(np.int64)
