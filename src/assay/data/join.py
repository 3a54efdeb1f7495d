"""The qrels–run join: every retrieved document gets its grade, every query's list its order
under the tie convention, and what could not be joined is counted (:func:`rank`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from .._options import depth as check_depth
from ..errors import ConventionError, MissingQueryError, shown
from .conventions import Conventions
from .qrels import Qrels
from .ranked import NONPOOL, UNJUDGED, Ranked
from .run import Run
from .subtopics import RankedIntents, expand

__all__ = [
    "RankInfo",
    "lookalike_note",
    "missing_message",
    "rank",
    "rank_absent",
]


@dataclass(frozen=True)
class RankInfo:
    """What building the ranked lists found (:func:`rank`): counted, never silently dropped.

    Parameters
    ----------
    unknown_queries : list of str
        The run's queries that are not in the qrels (left out).
    unknown_rows : int
        How many rows those queries had.
    missing_queries : list of str
        The qrels queries the run has no results for.
    missing_mask : numpy.ndarray
        Per evaluated query (in the ranked lists' order), whether the run has no results.
    dropped_unjudged : int
        Unjudged rows dropped by ``judged_only``.

    Examples
    --------
    >>> from assay.data import Conventions, Qrels, Run, rank
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1}, "q2": {"d3": 2}})
    >>> run = Run.from_dict({"q1": {"d1": 0.5}, "q3": {"d1": 1.0}})
    >>> _, info = rank(qrels, run, Conventions())
    >>> info.unknown_queries, info.missing_queries, info.missing_mask
    (['q3'], ['q2'], array([False,  True]))
    """

    unknown_queries: list[str]
    unknown_rows: int
    missing_queries: list[str]
    missing_mask: np.ndarray
    dropped_unjudged: int = 0


@dataclass
class _Rows:
    """The run's rows being joined: evaluated-query code, grade and score, in rank order."""

    query: np.ndarray
    grade: np.ndarray
    score: np.ndarray
    qrow: np.ndarray | None = None  # the qrels row of every row (qrels with subtopics only)

    def take(self, rows: np.ndarray) -> _Rows:
        """The selected rows (a mask or an index array)."""
        qrow = None if self.qrow is None else self.qrow[rows]
        return _Rows(self.query[rows], self.grade[rows], self.score[rows], qrow)


def rank(
    qrels: Qrels, run: Run, conventions: Conventions, *, depth: int | None = None
) -> tuple[Ranked, RankInfo]:
    """Join a run with the qrels and order every query's list under the conventions.

    Every retrieved document gets its grade (:data:`NONPOOL` if the qrels do not have it,
    :data:`UNJUDGED` if its grade is negative). ``depth`` keeps only the first ``depth``
    documents of every query's ranking (after ordering, before ``judged_only`` drops unjudged
    ones; trec_eval's ``-M``). A query whose results are all cut off still counts as present.

    Parameters
    ----------
    qrels : Qrels
        The judgments; their queries are the ones evaluated.
    run : Run
        The system's output.
    conventions : Conventions
        Ties, missing queries (``missing="error"`` raises
        :class:`~assay.errors.MissingQueryError`), ``judged_only`` ...
    depth : int, optional
        The documents kept per query (None: all).

    Returns
    -------
    (Ranked, RankInfo)
        The ranked lists of the evaluated queries, and what the join found.

    Examples
    --------
    >>> from assay.data import Conventions, Qrels, Run, rank
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}})
    >>> run = Run.from_dict({"q1": {"d1": 0.5, "d2": 0.9, "d9": 0.1}})
    >>> ranked, info = rank(qrels, run, Conventions())
    >>> ranked.query_ids, ranked.grade, ranked.offsets
    (array(['q1', 'q2'], dtype=object), array([ 0,  1, -1], dtype=int32), array([0, 3, 3]))
    """
    depth = check_depth(depth, error=ConventionError)
    rows, unknown_queries, unknown_rows, _ = _join(qrels, run, conventions)
    present, missing_queries, eval_q = _evaluated(qrels, run.name, rows.query, conventions)
    rows, dropped = _cut(rows, depth, conventions.judged_only)
    ranked = _ranked(qrels, rows, eval_q, conventions)
    info = RankInfo(unknown_queries, unknown_rows, missing_queries, ~present[eval_q], dropped)
    return ranked, info


def rank_absent(qrels: Qrels, conventions: Conventions) -> Ranked:
    """Every qrels query with an empty ranked list: how ``missing="zero"`` scores the
    queries a run has no results for, when the run is joined block by block.

    Parameters
    ----------
    qrels : Qrels
        The judgments.
    conventions : Conventions
        The conventions the lists are scored under.

    Returns
    -------
    Ranked
        One empty list per qrels query, with the qrels statistics.

    Examples
    --------
    >>> from assay.data import Conventions, Qrels, rank_absent
    >>> ranked = rank_absent(Qrels.from_dict({"q1": {"d1": 1}, "q2": {"d3": 2}}), Conventions())
    >>> ranked.nq, ranked.offsets
    (2, array([0, 0, 0]))
    """
    empty = _Rows(
        np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float64)
    )
    return _ranked(qrels, empty, np.arange(qrels.n_queries), conventions)


def _ids(qrels: Qrels, codes: np.ndarray) -> list[str]:
    return qrels.query_ids.take(from_np(codes)).to_pylist() if len(codes) else []


def missing_message(run: str, missing: list[str]) -> str:
    """The ``missing="error"`` message: which qrels queries the run has no results for.

    Parameters
    ----------
    run : str
        The run's name.
    missing : list of str
        The qrels queries without results (the first five are named).

    Returns
    -------
    str
        The message.

    Examples
    --------
    >>> from assay.data import missing_message
    >>> missing_message("bm25", ["q2"])
    "run 'bm25' has no results for 1 qrels query: 'q2' (missing='error')"
    """
    listed = ", ".join(shown(q) for q in missing[:5])
    more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
    plural = "y" if len(missing) == 1 else "ies"
    return (
        f"run {run!r} has no results for {len(missing)} qrels quer{plural}: "
        f"{listed}{more} (missing='error')"
    )


def _folded(text: str) -> str:
    import unicodedata

    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if unicodedata.category(c) != "Cf").strip()


def lookalike_note(unknown: list[str], missing: list[str]) -> str:
    """A clause for the warning about run queries not in the qrels: how many of them equal a
    qrels query without results once Unicode-normalised (NFKC) and stripped of invisible
    characters -- the same topic spelt differently, which the code points tell apart -- with
    the first pair; "" when none does."""
    if not unknown or not missing:
        return ""
    folded = {_folded(q): q for q in missing}
    pairs = [(u, folded[f]) for u in unknown if (f := _folded(u)) in folded]
    if not pairs:
        return ""
    u, q = pairs[0]
    return (
        f"; {len(pairs)} of them equal a qrels query without results once Unicode-normalised "
        f"(NFKC) and stripped of invisible characters, e.g. run {shown(u, points=True)} vs "
        f"qrels {shown(q, points=True)}"
    )


def _join(
    qrels: Qrels, run: Run, conventions: Conventions
) -> tuple[_Rows, list[str], int, np.ndarray | None]:
    """The run's rows of qrels queries in rank order, with their grades; the run's queries
    unknown to the qrels and how many rows they had; and which of the run's stored rows the
    rows are (None: all of them, in stored order)."""
    qmap = to_np(pc.index_in(run.query_ids, value_set=qrels.query_ids), fill=-1)
    # The run's ids as it keeps them (each row's own, or distinct): looked up in the qrels'
    # dictionary, never hashed into one of their own.
    run_docs, rd = run._doc_lookup()
    dmap = to_np(pc.index_in(run_docs, value_set=qrels.doc_ids), fill=-1)
    order = run.order(conventions.ties)
    rq, rs = run.query_codes, run.scores
    if order is not None:
        rq, rd, rs = rq[order], rd[order], rs[order]
    qq = qmap[rq]
    keep = qq >= 0
    unknown = np.flatnonzero(qmap < 0)
    unknown_queries = run.query_ids.take(from_np(unknown)).to_pylist() if len(unknown) else []
    unknown_rows = int(len(keep) - np.count_nonzero(keep))
    picked = order
    if unknown_rows:
        qq, rd, rs = qq[keep], rd[keep], rs[keep]
        picked = (np.arange(len(keep)) if order is None else order)[keep]
    at = _judgment_positions(qrels, qq, dmap[rd])
    qrow = None if qrels.intents is None else _qrels_rows(qrels, at)
    return _Rows(qq, _grades(qrels, at), rs, qrow), unknown_queries, unknown_rows, picked


def _evaluated(
    qrels: Qrels, run: str, query: np.ndarray, conventions: Conventions
) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Which qrels queries the joined rows (their query codes) cover, the ids of those they
    do not (``missing="error"`` raises), and the queries evaluated under ``missing``."""
    present = np.zeros(qrels.n_queries, dtype=bool)
    present[query] = True
    missing_queries = _ids(qrels, np.flatnonzero(~present))
    if conventions.missing == "error" and missing_queries:
        raise MissingQueryError(missing_message(run, missing_queries))
    eval_q = np.flatnonzero(present) if conventions.missing == "skip" else np.arange(len(present))
    return present, missing_queries, eval_q


def _judgment_positions(qrels: Qrels, query: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """Where every (query code, qrels doc code) row stands among the qrels' sorted
    (query, doc) keys (a binary search), -1 when the pair is not judged."""
    out = np.full(len(query), -1, dtype=np.int64)
    valid = np.flatnonzero(doc >= 0)
    if len(valid) == 0:
        return out
    n_docs = max(len(qrels.doc_ids), 1)
    key_r = query[valid].astype(np.int64) * n_docs + doc[valid]
    key_q, _ = qrels.judgment_keys()
    at = np.minimum(np.searchsorted(key_q, key_r), len(key_q) - 1)
    found = key_q[at] == key_r
    out[valid[found]] = at[found]
    return out


def _qrels_rows(qrels: Qrels, at: np.ndarray) -> np.ndarray:
    """The qrels row of every row (``at``: its judgment position), -1 when not judged: what
    the diversity measures read the subtopic judgments of."""
    out = np.full(len(at), -1, dtype=np.int64)
    hit = at >= 0
    out[hit] = qrels.judgment_rows()[at[hit]]
    return out


def _grades(qrels: Qrels, at: np.ndarray) -> np.ndarray:
    """Grade of every row (``at``: its judgment position). Documents not in the qrels are
    NONPOOL; negative grades UNJUDGED."""
    grade = np.full(len(at), NONPOOL, dtype=np.int32)
    hit = np.flatnonzero(at >= 0)
    if len(hit) == 0:
        return grade
    _, grades = qrels.judgment_keys()
    g = grades[at[hit]]
    grade[hit] = np.where(g < 0, UNJUDGED, g)
    return grade


def _cut(rows: _Rows, depth: int | None, judged_only: bool) -> tuple[_Rows, int]:
    """The rows within ``depth`` of each query's top, then (``judged_only``) the judged ones;
    and how many unjudged rows were dropped."""
    if depth is not None:
        rows = _truncate(rows, depth)
    if not judged_only:
        return rows, 0
    judged = rows.grade >= 0
    dropped = int(len(judged) - np.count_nonzero(judged))
    return rows.take(judged), dropped


def _truncate(rows: _Rows, depth: int) -> _Rows:
    """The first ``depth`` rows of every query (rows are grouped by query in rank order)."""
    if len(rows.query) == 0:
        return rows
    new = np.ones(len(rows.query), dtype=bool)
    new[1:] = rows.query[1:] != rows.query[:-1]
    starts = np.flatnonzero(new)
    sizes = np.diff(np.append(starts, len(rows.query)))
    within = np.arange(len(rows.query)) - np.repeat(starts, sizes)
    top = within < depth
    return rows.take(top)


@dataclass(frozen=True)
class _QrelsSide:
    """What the ranked lists of the evaluated queries ``eval_q`` take from the qrels alone:
    their ids, judged documents per grade level and ideal rankings. Independent of the run,
    so a prepared evaluation computes it once."""

    eval_q: np.ndarray
    emap: np.ndarray  # qrels query code -> evaluated position (-1: not evaluated)
    query_ids: np.ndarray
    levels: np.ndarray
    ideal_grades: np.ndarray
    ideal_offsets: np.ndarray


def _qrels_side(qrels: Qrels, eval_q: np.ndarray) -> _QrelsSide:
    nq_all = qrels.n_queries
    emap = np.full(nq_all, -1, dtype=np.int64)
    emap[eval_q] = np.arange(len(eval_q))

    # Per-query counts of judged documents per grade level, from the qrels.
    judged = qrels.grades >= 0
    level_grades = qrels.grade_levels
    lev = np.searchsorted(level_grades, qrels.grades[judged])
    nl = max(len(level_grades), 1)
    qcodes = qrels.query_codes[judged].astype(np.int64)
    counts = np.bincount(qcodes * nl + lev, minlength=nq_all * nl)
    levels = counts.reshape(nq_all, nl)[eval_q][:, : len(level_grades)]

    # Judged grades per evaluated query, descending: the ideal ranking.
    jq = emap[qrels.query_codes[judged]]
    jg = qrels.grades[judged]
    ok = jq >= 0
    jq, jg = jq[ok], jg[ok]
    ideal_offsets = np.zeros(len(eval_q) + 1, dtype=np.int64)
    np.cumsum(np.bincount(jq, minlength=len(eval_q)), out=ideal_offsets[1:])
    return _QrelsSide(
        eval_q=eval_q,
        emap=emap,
        query_ids=np.asarray(_ids(qrels, eval_q), dtype=object),
        levels=levels,
        ideal_grades=jg[np.lexsort((-jg, jq))],
        ideal_offsets=ideal_offsets,
    )


def _ranked(
    qrels: Qrels,
    rows: _Rows,
    eval_q: np.ndarray,
    conventions: Conventions,
    side: _QrelsSide | None = None,
    offsets: np.ndarray | None = None,
) -> Ranked:
    """The ranked lists of the evaluated queries ``eval_q`` with their qrels statistics
    (``side``: those statistics computed before, for these ``eval_q``; ``offsets``: the
    lists' CSR offsets, when known)."""
    if side is None:
        side = _qrels_side(qrels, eval_q)
    if offsets is None:
        offsets = np.zeros(len(eval_q) + 1, dtype=np.int64)
        np.cumsum(np.bincount(side.emap[rows.query], minlength=len(eval_q)), out=offsets[1:])
    return Ranked(
        query_ids=side.query_ids,
        offsets=offsets,
        grade=rows.grade,
        score=rows.score,
        levels=side.levels,
        level_grades=qrels.grade_levels,
        ideal_grades=side.ideal_grades,
        ideal_offsets=side.ideal_offsets,
        max_grade=qrels.max_grade,
        conventions=conventions,
        intents=ranked_intents(qrels, rows.qrow, eval_q, qrels.offsets),
    )


def ranked_intents(
    qrels: Qrels, qrow: np.ndarray | None, queries: np.ndarray, offsets: np.ndarray
) -> RankedIntents | None:
    """The subtopic judgments behind ranked lists of the qrels queries ``queries`` (codes)
    whose qrels rows are given by ``offsets`` (CSR by query code); None without subtopics."""
    if qrels.intents is None:
        return None
    rows, judged_offsets = expand(offsets, queries)
    qrow = np.zeros(0, dtype=np.int64) if qrow is None else qrow
    return RankedIntents(qrow, qrels.intents, judged_offsets, rows, qrels.docs_of(rows))
