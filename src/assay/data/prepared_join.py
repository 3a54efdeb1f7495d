"""The qrels–run join of a fixed set of (query, document) pairs, done once: a ranker's
validation set scored again every epoch needs only the order of its new scores within each
query (:class:`PreparedJoin`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._options import depth as check_depth
from ..errors import ConventionError, InputError
from ._columns import as_scores
from .conventions import Conventions
from .join import RankInfo, _cut, _evaluated, _join, _qrels_side, _ranked, _Rows
from .qrels import Qrels
from .ranked import Ranked
from .run import Run

__all__ = ["PreparedJoin", "SegmentSorter"]


class SegmentSorter:
    """Sorts the rows of every segment by value, descending and stably, segment after
    segment (:meth:`order`), for segments fixed in advance.

    Segments of similar length are padded into one matrix and sorted row by row (NumPy's
    sort along an axis): a query's rows are sorted among themselves, never among all rows,
    which at a thousand rows per query is several times faster than a two-key sort of every
    row. Lengths are grouped by powers of two, so the padding at most doubles the work.

    Parameters
    ----------
    segments : numpy.ndarray
        The segment code of every row, non-decreasing.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.data.prepared_join import SegmentSorter
    >>> SegmentSorter(np.array([0, 0, 0, 1, 1])).order(np.array([0.1, 0.5, 0.5, 0.9, 0.2]))
    array([1, 2, 0, 3, 4])
    """

    def __init__(self, segments: np.ndarray) -> None:
        n = len(segments)
        self.n = n
        self._starts = np.concatenate([[True], segments[1:] != segments[:-1]])
        starts = np.flatnonzero(self._starts)
        sizes = np.diff(np.append(starts, n)) if n else np.zeros(0, dtype=np.int64)
        group = np.ceil(np.log2(np.maximum(sizes, 1))).astype(np.int64)
        self._buckets: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._dense: tuple[int, int] | None = None
        if n and (sizes == sizes[0]).all():  # one matrix of equal rows: a reshape, no copy
            self._dense = (len(sizes), int(sizes[0]))
            return
        for g in np.unique(group):
            chosen = np.flatnonzero(group == g)
            width = int(sizes[chosen].max())
            col = np.arange(width)
            valid = col[None, :] < sizes[chosen][:, None]
            # Padding points at row n, whose key (+inf) sorts after every finite score.
            index = np.where(valid, starts[chosen][:, None] + col[None, :], n)
            dest = index[valid]  # where the bucket's rows go: their own segments' places
            self._buckets.append((index, valid, dest))

    def order(self, values: np.ndarray) -> np.ndarray:
        """Row indices: segment by segment, each by value descending, ties in row order.

        Parameters
        ----------
        values : numpy.ndarray
            One finite float per row.

        Returns
        -------
        numpy.ndarray
            The permutation (int64).
        """
        return self.sort(values)[0]

    def sort(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`order`, and ``values`` in that order."""
        key = np.empty(self.n + 1, dtype=np.float64)
        np.negative(values, out=key[: self.n])
        key[self.n] = np.inf
        # NumPy's default sort is a vectorised quicksort, twice as fast as its stable one;
        # equal values are put back in row order afterwards, which is rarely needed.
        if self._dense is not None:
            by_key = np.argsort(key[: self.n].reshape(self._dense), axis=1)
            by_key += (np.arange(self._dense[0]) * self._dense[1])[:, None]
            out = by_key.reshape(-1)
        else:
            out = np.empty(self.n, dtype=np.int64)
            for index, valid, dest in self._buckets:
                by_key = np.argsort(key[index], axis=1)
                ranked = np.take_along_axis(index, by_key, axis=1)
                out[dest] = ranked.ravel() if valid.all() else ranked[valid]
        in_order = values[out]
        self._ties_in_row_order(out, in_order)
        return out, in_order

    def _ties_in_row_order(self, order: np.ndarray, in_order: np.ndarray) -> None:
        """Within every run of equal values of a segment, put ``order``'s row indices in
        ascending order (in place): what a stable sort would have given."""
        tied = in_order[1:] == in_order[:-1]  # row i ties with row i + 1
        tied &= ~self._starts[1:]
        if not tied.any():
            return
        pairs = np.flatnonzero(tied)
        in_tie = np.zeros(len(order), dtype=bool)
        in_tie[pairs] = True
        in_tie[pairs + 1] = True
        members = np.flatnonzero(in_tie)
        run_of = np.cumsum(np.concatenate([[True], ~tied]))[members]
        rows = order[members]
        order[members] = rows[np.lexsort((rows, run_of))]


class PreparedJoin:
    """The join of fixed candidate pairs with the qrels, ready for new scores.

    Everything that does not depend on the scores is done here once: the ids are encoded and
    checked (a repeated pair is an error, as in :meth:`Run.from_columns`), every pair gets
    its grade, the pairs of queries the qrels do not have are counted, and the rows are put
    in tie-break order within each query (docno descending for ``ties="docno"`` and
    ``"average"``, input order for ``"input"``). :meth:`rank` then sorts each query's rows by
    score -- a stable sort, so ties fall in that order -- and builds the ranked lists exactly
    as :func:`rank` builds them from the equivalent :class:`Run`.

    Parameters
    ----------
    qrels : Qrels
        The judgments; their queries are the ones evaluated.
    pairs : Run
        The candidate pairs (their scores are not used).
    conventions : Conventions
        The conventions (``missing="error"`` raises here when a qrels query has no pair).
    depth : int, optional
        The documents kept per query (trec_eval's ``-M``).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.data import Conventions, Qrels, Run
    >>> from assay.data.prepared_join import PreparedJoin
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1, "d2": 0}})
    >>> pairs = Run.from_columns(["q1", "q1", "q1"], ["d1", "d2", "d3"], [0, 0, 0])
    >>> ranked, info = PreparedJoin(qrels, pairs, Conventions()).rank(np.array([0.2, 0.9, 0.5]))
    >>> ranked.grade
    array([ 0, -1,  1], dtype=int32)
    """

    def __init__(
        self, qrels: Qrels, pairs: Run, conventions: Conventions, depth: int | None = None
    ) -> None:
        self.qrels = qrels
        self.conventions = conventions
        self.depth = check_depth(depth, error=ConventionError)
        self.n_pairs = len(pairs)
        self.source = pairs.source
        self._pairs = pairs  # rescored into a Run by :meth:`run`

        # The pairs' stored order when their scores are all equal is the tie-break order
        # within each query: (query, docno descending), or input order for ties="input".
        rows, unknown_queries, unknown_rows, picked = _join(qrels, pairs, conventions)
        pos = pairs.input_positions if picked is None else pairs.input_positions[picked]
        self._input_row = pos.astype(np.int64, copy=False)
        self._query, self._grade, self._qrow = rows.query, rows.grade, rows.qrow
        self._sorter = SegmentSorter(rows.query)

        present, missing_queries, self.eval_q = _evaluated(
            qrels, pairs.name, rows.query, conventions
        )
        self._side = _qrels_side(qrels, self.eval_q)
        self._previous: Ranked | None = None  # the last lists ranked (their layout is reused)
        self.info = RankInfo(unknown_queries, unknown_rows, missing_queries, ~present[self.eval_q])

    @property
    def query_ids(self) -> np.ndarray:
        """The evaluated queries' ids, in the ranked lists' order."""
        return self._side.query_ids

    def scores(self, scores: object) -> np.ndarray:
        """``scores`` as one finite float64 per pair, in the pairs' input order (checked)."""
        if not isinstance(scores, np.ndarray) and hasattr(scores, "detach"):
            scores = scores.detach().cpu().numpy()  # a PyTorch tensor, with or without grad
        arr = scores if isinstance(scores, np.ndarray) else np.asarray(scores)
        if arr.ndim != 1:
            arr = arr.reshape(-1)
        if len(arr) != self.n_pairs:
            raise InputError(f"{len(arr)} scores for {self.n_pairs} (query, document) pairs")
        if arr.dtype.kind == "f" and bool(np.isfinite(arr).all()):
            return arr.astype(np.float64, copy=False)
        return as_scores(arr, self.source, None)  # its message names the bad row

    def rank(self, scores: object) -> tuple[Ranked, RankInfo]:
        """The ranked lists of the pairs under new scores.

        Parameters
        ----------
        scores : array_like
            One finite score per pair, in the pairs' input order.

        Returns
        -------
        (Ranked, RankInfo)
            What :func:`~assay.data.rank` returns for the same pairs with these scores.
        """
        order, in_order = self._sorter.sort(self.scores(scores)[self._input_row])
        qrow = None if self._qrow is None else self._qrow[order]
        rows = _Rows(self._query, self._grade[order], in_order, qrow)
        rows, dropped = _cut(rows, self.depth, self.conventions.judged_only)
        # Without a cut every call's lists have the same lengths: the last call's offsets.
        uncut = self.depth is None and not self.conventions.judged_only
        offsets = self._previous.offsets if uncut and self._previous is not None else None
        ranked = _ranked(self.qrels, rows, self.eval_q, self.conventions, self._side, offsets)
        if self._previous is not None:
            ranked.adopt_layout(self._previous)
        self._previous = ranked
        info = self.info if not dropped else replace(self.info, dropped_unjudged=dropped)
        return ranked, info

    def run(self, scores: object, name: str) -> Run:
        """The pairs with these scores as a :class:`Run` (what :func:`assay.evaluate` would
        have been given): the same rows, in trec_eval order."""
        return self._pairs.rescored(self.scores(scores), name)
