"""Relevance judgments: :class:`Qrels`."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, TypeAlias

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import ArrayLike

from .._arrow import from_np, to_np
from .._options import flag, integer
from ..errors import OptionError
from ._columns import (
    Lines,
    as_grades,
    as_ids,
    check_duplicates,
    csr_offsets,
    factorize,
    has_repeated_pair,
)
from ._table import PathLike, QueryDocTable
from .subtopics import Intents, check_unique, subtopic_codes

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

    from ..io.rows import RowLines

__all__ = [
    "Qrels",
    "QrelsLike",
]


class Qrels(QueryDocTable):
    """Relevance judgments: (query, document, grade) with integer grades.

    Negative grades mean "pooled but not judged" (trec_eval). Build with :meth:`from_trec`,
    :meth:`from_dict`, :meth:`from_pandas`, :meth:`from_polars`, :meth:`from_parquet`,
    :meth:`from_csv`, :meth:`from_jsonl`, :meth:`from_arrow`, :meth:`from_ir_datasets`,
    :meth:`from_subtopics` or :meth:`read`.

    ``max_grade`` is the top of the grade scale, which ERR and pFound normalise by. It is the
    largest grade of the whole collection unless declared (:meth:`with_max_grade`), and
    :meth:`restrict` keeps it, so a query's values do not depend on which other queries are
    evaluated with it.

    The constructor's underscored arguments (id dictionaries, codes, CSR offsets) are
    internal: qrels are built by the readers above, which fill them.

    Parameters
    ----------
    source : str, optional
        Where the judgments came from (a file name, ``<dict>``), named in messages.
    max_grade : int, optional
        The declared top of the grade scale (default: the largest grade present).

    Examples
    --------
    >>> from assay import Qrels
    >>> qrels = Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}})
    >>> qrels.queries, len(qrels), qrels.max_grade
    (['q1', 'q2'], 3, 2)
    >>> list(qrels)[:2]
    [('q1', 'd1', 1), ('q1', 'd2', 0)]
    """

    __slots__ = ("_doc_rows", "_intents", "_levels", "_max_grade", "_pairs", "_rel")
    ROLES = ("query", "doc", "relevance")
    KIND = "qrels"
    EMPTY = "the qrels hold no judgments"
    # Readers' options: ``subtopics=True`` reads a subtopic column (``subtopic=`` names it:
    # by default "subtopic", else ir_measures' "iteration"; TREC files: the second field).
    OPTIONS = ("subtopics", "subtopic")

    def __init__(
        self,
        *,
        _qids: pa.Array,
        _docs: pa.Array | None,
        _q: np.ndarray,
        _d: np.ndarray | None,
        _rel: np.ndarray,
        _offsets: np.ndarray,
        source: str | None = None,
        max_grade: int | None = None,
        _doc_rows: pa.Array | None = None,
        _intents: Intents | None = None,
    ) -> None:
        super().__init__(
            _qids=_qids, _docs=_docs, _q=_q, _d=_d, _offsets=_offsets, source=source, values=(_rel,)
        )
        self._rel = _rel
        observed = int(_rel.max()) if len(_rel) else 0
        self._max_grade = observed if max_grade is None else max_grade
        self._levels: np.ndarray | None = None
        self._doc_rows = _doc_rows
        self._pairs: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._intents = _intents

    @classmethod
    def from_columns(
        cls,
        query: ArrayLike | pa.Array | pa.ChunkedArray,
        doc: ArrayLike | pa.Array | pa.ChunkedArray,
        relevance: ArrayLike | pa.Array | pa.ChunkedArray,
        *,
        source: str | None = None,
        lines: np.ndarray | None = None,
        _unique: bool = False,
    ) -> Qrels:
        """Build from three equal-length columns (sequences, NumPy or Arrow arrays).

        Parameters
        ----------
        query, doc : array_like or pyarrow.Array
            The query and document id of every judgment (strings, or integers kept as
            their decimal text).
        relevance : array_like or pyarrow.Array
            The integer grade of every judgment (negative: pooled but not judged).
        source : str, optional
            Where the columns came from, named in messages.
        lines : numpy.ndarray, optional
            The file line of every row, for messages.

        Returns
        -------
        Qrels
            The judgments; a repeated (query, document) pair is an
            :class:`~assay.errors.InputError`.

        Examples
        --------
        >>> from assay import Qrels
        >>> Qrels.from_columns(["q1", "q1", "q2"], ["d1", "d2", "d1"], [1, 0, 2])
        Qrels(2 queries, 3 judgments, max grade 2)
        """
        rel = as_grades(relevance, source, lines)
        q, qids, da = cls._encode_ids(query, doc, len(rel), source, lines)
        sorted_q, sorted_rel, sorted_docs = q, rel, da
        if len(q) > 1 and not bool((q[1:] >= q[:-1]).all()):
            order = np.argsort(q, kind="stable")
            sorted_q, sorted_rel, sorted_docs = q[order], rel[order], da.take(from_np(order))
        offsets = csr_offsets(sorted_q, len(qids))
        if not _unique and has_repeated_pair(offsets, sorted_docs):
            # The error names the first repeat in the input: found on the input order.
            d, docs = factorize(da)
            check_duplicates(q, d, len(docs), "qrels", docs, qids, source, lines)
        return cls(
            _qids=qids,
            _docs=None,
            _q=sorted_q,
            _d=None,
            _rel=sorted_rel,
            _offsets=offsets,
            source=source,
            _doc_rows=sorted_docs,
        )

    @classmethod
    def from_trec(  # type: ignore[override]  # why: one option; also a stream
        cls, path: PathLike | BinaryIO, *, subtopics: bool = False
    ) -> Qrels:
        """Read TREC qrels: ``query iteration document grade`` per line (4 fields).

        ``#`` lines and blank lines are skipped; ``.gz`` is decompressed; ``-`` is stdin.
        With ``subtopics=True`` the second field is the subtopic (ndeval's
        ``topic subtopic docno judgment``): see :meth:`from_subtopics`.

        Parameters
        ----------
        path : str, PathLike or binary file
            The qrels file.
        subtopics : bool
            Read the second field as the subtopic (intent) of the judgment.

        Returns
        -------
        Qrels
            The judgments; errors name the file and the line.

        Examples
        --------
        >>> from assay import Qrels
        >>> _ = open("example.qrels", "w").write("q1 0 d1 1\\nq1 0 d2 0\\n")
        >>> Qrels.from_trec("example.qrels").to_dict()
        {'q1': {'d1': 1, 'd2': 0}}
        """
        from ..io.trec import read_qrels, read_subtopic_qrels

        if flag(subtopics, "subtopics"):
            c, sub = read_subtopic_qrels(path)
            return cls.from_subtopics(c.query, sub, c.doc, c.value, source=c.source, lines=c.lines)
        c = read_qrels(path)
        return cls.from_columns(c.query, c.doc, c.value, source=c.source, lines=c.lines)

    @classmethod
    def from_ir_datasets(cls, dataset_id: str) -> Qrels:
        """The judgments of an ir_datasets dataset (extra ``irds``), as a TREC qrels file of
        them reads; ``irds:<id>`` in place of a path does the same (:mod:`assay.data.irds`).

        Parameters
        ----------
        dataset_id : str
            An ir_datasets id, e.g. ``msmarco-passage/dev/small`` (``irds:`` optional).

        Returns
        -------
        Qrels
            The judgments, their source ``irds:<id> (ir_datasets <version>)``.

        Examples
        --------
        >>> import ir_datasets, os
        >>> from assay import Qrels
        >>> _ = open("local.qrels", "w").write("q1 0 d1 1\\nq1 0 d2 0\\n")
        >>> local = ir_datasets.create_dataset(qrels_trec=os.path.abspath("local.qrels"))
        >>> if "assay-example/qrels" not in ir_datasets.registry:
        ...     ir_datasets.registry.register("assay-example/qrels", local)
        >>> Qrels.from_ir_datasets("assay-example/qrels").to_dict()
        {'q1': {'d1': 1, 'd2': 0}}
        """
        from .irds import read_irds_qrels

        return read_irds_qrels(dataset_id)

    @classmethod
    def from_subtopics(
        cls,
        query: ArrayLike | pa.Array | pa.ChunkedArray,
        subtopic: ArrayLike | pa.Array | pa.ChunkedArray,
        doc: ArrayLike | pa.Array | pa.ChunkedArray,
        relevance: ArrayLike | pa.Array | pa.ChunkedArray,
        *,
        source: str | None = None,
        lines: Lines = None,
    ) -> Qrels:
        """Build qrels with subtopic (intent) judgments from four equal-length columns.

        Every (query, subtopic, document) is judged once (a repeat is a
        :class:`~assay.errors.DuplicateError`). The qrels' rows are the (query, document)
        pairs, each graded with its largest grade over the subtopics (ndeval: a document
        relevant to any subtopic is relevant to the topic), which ordinary measures use;
        :attr:`intents` keeps every subtopic judgment, which the diversity measures use.

        Parameters
        ----------
        query, subtopic, doc : array_like or pyarrow.Array
            The query, subtopic and document id of every judgment.
        relevance : array_like or pyarrow.Array
            The integer grade of every judgment.
        source : str, optional
            Where the columns came from, named in messages.
        lines : numpy.ndarray, optional
            The file line of every row, for messages.

        Returns
        -------
        Qrels
            The document-level judgments with their subtopic judgments.

        Examples
        --------
        >>> from assay import Qrels
        >>> qrels = Qrels.from_subtopics(["1", "1", "1"], ["1", "2", "2"], ["d1", "d1", "d2"],
        ...                              [1, 2, 0])
        >>> qrels, qrels.to_dict(), qrels.subtopic_ids
        (Qrels(1 queries, 2 judgments, max grade 2, 3 subtopic judgments), {'1': {'d1': 2, 'd2': 0}}, ['1', '2'])
        """
        rel = as_grades(relevance, source, lines)
        q, qids, da = cls._encode_ids(query, doc, len(rel), source, lines)  # type: ignore[arg-type]  # why: as_ids takes RowLines too
        sa = as_ids(subtopic, "subtopic", source, lines)
        d, docs = factorize(da)
        s, sids = subtopic_codes(sa)
        nd = max(len(docs), 1)
        key = q.astype(np.int64) * nd + d
        check_unique(key, s, (qids.take(from_np(q)), da, sa), source, lines)
        order = np.lexsort((s, key))
        key_o = key[order]
        first = np.ones(len(key_o), dtype=bool)
        first[1:] = key_o[1:] != key_o[:-1]
        starts = np.flatnonzero(first)
        best = np.maximum.reduceat(rel[order], starts) if len(starts) else rel[:0]
        # Pairs are in (query code, document) order and query codes follow the sorted ids,
        # so the qrels keep that order: pair i is row i.
        pq, pd = key_o[starts] // nd, key_o[starts] % nd
        offsets = np.zeros(len(starts) + 1, dtype=np.int64)
        offsets[1:] = np.append(starts[1:], len(key_o))
        out = cls.from_columns(
            qids.take(from_np(pq)),
            docs.take(from_np(pd)),
            best.astype(np.int32),
            source=source,
            _unique=True,
        )
        out._intents = Intents(offsets, s[order], rel[order], sids)
        return out

    @classmethod
    def _from_table(
        cls,
        table: pa.Table,
        source: str | None,
        lines: RowLines | None,
        options: Mapping[str, Any],
        where: str,
    ) -> Qrels:
        """From a table (:meth:`from_arrow`, :meth:`from_pandas`, :meth:`read`, ...); with
        ``subtopics=True`` its subtopic column too (``subtopic=`` names it; by default
        ``subtopic``, else ir_measures' ``iteration``)."""
        from ..io.tabular import pick_columns

        rest = dict(options)
        subtopics = flag(rest.pop("subtopics", False), "subtopics")
        column = rest.pop("subtopic", None)
        if not subtopics:
            if column is not None:
                raise OptionError(
                    "subtopic= names a column read with subtopics=True", option="subtopic"
                )
            return super()._from_table(table, source, lines, rest, where)
        columns, _ = cls._split_options(rest, where)
        names = table.column_names
        columns["subtopic"] = column or ("subtopic" if "subtopic" in names else "iteration")
        cols = pick_columns(table, columns, source)
        return cls.from_subtopics(
            cols["query"],
            cols["subtopic"],
            cols["doc"],
            cols["relevance"],
            source=source,
            lines=lines,
        )

    @classmethod
    def from_dict(cls, data: Mapping[Any, Mapping[Any, Any]], **options: Any) -> Qrels:
        """From ``{query: {doc: grade}}`` (pytrec_eval, ranx, BEIR), or with
        ``subtopics=True`` from ``{query: {subtopic: {doc: grade}}}``.

        Parameters
        ----------
        data : mapping
            The grades.
        **options
            ``subtopics=True`` for the nested subtopic form.

        Returns
        -------
        Qrels
            The judgments, ids as strings.

        Examples
        --------
        >>> from assay import Qrels
        >>> Qrels.from_dict({"1": {"1": {"a": 1}, "2": {"a": 0, "b": 2}}}, subtopics=True)
        Qrels(1 queries, 2 judgments, max grade 2, 3 subtopic judgments)
        """
        rest = dict(options)
        if not flag(rest.pop("subtopics", False), "subtopics"):
            return super().from_dict(data, **rest)
        cls._split_options(rest, "from_dict")
        rows = [
            (str(q), str(s), str(d), g)
            for q, by_sub in data.items()
            for s, by_doc in by_sub.items()
            for d, g in by_doc.items()
        ]
        if not rows:
            return super().from_dict({}, **rest)
        q, s, d, g = (list(col) for col in zip(*rows, strict=True))
        return cls.from_subtopics(q, s, d, g, source="<dict>")

    def restrict(self, queries: Sequence[str] | pa.Array) -> Qrels:
        """The judgments of the given queries only (ids not in the qrels are ignored). The
        grade scale (:attr:`max_grade`) stays that of the whole collection. The document
        dictionary keeps only the documents judged for those queries, so that joining a block
        of a run costs in proportion to the block, not to the whole qrels.

        Parameters
        ----------
        queries : sequence of str or pyarrow.Array
            The query ids kept.

        Returns
        -------
        Qrels
            The judgments of those queries.

        Examples
        --------
        >>> from assay.data import Qrels
        >>> qrels = Qrels.from_dict({"q1": {"d1": 1}, "q2": {"d3": 2}})
        >>> qrels.restrict(["q1"]).queries, qrels.restrict(["q1"]).max_grade
        (['q1'], 2)
        """
        wanted = (
            queries
            if isinstance(queries, pa.Array)
            else pa.array([str(q) for q in queries], pa.string())
        )
        codes = to_np(pc.index_in(wanted, value_set=self._qids), fill=-1)
        keep_q = np.zeros(self.n_queries, dtype=bool)
        keep_q[codes[codes >= 0]] = True
        remap = np.cumsum(keep_q) - 1
        rows = keep_q[self._q]
        q = remap[self._q[rows]].astype(np.int32)
        used, d = np.unique(self.doc_codes[rows], return_inverse=True)
        return self._evolve(
            _qids=self._qids.filter(from_np(keep_q)),
            _q=q,
            _docs=self.doc_ids.take(from_np(used)),
            _d=d.astype(self.doc_codes.dtype),
            _doc_rows=None,
            _rel=self._rel[rows],
            _offsets=csr_offsets(q, int(keep_q.sum())),
            _intents=None
            if self._intents is None
            else self._intents.take_rows(np.flatnonzero(rows)),
        )

    def with_max_grade(self, max_grade: int) -> Qrels:
        """The same judgments on a declared grade scale 0..``max_grade`` (at least the largest
        grade present), e.g. 4 for MSLR-WEB10K whatever grades a subset holds.

        Parameters
        ----------
        max_grade : int
            The top of the scale (at least the largest grade present).

        Returns
        -------
        Qrels
            The same judgments on that scale (ERR and pFound use it).

        Examples
        --------
        >>> from assay.data import Qrels
        >>> Qrels.from_dict({"q1": {"d1": 1}}).with_max_grade(4).max_grade
        4
        """
        observed = int(self._rel.max()) if len(self._rel) else 0
        scale = integer(max_grade, "max_grade", minimum=max(observed, 0))
        return self._evolve(max_grade=scale)

    def _state(self) -> dict[str, Any]:
        return {
            **super()._state(),
            "_rel": self._rel,
            "max_grade": self._max_grade,
            "_doc_rows": self._doc_rows,
            "_intents": self._intents,
        }

    def _encode_docs(self) -> tuple[pa.Array, np.ndarray]:
        """Built from columns, the qrels keep each row's document id and make the dictionary
        of distinct documents (hashing every id) only when something asks for it: a streamed
        run's blocks never do (:meth:`docs_of`). Once made, it replaces the per-row ids."""
        rows = self._doc_rows
        if rows is None:  # pragma: no cover - every constructor gives one or the other
            raise TypeError("qrels without documents")
        d, docs = factorize(rows)
        d.setflags(write=False)
        self._docs, self._d = docs, d
        self._doc_rows = None
        return docs, d

    def docs_of(self, rows: np.ndarray) -> pa.Array:
        """The document ids of the given rows (indices into :attr:`grades`), without making
        the dictionary of distinct documents if it is not made yet."""
        per_row = self._doc_rows
        if per_row is not None:
            return per_row.take(from_np(rows))
        return self.doc_ids.take(from_np(self.doc_codes[rows]))

    def judgment_keys(self) -> tuple[np.ndarray, np.ndarray]:
        """``query_code * len(doc_ids) + doc_code`` of every judgment, sorted, with the grades
        in that order: what a join searches (computed once)."""
        if self._pairs is None:
            n_docs = max(len(self.doc_ids), 1)
            keys = self._q.astype(np.int64) * n_docs + self.doc_codes
            order = np.argsort(keys, kind="stable")
            self._pairs = (keys[order], self._rel[order], order)
        return self._pairs[0], self._pairs[1]

    def judgment_rows(self) -> np.ndarray:
        """The row of every judgment in the order of :meth:`judgment_keys`."""
        self.judgment_keys()
        if self._pairs is None:  # pragma: no cover - judgment_keys fills it
            raise TypeError("no judgment keys")
        return self._pairs[2]

    @property
    def intents(self) -> Intents | None:
        """The subtopic judgments of every row (None: the qrels have no subtopics)."""
        return self._intents

    @property
    def subtopic_ids(self) -> list[str]:
        """The subtopic ids in their order (empty: the qrels have no subtopics)."""
        return [] if self._intents is None else self._intents.ids.to_pylist()

    # -------------------------------------------------------------- views and writers

    @property
    def values(self) -> np.ndarray:
        return self._rel

    @property
    def grades(self) -> np.ndarray:
        """The grade of every row (int32; negative: pooled but not judged)."""
        return self._rel

    @property
    def grade_levels(self) -> np.ndarray:
        """The distinct judged grades (>= 0), ascending: the grade levels of the collection
        (computed once; a block of a streamed run needs them again and again)."""
        if self._levels is None:
            # sorted, then the first of each run of equal grades (np.unique would import
            # numpy.ma, 9 ms of a small evaluation's start-up)
            judged = np.sort(self._rel[self._rel >= 0])
            first = np.ones(len(judged), dtype=bool)
            first[1:] = judged[1:] != judged[:-1]
            levels = judged[first]
            levels.setflags(write=False)
            self._levels = levels
        return self._levels

    @property
    def max_grade(self) -> int:
        """Top of the grade scale: declared, or the largest grade of the whole collection."""
        return self._max_grade

    def to_trec(self, path: PathLike | BinaryIO) -> None:
        """Write ``query 0 doc grade`` lines (``.gz`` compresses; ``-`` is stdout).

        Parameters
        ----------
        path : str, PathLike or binary file
            The file.

        Examples
        --------
        >>> from assay import Qrels
        >>> Qrels.from_dict({"q1": {"d1": 1, "d2": 0}}).to_trec("example.qrels")
        >>> print(open("example.qrels").read(), end="")
        q1 0 d1 1
        q1 0 d2 0
        """
        from ..io.trec import write_qrels

        query, doc = self._id_columns()
        write_qrels(path, query, doc, self._rel, distinct=(self._qids, self.doc_ids))

    def __iter__(self) -> Iterator[tuple[str, str, int]]:
        t = self.to_arrow()
        columns = (t["query"].to_pylist(), t["doc"].to_pylist(), t["relevance"].to_pylist())
        return iter(zip(*columns, strict=True))

    def __repr__(self) -> str:
        more = "" if self._intents is None else f", {len(self._intents.sub)} subtopic judgments"
        return (
            f"Qrels({self.n_queries} queries, {len(self)} judgments, max grade {self.max_grade}"
            f"{more})"
        )


# What qrels may be given as wherever a function reads them (:meth:`Qrels.coerce`): a
# :class:`Qrels`, a file path (any format :meth:`Qrels.read` reads), a pandas or polars DataFrame
# (or LazyFrame) or a pyarrow Table (columns ``query``, ``doc``, ``relevance``), or a
# ``{query: {doc: grade}}`` dict (pytrec_eval, ranx, BEIR). At run time (for
# ``typing.get_type_hints``) the data frame types are left out: neither pandas nor polars
# is imported.
if TYPE_CHECKING:
    QrelsLike: TypeAlias = (
        Qrels
        | str
        | os.PathLike[str]
        | pd.DataFrame
        | pl.DataFrame
        | pl.LazyFrame
        | pa.Table
        | Mapping[str, Mapping[str, int]]
    )
else:
    QrelsLike = Qrels | str | os.PathLike[str] | pa.Table | Mapping[str, Mapping[str, int]]
