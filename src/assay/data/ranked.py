"""The evaluation context: one run's ranked lists joined with the qrels, in CSR form.

Rows are the retrieved documents of the evaluated queries, ordered by query and then by rank
(after the tie convention). ``offsets[q]:offsets[q+1]`` is query ``q``'s ranked list. Every
metric kernel works on whole columns; per-query reductions are ``np.bincount`` over ``qidx``.

Grades follow trec_eval: a judged document has its grade (>= 0); a document absent from the
qrels is ``NONPOOL`` (-1); a document in the qrels with a negative grade ("pooled but not
judged") is ``UNJUDGED`` (-2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any, cast

import numpy as np

from ..errors import ConventionError, MetricError
from .conventions import Conventions
from .subtopics import RankedIntents

__all__ = [
    "NONPOOL",
    "UNJUDGED",
    "Ranked",
    "seg_cumsum",
    "seg_rev_cummax",
]


NONPOOL = -1
UNJUDGED = -2


#: 2^1024 is the first power of two a float64 cannot hold.
_EXP_GAIN_LIMIT = 1024


class Ranked:
    """Ranked lists of one run over the evaluated queries, plus per-query qrels statistics.

    Made by :func:`~assay.data.rank`; the metric kernels read it. Rows are the retrieved
    documents in rank order, grouped by query in CSR form.

    Parameters
    ----------
    query_ids : numpy.ndarray
        The evaluated queries' ids (object array), in list order.
    offsets : numpy.ndarray
        CSR offsets: query ``q``'s list is rows ``offsets[q]:offsets[q + 1]``.
    grade : numpy.ndarray
        The grade of every row (:data:`NONPOOL`, :data:`UNJUDGED` for documents without one).
    score : numpy.ndarray
        The score of every row.
    levels : numpy.ndarray
        (n_queries, L) count of judged qrels documents per grade level.
    level_grades : numpy.ndarray
        (L,) the grade of each level, ascending.
    ideal_grades, ideal_offsets : numpy.ndarray
        Judged grades per query, descending (CSR): the ideal rankings.
    max_grade : int
        Top of the grade scale (ERR, pFound).
    conventions : Conventions
        The conventions the lists were built and are scored under.
    intents : RankedIntents, optional
        The subtopic judgments behind the rows (qrels with subtopics only).

    Examples
    --------
    >>> from assay.data import Conventions, Qrels, Run, rank
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1, "d2": 0, "d3": 2}})
    >>> run = Run.from_dict({"q1": {"d1": 0.5, "d2": 0.9}})
    >>> ranked, _ = rank(qrels, run, Conventions())
    >>> ranked.grade, ranked.num_rel(1), ranked.ideal_grades
    (array([0, 1], dtype=int32), array([2]), array([2, 1, 0], dtype=int32))
    """

    def __init__(
        self,
        *,
        query_ids: np.ndarray,
        offsets: np.ndarray,
        grade: np.ndarray,
        score: np.ndarray,
        levels: np.ndarray,
        level_grades: np.ndarray,
        ideal_grades: np.ndarray,
        ideal_offsets: np.ndarray,
        max_grade: int,
        conventions: Conventions,
        intents: RankedIntents | None = None,
    ) -> None:
        self.query_ids = query_ids
        self.nq = len(query_ids)
        self.offsets = offsets
        self.grade = grade
        self.score = score
        self.levels = levels  # (nq, L) count of judged qrels documents per grade level
        self.level_grades = level_grades  # (L,) grade of each level, ascending
        self.ideal_grades = ideal_grades  # judged grades per query, descending (CSR)
        self.ideal_offsets = ideal_offsets
        self.max_grade = max_grade
        self.conventions = conventions
        self.intents = intents  # the subtopic judgments (qrels with subtopics only)
        self.ties = conventions.ties
        self._cache: dict[Any, Any] = {}

    def with_rows(self, offsets: np.ndarray, grade: np.ndarray, score: np.ndarray) -> Ranked:
        """Other ranked rows (CSR ``offsets``, ``grade``, ``score``) over the same queries and
        judgments: the qrels statistics and conventions are kept. Subtopic judgments cannot
        follow (the new rows' qrels rows are unknown), and without them the diversity measures
        would read one subtopic per query, so lists that carry them are refused."""
        if self.intents is not None:
            raise MetricError(
                "these ranked lists carry subtopic judgments, which other rows cannot keep: "
                "evaluate the diversity measures on the lists themselves"
            )
        return Ranked(
            query_ids=self.query_ids,
            offsets=offsets,
            grade=grade,
            score=score,
            levels=self.levels,
            level_grades=self.level_grades,
            ideal_grades=self.ideal_grades,
            ideal_offsets=self.ideal_offsets,
            max_grade=self.max_grade,
            conventions=self.conventions,
        )

    def adopt_layout(self, previous: Ranked) -> None:
        """Take over what ``previous`` computed from the lists' layout and the judgments
        alone (the rows' query and rank, top-k selections, relevant counts, ideal DCGs), when
        it has the same offsets and the same qrels statistics: the rows of a prepared
        evaluation, scored again, differ only in their grades and scores."""
        same = (
            previous.levels is self.levels
            and previous.ideal_grades is self.ideal_grades
            and previous.conventions == self.conventions
            and np.array_equal(previous.offsets, self.offsets)
        )
        if not same:
            return
        for name in ("n_ret", "qidx", "pos", "rank"):
            if name in previous.__dict__:
                self.__dict__[name] = previous.__dict__[name]
        for key, value in previous._cache.items():
            if isinstance(key, tuple) and key[0] in ("topk", "num_rel", "idcg"):
                self._cache[key] = value

    def memo(self, key: Any, compute: Callable[[], Any]) -> Any:
        """The value cached under ``key``, computed once by ``compute()``: metrics that share
        an intermediate (pair counts, cumulative gains) build it once per ranked collection."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    # ------------------------------------------------------------------ layout

    @cached_property
    def n_ret(self) -> np.ndarray:
        return np.diff(self.offsets)

    @cached_property
    def qidx(self) -> np.ndarray:
        return np.repeat(np.arange(self.nq, dtype=np.int64), self.n_ret)

    @cached_property
    def pos(self) -> np.ndarray:
        """0-based rank of every row within its query."""
        pos = np.arange(len(self.grade), dtype=np.int64) - np.repeat(self.offsets[:-1], self.n_ret)
        return cast(np.ndarray, pos)

    @cached_property
    def rank(self) -> np.ndarray:
        return (self.pos + 1).astype(np.float64)

    def seg_sum(self, x: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Per-query sum of a per-row column, over all rows or the selected ``rows`` (a
        boolean mask or an index array, e.g. from :meth:`topk`). Sums run in rank order."""
        if rows is None:
            return np.bincount(self.qidx, weights=x, minlength=self.nq)
        return np.bincount(self.qidx[rows], weights=x[rows], minlength=self.nq)

    def seg_count(self, mask: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Per-query count of true values of ``mask`` (optionally among ``rows`` only)."""
        if rows is not None:
            return np.bincount(self.qidx[rows][mask[rows]], minlength=self.nq).astype(np.int64)
        return np.bincount(self.qidx[mask], minlength=self.nq).astype(np.int64)

    def seg_cumcount(self, flag: np.ndarray) -> np.ndarray:
        """Inclusive running count of ``flag`` within each query (exact integers)."""
        c = np.cumsum(flag, dtype=np.int64)
        start = np.concatenate(([0], c))[self.offsets[:-1]]
        return cast(np.ndarray, c - np.repeat(start, self.n_ret))

    def topk(self, k: int | None) -> np.ndarray | None:
        """Index of the rows ranked in the top k of their query (None: every row).

        Built from the CSR offsets in time proportional to the rows selected, so small cutoffs
        over long lists touch only what they keep.
        """
        if k is None or len(self.n_ret) == 0 or k >= int(self.n_ret.max()):
            return None
        key = ("topk", k)
        if key not in self._cache:
            lens = np.minimum(self.n_ret, k)
            total = int(lens.sum())
            first = np.concatenate(([0], np.cumsum(lens)))[:-1]
            self._cache[key] = np.arange(total, dtype=np.int64) + np.repeat(
                self.offsets[:-1] - first, lens
            )
        out: np.ndarray = self._cache[key]
        return out

    def depth(self, k: int | None) -> np.ndarray:
        """Number of ranks considered per query: min(k, n_ret)."""
        return self.n_ret if k is None else np.minimum(self.n_ret, k)

    # ------------------------------------------------------------------ relevance

    def num_rel(self, rel: int) -> np.ndarray:
        """Judged relevant documents per query (grade >= rel) — the R of recall and AP."""
        key = ("num_rel", rel)
        if key not in self._cache:
            sel = self.level_grades >= rel
            self._cache[key] = self.levels[:, sel].sum(axis=1).astype(np.int64)
        out: np.ndarray = self._cache[key]
        return out

    def num_nonrel(self, rel: int) -> np.ndarray:
        """Judged non-relevant documents per query (0 <= grade < rel)."""
        sel = self.level_grades < rel
        return cast(np.ndarray, self.levels[:, sel].sum(axis=1).astype(np.int64))

    def isrel(self, rel: int) -> np.ndarray:
        key = ("isrel", rel)
        if key not in self._cache:
            self._cache[key] = self.grade >= rel
        out: np.ndarray = self._cache[key]
        return out

    @cached_property
    def judged(self) -> np.ndarray:
        return self.grade >= 0

    @cached_property
    def clipped_grade(self) -> np.ndarray:
        """Grades with unjudged and negative values counted as 0 (for graded metrics)."""
        return cast(np.ndarray, np.maximum(self.grade, 0))

    def gains(self, gain: Any, grades: np.ndarray | None = None) -> np.ndarray:
        """Gain of each grade: 'linear' g, 'exp' 2^g - 1, or a mapping (negative grades gain 0).

        Documents without a judgment (NONPOOL, UNJUDGED) gain 0 even when a gain map gives
        the judged grade 0 a gain (trec_eval: levels absent from the gain table gain 0).
        """
        raw = self.grade if grades is None else grades
        g: np.ndarray = np.maximum(raw, 0)
        if gain == "linear":
            return g.astype(np.float64)
        if gain == "exp":
            if len(g) and int(g.max()) >= _EXP_GAIN_LIMIT:
                raise MetricError(
                    f"exponential gain 2^g - 1 overflows for grade {int(g.max())} (the limit is "
                    f"{_EXP_GAIN_LIMIT - 1}); use gain='linear' or a gain map"
                )
            return np.exp2(g.astype(np.float64)) - 1.0
        table = dict(gain)
        present = np.unique(g)
        missing = [int(x) for x in present if int(x) not in table and x != 0]
        if missing:
            raise MetricError(
                f"the gain map {table} has no entry for grade(s) {missing} present in the data"
            )
        lut_size = int(present.max()) + 1 if len(present) else 1
        lut = np.zeros(max(lut_size, 1), dtype=np.float64)
        for grade, value in table.items():
            if 0 <= grade < lut_size:
                lut[grade] = value
        return np.where(raw >= 0, lut[g], 0.0)

    # ------------------------------------------------------------------ ties

    def require_average_support(self, name: str, supported: bool) -> None:
        if self.ties == "average" and not supported:
            raise ConventionError(
                f"{name} has no closed form for ties='average'; use ties='docno' or ties='input'"
            )

    @cached_property
    def tie_group(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Tie groups of equal score within a query: (group id per row, group starts, sizes)."""
        n = len(self.score)
        if n == 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        new = np.ones(n, dtype=bool)
        new[1:] = (self.score[1:] != self.score[:-1]) | (self.qidx[1:] != self.qidx[:-1])
        starts = np.flatnonzero(new)
        gid = np.cumsum(new) - 1
        sizes = np.diff(np.append(starts, n))
        return gid, starts, sizes

    def tie_mean(self, x: np.ndarray) -> np.ndarray:
        """Under ties='average', replace each row's value by the mean over its tie group.

        For any metric that is a sum of per-rank terms value(doc) * w(rank), this gives the
        expected value over all orders of the tied documents (McSherry & Najork 2008).
        """
        if self.ties != "average" or len(x) == 0:
            return x
        gid, starts, sizes = self.tie_group
        sums = np.add.reduceat(x.astype(np.float64), starts)
        return cast(np.ndarray, (sums / sizes)[gid])

    # ------------------------------------------------------------------ grade levels

    @cached_property
    def row_levels(self) -> tuple[np.ndarray, np.ndarray]:
        """Distinct clipped grades present in the ranked lists, and each row's level index."""
        values, inverse = np.unique(self.clipped_grade, return_inverse=True)
        return values, inverse.reshape(-1)

    def level_cumcounts_before(self) -> list[np.ndarray]:
        """For each grade level, how many rows of that level precede each row in its query."""
        if "lvl_before" not in self._cache:
            values, inv = self.row_levels
            out = []
            for li in range(len(values)):
                flag = inv == li
                out.append(self.seg_cumcount(flag) - flag)
            self._cache["lvl_before"] = out
        result: list[np.ndarray] = self._cache["lvl_before"]
        return result

    # ------------------------------------------------------------------ ideal rankings

    def ideal_dcg(self, k: int | None, gain: Any, disc_key: Any, disc: Any) -> np.ndarray:
        """DCG of the ideal ranking of all judged documents, truncated at k."""
        # A gain map arrives as a dict (Metric.kwargs); key the cache on a hashable copy.
        gain_key = tuple(sorted(gain.items())) if isinstance(gain, Mapping) else gain
        key = ("idcg", k, gain_key, disc_key)
        if key not in self._cache:
            gains = self.gains(gain, self.ideal_grades)
            counts = np.diff(self.ideal_offsets)
            qi = np.repeat(np.arange(self.nq, dtype=np.int64), counts)
            # Sort by gain within query: a custom gain map need not be monotone in grade.
            order = np.lexsort((-gains, qi))
            gains = gains[order]
            pos = np.arange(len(gains), dtype=np.int64) - np.repeat(self.ideal_offsets[:-1], counts)
            keep = pos < k if k is not None else np.ones(len(pos), dtype=bool)
            w = gains[keep] * disc(pos[keep])
            self._cache[key] = np.bincount(qi[keep], weights=w, minlength=self.nq)
        out: np.ndarray = self._cache[key]
        return out


def seg_rev_cummax(values: np.ndarray, seg: np.ndarray) -> np.ndarray:
    """Running maximum from the end of each segment (``seg`` non-decreasing), exactly.

    Pointer doubling: O(n log L) whole-array steps for segments of length at most L
    (interpolated precision takes the maximum precision at or after each rank).

    Parameters
    ----------
    values : numpy.ndarray
        The values, segment after segment.
    seg : numpy.ndarray
        The segment of every value (non-decreasing).

    Returns
    -------
    numpy.ndarray
        ``out[i] = max(values[i:end of i's segment])``, as float64.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.data import seg_rev_cummax
    >>> seg_rev_cummax(np.array([1.0, 3.0, 2.0, 5.0, 4.0]), np.array([0, 0, 0, 1, 1]))
    array([3., 3., 2., 5., 4.])
    """
    out = values.astype(np.float64, copy=True)
    n = len(out)
    step = 1
    while step < n:
        same = seg[:-step] == seg[step:]
        if not same.any():
            break
        head = out[:-step]
        np.maximum(head, np.where(same, out[step:], head), out=head)
        step *= 2
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
