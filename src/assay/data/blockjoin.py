"""Ranking one block of whole queries against those queries' judgments only: the join of a
streamed run, without a document dictionary for the run (:func:`rank_block`).

The rows of a block arrive as read (query, document and score columns), each query's rows
together. Document ids are matched a group of about :data:`GROUP_ROWS` rows at a time: the
group's ids are dictionary-encoded together with the ids judged for the group's queries, judged
ids first, so a run document is judged for some query of the group exactly when its code is
below the number of distinct judged ids, and its (query, code) pair then finds its grade by a
binary search. Every id is hashed once, in a table small enough to stay in cache, and compared
by value, never by hash alone; the same codes find repeated (query, document) pairs.

The ranked lists are those :func:`assay.data.join.rank` builds from the same rows -- trec_eval's
order, the tie conventions, ``depth`` and ``judged_only`` -- over the block's queries in the
order they appear (tests/properties/test_block_join.py checks every metric against it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from ..io.trec import TrecColumns, query_starts
from ._columns import GROUP_ROWS, as_ids, as_scores, check_duplicates, query_groups
from .conventions import Conventions
from .join import RankInfo, _cut, _Rows
from .qrels import Qrels
from .ranked import NONPOOL, UNJUDGED, Ranked
from .run import trec_order
from .subtopics import RankedIntents

__all__ = [
    "GROUP_ROWS",
    "RankedBlock",
    "rank_block",
]


@dataclass(frozen=True)
class RankedBlock:
    """A block's ranked lists, the qrels code of each of its queries (in ranked order) and
    what the join counted."""

    ranked: Ranked
    codes: np.ndarray
    info: RankInfo


@dataclass(frozen=True)
class _Segments:
    """The block's queries in order of appearance: row offsets, ids and qrels codes."""

    offsets: np.ndarray
    ids: pa.Array
    codes: np.ndarray

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.offsets)


def rank_block(
    qrels: Qrels,
    block: TrecColumns,
    conventions: Conventions,
    *,
    depth: int | None = None,
) -> RankedBlock | None:
    """The ranked lists of a block of whole queries, or None when some query's rows are not
    together in the block (the caller then builds a :class:`~assay.data.Run`).

    Queries unknown to the qrels are counted and left out, as :func:`~assay.data.rank` does;
    a repeated (query, document) pair is a :class:`~assay.errors.DuplicateError`."""
    query = as_ids(block.query, "query", block.source, block.lines)
    doc = as_ids(block.doc, "document", block.source, block.lines)
    score = as_scores(block.value, block.source, block.lines)
    segments = _segments(query, qrels)
    if segments is None:
        return None
    seg_of_row = np.repeat(np.arange(len(segments.codes), dtype=np.int64), segments.sizes)
    judged = _judged_rows(qrels, segments.codes)
    # Every row is checked for repeats, those of queries unknown to the qrels too.
    grade, qrow = _grades(qrels, segments, judged, doc, seg_of_row, block.source, block.lines)
    known = segments.codes >= 0
    unknown_ids = segments.ids.filter(from_np(~known)).to_pylist()
    unknown_rows = int(segments.sizes[~known].sum())
    if unknown_ids:
        keep = known[seg_of_row]
        doc, score, grade = doc.filter(from_np(keep)), score[keep], grade[keep]
        qrow = None if qrow is None else qrow[keep]
        segments, judged, seg_of_row = _known_only(segments, judged, seg_of_row[keep])
    order = _rank_order(seg_of_row, score, doc, conventions.ties)
    if order is not None:
        grade, score = grade[order], score[order]
        qrow = None if qrow is None else qrow[order]
    rows, dropped = _cut(_Rows(seg_of_row, grade, score, qrow), depth, conventions.judged_only)
    ranked = _ranked(qrels, segments, judged, rows, conventions)
    nseg = len(segments.codes)
    info = RankInfo(unknown_ids, unknown_rows, [], np.zeros(nseg, dtype=bool), dropped)
    return RankedBlock(ranked, segments.codes, info)


def _known_only(
    segments: _Segments, judged: _Judged, seg_of_row: np.ndarray
) -> tuple[_Segments, _Judged, np.ndarray]:
    """The segments of qrels queries, renumbered; ``seg_of_row`` holds the kept rows' old
    segment numbers. Unknown queries have no judged rows, so those stay as they are."""
    known = segments.codes >= 0
    renumber = np.cumsum(known) - 1
    sizes = segments.sizes[known]
    offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    kept = _Segments(offsets, segments.ids.filter(from_np(known)), segments.codes[known])
    starts = np.append(judged.offsets[:-1][known], judged.offsets[-1])
    return kept, _Judged(judged.rows, renumber[judged.segment], starts), renumber[seg_of_row]


def _segments(query: pa.Array, qrels: Qrels) -> _Segments | None:
    """Runs of equal query ids; None when an id starts two runs."""
    starts = query_starts(query)
    ids = query.take(from_np(starts))
    if len(ids) > 1 and pc.count_distinct(ids).as_py() != len(ids):
        return None
    codes = to_np(pc.index_in(ids, value_set=qrels.query_ids), fill=-1).astype(np.int64)
    return _Segments(np.append(starts, len(query)), ids, codes)


@dataclass(frozen=True)
class _Judged:
    """The qrels rows of the block's queries, grouped by segment: row index, segment, and
    each segment's slice."""

    rows: np.ndarray
    segment: np.ndarray
    offsets: np.ndarray


def _judged_rows(qrels: Qrels, codes: np.ndarray) -> _Judged:
    """The qrels rows of each segment's query (none for a query unknown to the qrels)."""
    known = codes >= 0
    at = np.where(known, codes, 0)
    lo = qrels.offsets[at]
    sizes = np.where(known, qrels.offsets[at + 1] - lo, 0)
    offsets = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    rows = np.arange(offsets[-1], dtype=np.int64) + np.repeat(lo - offsets[:-1], sizes)
    segment = np.repeat(np.arange(len(codes), dtype=np.int64), sizes)
    return _Judged(rows, segment, offsets)


def _grades(
    qrels: Qrels,
    segments: _Segments,
    judged: _Judged,
    doc: pa.Array,
    seg_of_row: np.ndarray,
    source: str | None,
    lines: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """The grade of every row (NONPOOL, UNJUDGED or the judgment), group by group, and (qrels
    with subtopics) its qrels row, -1 when not judged."""
    grade = np.full(len(doc), NONPOOL, dtype=np.int32)
    qrow = None if qrels.intents is None else np.full(len(doc), -1, dtype=np.int64)
    judged_docs = qrels.docs_of(judged.rows)
    judged_grades = qrels.grades[judged.rows]
    for a, b in query_groups(segments.offsets, GROUP_ROWS):
        r0, r1 = int(segments.offsets[a]), int(segments.offsets[b])
        j0, j1 = int(judged.offsets[a]), int(judged.offsets[b])
        both = pa.concat_arrays([judged_docs.slice(j0, j1 - j0), doc.slice(r0, r1 - r0)])
        enc = pc.dictionary_encode(both)
        codes = to_np(enc.indices).astype(np.int64)
        n_codes = len(enc.dictionary)
        jc, rc = codes[: j1 - j0], codes[j1 - j0 :]
        rseg = seg_of_row[r0:r1] - a
        check_duplicates(
            rseg,
            rc,
            n_codes,
            "run",
            enc.dictionary,
            segments.ids.slice(a, b - a),
            source,
            None if lines is None else lines[r0:r1],
        )
        n_judged = int(jc.max()) + 1 if len(jc) else 0
        hit = np.flatnonzero(rc < n_judged)
        if len(hit) == 0:
            continue
        jkey = (judged.segment[j0:j1] - a) * n_codes + jc
        by_key = np.argsort(jkey)
        jkey = jkey[by_key]
        rkey = rseg[hit] * n_codes + rc[hit]
        at = np.minimum(np.searchsorted(jkey, rkey), len(jkey) - 1)
        found = jkey[at] == rkey
        g = judged_grades[j0:j1][by_key][at[found]]
        grade[r0 + hit[found]] = np.where(g < 0, UNJUDGED, g)
        if qrow is not None:
            qrow[r0 + hit[found]] = judged.rows[j0:j1][by_key][at[found]]
    return grade, qrow


def _rank_order(
    seg_of_row: np.ndarray, score: np.ndarray, doc: pa.Array, ties: str
) -> np.ndarray | None:
    """Permutation into ranked order within each segment (None: rows are in it): score
    descending, then input order (``ties="input"``) or docno descending (trec_eval)."""
    if ties != "input":
        return trec_order(seg_of_row, score, doc)
    same = seg_of_row[1:] == seg_of_row[:-1]
    if bool(((score[1:] <= score[:-1]) | ~same).all()):
        return None
    return np.lexsort((-score, seg_of_row))


def _ranked(
    qrels: Qrels, segments: _Segments, judged: _Judged, rows: _Rows, conventions: Conventions
) -> Ranked:
    """The ranked lists with each query's qrels statistics (as :func:`rank` computes them)."""
    nseg = len(segments.codes)
    offsets = np.zeros(nseg + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows.query, minlength=nseg), out=offsets[1:])
    grades = qrels.grades[judged.rows]
    ok = grades >= 0
    jg, js = grades[ok], judged.segment[ok]
    level_grades = qrels.grade_levels
    nl = max(len(level_grades), 1)
    lev = np.searchsorted(level_grades, jg)
    levels = np.bincount(js * nl + lev, minlength=nseg * nl).reshape(nseg, nl)
    ideal_offsets = np.zeros(nseg + 1, dtype=np.int64)
    np.cumsum(np.bincount(js, minlength=nseg), out=ideal_offsets[1:])
    return Ranked(
        query_ids=np.asarray(segments.ids.to_pylist(), dtype=object),
        offsets=offsets,
        grade=rows.grade,
        score=rows.score,
        levels=levels[:, : len(level_grades)],
        level_grades=level_grades,
        ideal_grades=jg[np.lexsort((-jg, js))],
        ideal_offsets=ideal_offsets,
        max_grade=qrels.max_grade,
        conventions=conventions,
        intents=_intents(qrels, rows.qrow, judged),
    )


def _intents(qrels: Qrels, qrow: np.ndarray | None, judged: _Judged) -> RankedIntents | None:
    """The subtopic judgments behind the block's lists (qrels with subtopics only)."""
    if qrels.intents is None:
        return None
    qrow = np.zeros(0, dtype=np.int64) if qrow is None else qrow
    docs = qrels.docs_of(judged.rows)
    return RankedIntents(qrow, qrels.intents, judged.offsets, judged.rows, docs)
