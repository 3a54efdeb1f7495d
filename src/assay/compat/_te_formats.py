"""trec_eval's other relevance formats (``-R prefs``, ``-R qrels_prefs``, ``-R qrels_jg``): the
:class:`Preferences` and :class:`JudgmentGroups` types and their readers.

As trec_eval 10.0 reads them (``get_prefs.c``, ``get_qrels_prefs.c``, ``get_qrels_jg.c``):

- ``prefs``: lines ``qid jg jsg docno rel_level``. Within a judgment sub-group (JSG) a document
  with a higher ``rel_level`` is preferred to one with a lower level; the JSGs of one judgment
  group (JG, one user's information need) together give a partial order, closed under
  transitivity. ``rel_level`` 0 means non-relevant.
- ``qrels_prefs``: ordinary qrels lines ``qid iteration docno grade`` read as preferences: the
  iteration column is the JG, every JG has one JSG, the grade is the level.
- ``qrels_jg``: qrels lines ``qid jg docno grade``: one set of ordinary (integer) judgments per
  JG; the ``*_avgjg`` measures average each topic's value over its JGs.

The files are read by assay's TREC text reader (:mod:`assay.io.text`): lines whose first
character is ``#`` are comments. Deliberate differences (errors where trec_eval guesses or
crashes): a line with a wrong number of fields, a level or grade that is not a finite number
(``atof``/``atol`` read it as 0; a grade must be an integer), and a document given twice in
one JSG (or twice in one JG of ``qrels_jg``) are :class:`~assay.errors.InputError` naming file
and line; blank lines are skipped (trec_eval rejects them), and so is every comment line
(trec_eval parses a comment line that follows another comment line as data).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import to_np
from ..errors import InputError
from ..io.text import parse_numbers, read_text_table

if TYPE_CHECKING:
    from ..data import Qrels

__all__ = ["JudgmentGroups", "Preferences", "read_prefs", "read_qrels_jg", "read_qrels_prefs"]


def _obj(values: Sequence[object]) -> np.ndarray:
    return np.array([str(v) for v in values], dtype=object)


def _check_unique(
    keys: Sequence[np.ndarray], lines: np.ndarray, source: str | None, what: str
) -> None:
    """A document given twice in one group: an error naming the second line."""
    n = len(keys[0])
    if n < 2:
        return
    joined = pc.binary_join_element_wise(*(pa.array(k.tolist(), pa.string()) for k in keys), "\t")
    codes = to_np(pc.dictionary_encode(joined).indices)
    _, first = np.unique(codes, return_index=True)
    if len(first) == n:
        return
    seen = np.zeros(n, dtype=bool)
    seen[first] = True
    i = int(np.flatnonzero(~seen)[0])
    j = int(first[np.searchsorted(np.unique(codes), codes[i])])
    doc = keys[-1][i]
    where = f" (first on line {int(lines[j])})" if lines[j] > 0 else ""
    raise InputError(
        f"document {doc!r} is given twice in {what}{where}",
        source=source,
        line=int(lines[i]) if lines[i] > 0 else None,
    )


def _read(
    path: str | os.PathLike[str], n: int, what: str, *, integer: bool
) -> tuple[str, list[np.ndarray], np.ndarray, np.ndarray]:
    """The id columns, the last (numeric) column and the line numbers of a file of ``n``
    white-space separated fields per line (assay's TREC text rules: ``#`` lines and blank
    lines skipped; a malformed line is an error naming file and line)."""
    dtype = pa.int64() if integer else pa.float64()
    tc = read_text_table(
        path, min_cols=n, max_cols=n, want=list(range(n)), what=what, numeric={n - 1: dtype}
    )
    value = parse_numbers(
        tc.columns[n - 1], dtype, tc, "relevance grade" if integer else "relevance level"
    )
    ids = [np.array(c.to_pylist(), dtype=object) for c in tc.columns[: n - 1]]
    return tc.source, ids, value, np.asarray(tc.line, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Preferences:
    """Preference judgments in trec_eval's ``prefs`` form: one row per ``qid jg jsg docno
    rel_level`` line.

    Within a topic, a judgment group (``jg``) holds one user's preferences; within a group,
    each judgment sub-group (``jsg``) orders its documents by ``level`` (higher preferred, 0
    non-relevant). Read with :func:`read_prefs` or :func:`read_qrels_prefs`, or make from
    qrels with :meth:`from_qrels`; evaluate with
    :func:`~assay.compat.trec_eval.evaluate_trec` (``-m all_prefs``).

    Parameters
    ----------
    query, jg, jsg, doc : numpy.ndarray
        The topic, judgment group, sub-group and document of every row (object arrays of
        str).
    level : numpy.ndarray
        The relevance level of every row (float64).
    lines : numpy.ndarray
        The file line of every row (0 when not from a file).
    source : str, optional
        Where the rows came from, named in messages.

    Examples
    --------
    >>> from assay.compat.trec_eval import Preferences
    >>> p = Preferences.from_rows([("q1", "u1", "s1", "d1", 2.0), ("q1", "u1", "s1", "d2", 0.0)])
    >>> p, p.queries
    (Preferences(1 topics, 2 rows), ['q1'])
    """

    query: np.ndarray
    jg: np.ndarray
    jsg: np.ndarray
    doc: np.ndarray
    level: np.ndarray
    lines: np.ndarray
    source: str | None = None

    def __post_init__(self) -> None:
        keys = [self.query, self.jg, self.jsg, self.doc]
        _check_unique(keys, self.lines, self.source, "one judgment sub-group")

    @classmethod
    def from_rows(
        cls, rows: Iterable[tuple[str, str, str, str, float]], *, source: str | None = None
    ) -> Preferences:
        """Preferences from ``(qid, jg, jsg, docno, level)`` tuples.

        Parameters
        ----------
        rows : iterable of tuple
            One ``(qid, jg, jsg, docno, level)`` per judgment.
        source : str, optional
            Named in messages.

        Returns
        -------
        Preferences
            The judgments; a document given twice in one sub-group is an
            :class:`~assay.errors.InputError`.

        Examples
        --------
        >>> from assay.compat.trec_eval import Preferences
        >>> Preferences.from_rows([("q1", "u1", "s1", "d1", 1), ("q1", "u1", "s1", "d2", 0)]).level
        array([1., 0.])
        """
        rows = list(rows)
        cols = list(zip(*rows, strict=True)) if rows else [(), (), (), (), ()]
        if not rows:
            raise InputError("no preference judgments", source=source)
        return cls(
            _obj(cols[0]),
            _obj(cols[1]),
            _obj(cols[2]),
            _obj(cols[3]),
            level=np.array([float(v) for v in cols[4]], dtype=np.float64),
            lines=np.zeros(len(rows), dtype=np.int64),
            source=source,
        )

    @classmethod
    def from_qrels(cls, qrels: Qrels) -> Preferences:
        """Ordinary qrels read as preferences, as trec_eval's ``-R qrels_prefs`` reads a qrels
        file: one judgment group per topic (assay's qrels keep no iteration column), the
        grade as the level.

        Parameters
        ----------
        qrels : Qrels
            The judgments.

        Returns
        -------
        Preferences
            One row per judgment, group and sub-group ``"0"``.

        Examples
        --------
        >>> from assay import Qrels
        >>> from assay.compat.trec_eval import Preferences
        >>> Preferences.from_qrels(Qrels.from_dict({"q1": {"d1": 1, "d2": 0}}))
        Preferences(1 topics, 2 rows)
        """
        t = qrels.to_arrow()
        n = t.num_rows
        zero = np.full(n, "0", dtype=object)
        return cls(
            np.array(t.column("query").to_pylist(), dtype=object),
            zero,
            zero,
            np.array(t.column("doc").to_pylist(), dtype=object),
            level=np.asarray(qrels.values, dtype=np.float64),
            lines=np.zeros(n, dtype=np.int64),
            source=qrels.source,
        )

    @property
    def queries(self) -> list[str]:
        """The topics, in byte order."""
        return sorted(set(self.query.tolist()))

    def __len__(self) -> int:
        return len(self.query)

    def __repr__(self) -> str:
        return f"Preferences({len(set(self.query.tolist()))} topics, {len(self)} rows)"


@dataclass(frozen=True, eq=False)
class JudgmentGroups:
    """Ordinary judgments from several judgment groups (users) per topic: trec_eval's
    ``qrels_jg`` form, one row per ``qid jg docno grade`` line.

    Read with :func:`read_qrels_jg`; evaluate with
    :func:`~assay.compat.trec_eval.evaluate_trec` (``-m qrels_jg``: ``map_avgjg``,
    ``P_avgjg``, ``Rprec_mult_avgjg``, each topic's value averaged over its groups).

    Parameters
    ----------
    query, jg, doc : numpy.ndarray
        The topic, judgment group and document of every row (object arrays of str).
    grade : numpy.ndarray
        The integer grade of every row (negative: pooled but not judged).
    lines : numpy.ndarray
        The file line of every row (0 when not from a file).
    source : str, optional
        Where the rows came from, named in messages.

    Examples
    --------
    >>> from assay.compat.trec_eval import JudgmentGroups
    >>> JudgmentGroups.from_rows([("q1", "a", "d1", 1), ("q1", "b", "d1", 0)]).groups
    {'q1': ['a', 'b']}
    """

    query: np.ndarray
    jg: np.ndarray
    doc: np.ndarray
    grade: np.ndarray
    lines: np.ndarray
    source: str | None = None

    def __post_init__(self) -> None:
        keys = [self.query, self.jg, self.doc]
        _check_unique(keys, self.lines, self.source, "one judgment group")

    @classmethod
    def from_rows(
        cls, rows: Iterable[tuple[str, str, str, int]], *, source: str | None = None
    ) -> JudgmentGroups:
        """Judgment groups from ``(qid, jg, docno, grade)`` tuples.

        Parameters
        ----------
        rows : iterable of tuple
            One ``(qid, jg, docno, grade)`` per judgment.
        source : str, optional
            Named in messages.

        Returns
        -------
        JudgmentGroups
            The judgments; a document given twice in one group is an
            :class:`~assay.errors.InputError`.

        Examples
        --------
        >>> from assay.compat.trec_eval import JudgmentGroups
        >>> JudgmentGroups.from_rows([("q1", "a", "d1", 2)]).grade
        array([2])
        """
        rows = list(rows)
        if not rows:
            raise InputError("no judgments", source=source)
        cols = list(zip(*rows, strict=True))
        return cls(
            _obj(cols[0]),
            _obj(cols[1]),
            _obj(cols[2]),
            grade=np.array([int(v) for v in cols[3]], dtype=np.int64),
            lines=np.zeros(len(rows), dtype=np.int64),
            source=source,
        )

    @property
    def groups(self) -> dict[str, list[str]]:
        """Every topic's judgment groups, topics and groups in byte order."""
        out: dict[str, set[str]] = {}
        for q, g in zip(self.query.tolist(), self.jg.tolist(), strict=True):
            out.setdefault(q, set()).add(g)
        return {q: sorted(out[q]) for q in sorted(out)}

    def __len__(self) -> int:
        return len(self.query)

    def __repr__(self) -> str:
        return f"JudgmentGroups({len(set(self.query.tolist()))} topics, {len(self)} rows)"


def read_prefs(path: str | os.PathLike[str]) -> Preferences:
    """Read a trec_eval preferences file (``-R prefs``): lines ``qid jg jsg docno rel_level``.

    Parameters
    ----------
    path : str or path-like
        The file.

    Returns
    -------
    Preferences
        Its judgments. A malformed line (not five fields, a level that is not a number) or a
        document given twice in one sub-group raises :class:`~assay.errors.InputError` naming
        the file and line.

    Examples
    --------
    >>> from assay.compat.trec_eval import read_prefs
    >>> with open("prefs.txt", "w") as f:
    ...     print("q1 user1 s1 d1 2", file=f)
    ...     print("q1 user1 s1 d2 0", file=f)
    >>> read_prefs("prefs.txt")
    Preferences(1 topics, 2 rows)
    """
    source, ids, level, lines = _read(
        path, 5, "preferences (qid jg jsg docno level)", integer=False
    )
    return Preferences(ids[0], ids[1], ids[2], ids[3], level=level, lines=lines, source=source)


def read_qrels_prefs(path: str | os.PathLike[str]) -> Preferences:
    """Read a qrels file as preferences (``-R qrels_prefs``): lines ``qid iteration docno
    grade``; the iteration column is the judgment group, the grade the level.

    Parameters
    ----------
    path : str or path-like
        The qrels file.

    Returns
    -------
    Preferences
        One row per line (sub-group ``"0"``); a malformed line raises
        :class:`~assay.errors.InputError` naming the file and line.

    Examples
    --------
    >>> from assay.compat.trec_eval import read_qrels_prefs
    >>> with open("qrels.txt", "w") as f:
    ...     print("q1 0 d1 1", file=f)
    ...     print("q1 0 d2 0", file=f)
    >>> read_qrels_prefs("qrels.txt").jg
    array(['0', '0'], dtype=object)
    """
    source, ids, level, lines = _read(path, 4, "qrels (qid iteration docno grade)", integer=False)
    zero = np.full(len(level), "0", dtype=object)
    return Preferences(ids[0], ids[1], zero, ids[2], level=level, lines=lines, source=source)


def read_qrels_jg(path: str | os.PathLike[str]) -> JudgmentGroups:
    """Read judgment-group qrels (``-R qrels_jg``): lines ``qid jg docno grade``.

    Parameters
    ----------
    path : str or path-like
        The file.

    Returns
    -------
    JudgmentGroups
        Its judgments. A malformed line (not four fields, a grade that is not an integer) or
        a document given twice in one group raises :class:`~assay.errors.InputError` naming
        the file and line.

    Examples
    --------
    >>> from assay.compat.trec_eval import read_qrels_jg
    >>> with open("qrels_jg.txt", "w") as f:
    ...     print("q1 alice d1 1", file=f)
    ...     print("q1 bob d1 0", file=f)
    >>> read_qrels_jg("qrels_jg.txt").groups
    {'q1': ['alice', 'bob']}
    """
    source, ids, grade, lines = _read(
        path, 4, "judgment-group qrels (qid jg docno grade)", integer=True
    )
    return JudgmentGroups(ids[0], ids[1], ids[2], grade=grade, lines=lines, source=source)
