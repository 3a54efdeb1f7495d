"""Subtopic (intent) judgments: qrels whose second column names a subtopic, as ndeval reads
them (``topic subtopic docno judgment``; ir_measures keeps the subtopic in its ``iteration``
column).

A :class:`~assay.data.Qrels` read with ``subtopics=True`` holds one row per (query, document)
whose grade is the largest grade the document has for any subtopic (ndeval: a document
relevant to any subtopic is relevant to the topic), and, in :class:`Intents`, every subtopic
judgment of that row. :class:`RankedIntents` carries them to the ranked lists, where the
diversity measures read them.

Subtopics are ordered numerically when every subtopic id is a natural number (ndeval's
numbering), else in byte order; measures add per-subtopic terms in that order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from ..errors import DuplicateError, shown
from ._columns import Lines, factorize, line_of

__all__ = [
    "Intents",
    "RankedIntents",
    "subtopic_codes",
]


@dataclass(frozen=True)
class Intents:
    """The subtopic judgments of every qrels row, in CSR form over the rows.

    Parameters
    ----------
    offsets : numpy.ndarray
        Row ``i``'s judgments are ``offsets[i]:offsets[i + 1]``.
    sub : numpy.ndarray
        The subtopic code of every judgment (ascending within a row).
    grade : numpy.ndarray
        The grade of every judgment.
    ids : pyarrow.Array
        The subtopic ids, by code.

    Examples
    --------
    >>> import numpy as np, pyarrow as pa
    >>> from assay.data import Intents
    >>> intents = Intents(np.array([0, 2, 3]), np.array([0, 1, 1]), np.array([1, 0, 2]),
    ...                   pa.array(["1", "2"]))
    >>> intents.take_rows(np.array([1])).grade
    array([2])
    """

    offsets: np.ndarray
    sub: np.ndarray
    grade: np.ndarray
    ids: pa.Array

    def take_rows(self, rows: np.ndarray) -> Intents:
        """The judgments of the given qrels rows (an index array), in that order.

        Parameters
        ----------
        rows : numpy.ndarray
            Qrels row indices.

        Returns
        -------
        Intents
            Their judgments, CSR over the given rows.

        Examples
        --------
        >>> import numpy as np, pyarrow as pa
        >>> from assay.data import Intents
        >>> i = Intents(np.array([0, 1, 2]), np.array([0, 0]), np.array([1, 3]), pa.array(["a"]))
        >>> i.take_rows(np.array([1, 0])).grade
        array([3, 1])
        """
        pick, offsets = expand(self.offsets, rows)
        return Intents(offsets, self.sub[pick], self.grade[pick], self.ids)


@dataclass(frozen=True)
class RankedIntents:
    """The subtopic judgments behind ranked lists: each ranked row's qrels row, and each
    evaluated query's judged qrels rows (for the ideal ranking).

    Parameters
    ----------
    qrow : numpy.ndarray
        The qrels row of every ranked row (-1: not in the qrels).
    table : Intents
        The qrels' subtopic judgments.
    judged_offsets, judged_rows : numpy.ndarray
        Query ``q``'s qrels rows are ``judged_rows[judged_offsets[q]:judged_offsets[q + 1]]``.
    judged_docs : pyarrow.Array
        The document id of every entry of ``judged_rows`` (ndeval breaks ties of its greedy
        ideal ranking by document id).

    Examples
    --------
    >>> from assay.data import Conventions, Qrels, Run, rank
    >>> import io
    >>> qrels = Qrels.from_trec(io.BytesIO(b"1 1 d1 1\\n1 2 d1 0\\n1 2 d2 1\\n"), subtopics=True)
    >>> ranked, _ = rank(qrels, Run.from_dict({"1": {"d2": 2.0, "d9": 1.0}}), Conventions())
    >>> ranked.intents.qrow
    array([ 1, -1])
    """

    qrow: np.ndarray
    table: Intents
    judged_offsets: np.ndarray
    judged_rows: np.ndarray
    judged_docs: pa.Array

    def with_qrow(self, qrow: np.ndarray) -> RankedIntents:
        """The same judgments behind other ranked rows (their qrels rows ``qrow``)."""
        return RankedIntents(
            qrow, self.table, self.judged_offsets, self.judged_rows, self.judged_docs
        )


def expand(offsets: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries of CSR ``offsets`` of the given rows, in row order, and their new offsets."""
    lo = offsets[rows]
    sizes = offsets[rows + 1] - lo
    out = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(sizes, out=out[1:])
    pick = np.arange(out[-1], dtype=np.int64) + np.repeat(lo - out[:-1], sizes)
    return pick, out


def subtopic_codes(subtopic: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Codes of the subtopic ids in their order: numeric when all are natural numbers
    (ndeval), else byte order.

    Parameters
    ----------
    subtopic : pyarrow.Array
        The subtopic id of every judgment (strings).

    Returns
    -------
    (numpy.ndarray, pyarrow.Array)
        The code of every judgment and the ids by code.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from assay.data import subtopic_codes
    >>> codes, ids = subtopic_codes(pa.array(["10", "2", "10"]))
    >>> codes, ids.to_pylist()
    (array([1, 0, 1]), ['2', '10'])
    """
    s, ids = factorize(subtopic)
    text = ids.to_pylist()
    if all(t.isascii() and t.isdigit() for t in text):
        order = np.array(sorted(range(len(text)), key=lambda i: (int(text[i]), text[i])))
    else:
        order = to_np(pc.sort_indices(ids))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    return rank[s], ids.take(from_np(order))


def check_unique(
    key: np.ndarray,
    sub: np.ndarray,
    names: tuple[pa.Array, pa.Array, pa.Array],
    source: str | None,
    lines: Lines,
) -> None:
    """A (query, document) pair judged twice for one subtopic is a
    :class:`~assay.errors.DuplicateError` naming both lines. ``key`` codes (query, document);
    ``names`` holds the query, document and subtopic id of every row."""
    order = np.lexsort((np.arange(len(key)), sub, key))
    same = (key[order][1:] == key[order][:-1]) & (sub[order][1:] == sub[order][:-1])
    if not same.any():
        return
    at = int(np.flatnonzero(same)[0])
    first, again = int(order[at]), int(order[at + 1])
    if again < first:
        first, again = again, first
    query, doc, subtopic = (str(n[again].as_py()) for n in names)
    where = line_of(lines, first)
    before = f" (first at line {where})" if where is not None else f" (first at row {first + 1})"
    raise DuplicateError(
        f"query {shown(query)}, subtopic {shown(subtopic)}, document {shown(doc)} is judged "
        f"twice{before}",
        source=source,
        line=line_of(lines, again),
    )
