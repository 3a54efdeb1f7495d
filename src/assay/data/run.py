"""System output: :class:`Run`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, TypeAlias, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import ArrayLike

from .._arrow import from_np, to_np
from .._parallel import ordered_map
from ._columns import (
    GROUP_ROWS,
    as_scores,
    check_duplicates,
    csr_offsets,
    factorize,
    group_workers,
    has_repeated_pair,
    query_groups,
)
from ._table import PathLike, QueryDocTable

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

    from ..io.tabular import TableFile

__all__ = [
    "Run",
    "RunLike",
    "default_name",
    "trec_order",
]


def trec_order(q: np.ndarray, score: np.ndarray, docs: pa.Array) -> np.ndarray | None:
    """Permutation into trec_eval's order (query, score descending, docno descending), or
    None when the rows are in that order already.

    Rows are sorted by (query, score) with Arrow's stable sort (a group of whole queries at a
    time when each query's rows are together); docno strings are compared only within runs
    of tied scores, and only those rows are sorted by them (ties are few in real runs, and a
    string sort of every row costs several times the numeric one).

    Parameters
    ----------
    q : numpy.ndarray
        The query code of every row (codes in byte order of the query ids).
    score : numpy.ndarray
        The score of every row.
    docs : pyarrow.Array
        The document id of every row.

    Returns
    -------
    numpy.ndarray or None
        Row indices in trec_eval's order; None when the rows are in it already.

    Examples
    --------
    >>> import numpy as np, pyarrow as pa
    >>> from assay.data import trec_order
    >>> trec_order(np.array([0, 0, 1]), np.array([1.0, 2.0, 3.0]), pa.array(["a", "b", "c"]))
    array([1, 0, 2])
    >>> trec_order(np.array([0, 0]), np.array([1.0, 1.0]), pa.array(["b", "a"])) is None
    True
    """
    perm = None
    same_q = q[1:] == q[:-1]
    descending = bool(((score[1:] <= score[:-1]) | ~same_q).all())
    if not (descending and bool((q[1:] >= q[:-1]).all())):
        perm = _whole_queries_order(q, same_q)
        if perm is None or not descending:
            perm = _query_score_order(q, score, perm)
        q, score = q[perm], score[perm]
        same_q = q[1:] == q[:-1]
    tied = same_q & (score[1:] == score[:-1])  # row i ties with row i + 1
    pairs = np.flatnonzero(tied)
    if len(pairs) == 0:
        return perm
    source = np.arange(len(q)) if perm is None else perm  # input row of each sorted row
    first = docs.take(from_np(source[pairs]))
    second = docs.take(from_np(source[pairs + 1]))
    if pc.all(pc.greater(first, second)).as_py():
        return perm
    in_tie = np.zeros(len(q), dtype=bool)
    in_tie[pairs] = True
    in_tie[pairs + 1] = True
    rows = np.flatnonzero(in_tie)
    run_of = np.cumsum(np.concatenate([[True], ~tied]))[rows]
    keys = pa.table({"run": from_np(run_of), "doc": docs.take(from_np(source[rows]))})
    by_doc = to_np(pc.sort_indices(keys, sort_keys=[("run", "ascending"), ("doc", "descending")]))
    out = source.copy()
    out[rows] = source[rows][by_doc]
    return out


#: Rows from which a sort into (query, score) order is split into groups of whole queries.
SPLIT_ROWS = 2 * GROUP_ROWS


def _sort_query_score(q: np.ndarray, score: np.ndarray) -> np.ndarray:
    # Arrow's sort is stable and sorts the two keys 3.5x faster than ``np.lexsort`` (1M
    # rows: 64 ms against 224 ms); -0.0 and 0.0 compare equal in both.
    keys = pa.table({"q": from_np(q), "s": from_np(score)})
    return to_np(pc.sort_indices(keys, sort_keys=[("q", "ascending"), ("s", "descending")]))


def _query_score_order(q: np.ndarray, score: np.ndarray, moved: np.ndarray | None) -> np.ndarray:
    """The stable sort by (query, score descending). When each query's rows are together
    (``moved``: the stable sort by query that moves them whole), the rows of about
    :data:`GROUP_ROWS` rows of whole queries are sorted at a time, on a few threads (smaller
    sorts, in cache, and Arrow's sort releases the GIL); otherwise all rows in one sort."""
    if moved is None or len(q) < SPLIT_ROWS:
        return _sort_query_score(q, score).astype(np.int64)
    qm, sm = q[moved], score[moved]
    offsets = np.concatenate([[0], np.flatnonzero(qm[1:] != qm[:-1]) + 1, [len(qm)]])

    def part(group: tuple[int, int]) -> np.ndarray:
        r0, r1 = int(offsets[group[0]]), int(offsets[group[1]])
        return _sort_query_score(qm[r0:r1], sm[r0:r1]).astype(np.int64) + r0

    groups = query_groups(offsets, GROUP_ROWS)
    local = np.concatenate(list(ordered_map(part, groups, workers=group_workers(len(groups)))))
    return cast(np.ndarray, moved[local])


def _whole_queries_order(q: np.ndarray, same_q: np.ndarray) -> np.ndarray | None:
    """The stable sort by query of rows whose queries each come in one run (a file's usual
    layout, its queries in another order than byte order), by moving whole runs; None when
    some query's rows are apart. Linear, where ``lexsort`` of 100k rows costs 10 ms."""
    starts = np.concatenate([[0], np.flatnonzero(~same_q) + 1])
    codes = q[starts]
    by_code = np.argsort(codes, kind="stable")
    if bool((codes[by_code][1:] == codes[by_code][:-1]).any()):
        return None
    sizes = np.diff(np.append(starts, len(q)))[by_code]
    moved_to = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    shift = np.repeat(starts[by_code] - moved_to, sizes)
    return cast(np.ndarray, np.arange(len(q), dtype=np.int64) + shift)


_INT32_MAX = int(np.iinfo(np.int32).max)


def default_name(source: str) -> str:
    """A run's name from its file: the base name without ``.gz``.

    Parameters
    ----------
    source : str
        The file's path.

    Returns
    -------
    str
        The base name without ``.gz`` (``run`` when that is empty).

    Examples
    --------
    >>> from assay.data import default_name
    >>> default_name("runs/bm25.run.gz")
    'bm25.run'
    """
    base = os.path.basename(str(source))
    if base.endswith(".gz"):
        base = base[:-3]
    return base or "run"


class Run(QueryDocTable):
    """Scored documents per query from one system, with a name.

    Rows are stored in trec_eval's canonical order: query (byte order), score descending,
    docno descending (byte order). The input position of every row is kept so that
    ``ties="input"`` can rank tied documents in input order. Readers take ``name`` (default:
    the file name) besides the column options. Build with :meth:`read`, :meth:`from_trec`,
    :meth:`from_dict`, :meth:`from_pandas`, :meth:`from_polars`, :meth:`from_parquet`,
    :meth:`from_csv`, :meth:`from_jsonl` or :meth:`from_arrow`.

    The constructor's underscored arguments (id dictionaries, codes, scores, CSR offsets) are
    internal: runs are built by the readers, which fill them.

    Parameters
    ----------
    name : str
        The run's name (results and reports use it).
    tag : str, optional
        The TREC tag read from the file (:meth:`to_trec` writes it; default: ``name``).
    source : str, optional
        Where the run came from (a file name, ``<dict>``), named in messages.

    Examples
    --------
    >>> from assay import Run
    >>> run = Run.from_dict({"q1": {"d1": 0.5, "d2": 0.9}, "q2": {"d1": 1.0}}, name="bm25")
    >>> run
    Run('bm25': 2 queries, 3 results)
    >>> run.ranks(), run.to_dict()["q1"]
    (array([1, 2, 1]), {'d2': 0.9, 'd1': 0.5})
    """

    __slots__ = ("_cache", "_input_pos", "_per_row", "_score", "name", "tag")
    ROLES = ("query", "doc", "score")
    KIND = "run"
    OPTIONS = ("name",)
    EMPTY = "the run holds no results"

    def __init__(
        self,
        *,
        _qids: pa.Array,
        _docs: pa.Array,
        _q: np.ndarray,
        _d: np.ndarray,
        _score: np.ndarray,
        _input_pos: np.ndarray,
        _offsets: np.ndarray,
        name: str,
        tag: str | None = None,
        source: str | None = None,
        _per_row: bool = False,
    ) -> None:
        super().__init__(
            _qids=_qids,
            _docs=_docs,
            _q=_q,
            _d=_d,
            _offsets=_offsets,
            source=source,
            values=(_score, _input_pos),
        )
        self._score = _score
        self._input_pos = _input_pos
        self.name = name
        self.tag = tag
        self._cache: dict[str, np.ndarray] = {}
        # True while ``_docs`` holds every row's id (input order) and ``_d`` indexes those
        # rows: the distinct dictionary (hashing every id) is made on first use only.
        self._per_row = _per_row

    @classmethod
    def from_columns(
        cls,
        query: ArrayLike | pa.Array | pa.ChunkedArray,
        doc: ArrayLike | pa.Array | pa.ChunkedArray,
        score: ArrayLike | pa.Array | pa.ChunkedArray,
        *,
        name: str | None = "run",
        tag: str | None = None,
        source: str | None = None,
        lines: np.ndarray | None = None,
        _unique: bool = False,
    ) -> Run:
        """Build from three equal-length columns (sequences, NumPy or Arrow arrays).

        Parameters
        ----------
        query, doc : array_like or pyarrow.Array
            The query and document id of every result (strings, or integers kept as their
            decimal text).
        score : array_like or pyarrow.Array
            The score of every result (finite numbers).
        name : str, optional
            The run's name (None: ``run``).
        tag : str, optional
            The TREC tag (:meth:`to_trec` writes it; default: ``name``).
        source : str, optional
            Where the columns came from, named in messages.
        lines : numpy.ndarray, optional
            The file line of every row, for messages.

        Returns
        -------
        Run
            The run, its rows in trec_eval order; a repeated (query, document) pair is an
            :class:`~assay.errors.InputError`.

        Examples
        --------
        >>> from assay import Run
        >>> run = Run.from_columns(["q1", "q1"], ["d1", "d2"], [0.5, 0.9], name="bm25")
        >>> run, run.to_dict()
        (Run('bm25': 1 queries, 2 results), {'q1': {'d2': 0.9, 'd1': 0.5}})
        """
        sc = as_scores(score, source, lines)
        q, qids, da = cls._encode_ids(query, doc, len(sc), source, lines)
        # The document codes index the rows' own ids (input order), which is all the join
        # needs; the dictionary of distinct documents is made if something asks for it.
        # Pairs known distinct (dict input) need no check. Otherwise each query's ids are
        # hashed a group of queries at a time (in cache): in input order when each query's
        # rows are together there (files, data frames), else in sorted order. Only a repeat,
        # to be named, needs the dictionary of every document, found in input order.
        q_in, repeated = q, False
        starts = np.flatnonzero(q[1:] != q[:-1]) + 1
        together = len(starts) + 1 == len(qids)
        if not _unique and together:
            runs = np.concatenate([[0], starts, [len(q)]]).astype(np.int64)
            repeated = has_repeated_pair(runs, da)
        run, in_order = cls._in_trec_order(q, qids, da, sc, name=name, tag=tag, source=source)
        if not _unique and not together:
            repeated = has_repeated_pair(run._offsets, da, None if in_order else run._input_pos)
        if not _unique and repeated:
            d_in, docs = factorize(da)
            check_duplicates(q_in, d_in, len(docs), "run", docs, qids, source, lines)
        return run

    @classmethod
    def _in_trec_order(
        cls,
        q: np.ndarray,
        qids: pa.Array,
        da: pa.Array,
        sc: np.ndarray,
        *,
        name: str | None,
        tag: str | None,
        source: str | None,
    ) -> tuple[Run, bool]:
        """A run of rows given in input order -- query codes into ``qids``, each row's
        document id, scores -- stored in trec_eval order; and whether the rows were in that
        order already. The ids are taken as checked."""
        order = trec_order(q, sc, da)
        if order is None:  # already in rank order, as systems usually write runs
            pos = np.arange(len(q), dtype=np.int64)
        else:
            q, sc, pos = q[order], sc[order], order.astype(np.int64)
        run = cls(
            _qids=qids,
            _docs=da,
            _q=q,
            _d=pos.astype(np.int32) if len(pos) <= _INT32_MAX else pos,
            _score=sc,
            _input_pos=pos,
            _offsets=csr_offsets(q, len(qids)),
            name=name or "run",
            tag=tag,
            source=source,
            _per_row=True,
        )
        return run, order is None

    def rescored(self, scores: np.ndarray, name: str) -> Run:
        """The same (query, document) pairs with other scores, stored in trec_eval order:
        what :meth:`from_columns` builds from the same columns, without encoding or checking
        the ids again.

        Parameters
        ----------
        scores : numpy.ndarray
            One finite float64 score per pair, in the pairs' input order.
        name : str
            The new run's name.

        Returns
        -------
        Run
            The rescored run (its ``tag`` and ``source`` are this run's).

        Examples
        --------
        >>> import numpy as np
        >>> from assay import Run
        >>> run = Run.from_columns(["q1", "q1"], ["d1", "d2"], [0.5, 0.9])
        >>> run.rescored(np.array([0.9, 0.5]), "other").to_dict()
        {'q1': {'d1': 0.9, 'd2': 0.5}}
        """
        docs, d = self._doc_lookup()
        q_in = np.empty_like(self._q)
        q_in[self._input_pos] = self._q
        d_in = np.empty_like(d)
        d_in[self._input_pos] = d
        da = docs.take(from_np(d_in))
        return self._in_trec_order(
            q_in, self._qids, da, scores, name=name, tag=self.tag, source=self.source
        )[0]

    @classmethod
    def from_codes(
        cls,
        query_ids: pa.Array,
        doc_ids: pa.Array,
        query_codes: np.ndarray,
        doc_codes: np.ndarray,
        scores: np.ndarray,
        *,
        name: str = "run",
        tag: str | None = None,
        source: str | None = None,
        depth: int | None = None,
    ) -> Run:
        """From rows already encoded: codes into ``query_ids`` (distinct, in byte order) and
        ``doc_ids`` (distinct). Rows are put in trec_eval order and, with ``depth``, each
        query keeps its first ``depth``. The (query, document) pairs must be distinct."""
        q = np.ascontiguousarray(query_codes, dtype=np.int32)
        d = np.ascontiguousarray(doc_codes, dtype=np.int32)
        sc = np.ascontiguousarray(scores, dtype=np.float64)
        order = trec_order(q, sc, doc_ids.take(from_np(d)))
        if order is not None:
            q, d, sc = q[order], d[order], sc[order]
        offsets = csr_offsets(q, len(query_ids))
        if depth is not None:
            rank = np.arange(len(q)) - np.repeat(offsets[:-1], np.diff(offsets))
            keep = rank < depth
            q, d, sc = q[keep], d[keep], sc[keep]
            offsets = csr_offsets(q, len(query_ids))
        return cls(
            _qids=query_ids,
            _docs=doc_ids,
            _q=q,
            _d=d,
            _score=sc,
            _input_pos=np.arange(len(q), dtype=np.int64),
            _offsets=offsets,
            name=name,
            tag=tag,
            source=source,
        )

    @classmethod
    def from_trec(cls, path: PathLike | BinaryIO, *, name: str | None = None) -> Run:  # type: ignore[override]  # why: name, not **options; also a stream
        """Read a TREC run: ``query Q0 document rank score tag`` (6 fields, more ignored).

        The rank field is ignored: ranks come from the scores (and the tie convention), as in
        trec_eval. ``#`` lines and blank lines are skipped; ``.gz`` is decompressed; ``-`` is
        stdin. ``name`` defaults to the file name.

        Parameters
        ----------
        path : str, PathLike or binary file
            The run file.
        name : str, optional
            The run's name (default: the file name without ``.gz``).

        Returns
        -------
        Run
            The run; errors name the file and the line.

        Examples
        --------
        >>> from assay import Run
        >>> _ = open("example.run", "w").write("q1 Q0 d1 1 0.5 bm25\\nq1 Q0 d2 2 0.9 bm25\\n")
        >>> run = Run.from_trec("example.run")
        >>> run, run.tag, run.to_dict()
        (Run('example.run': 1 queries, 2 results), 'bm25', {'q1': {'d2': 0.9, 'd1': 0.5}})
        """
        from ..io.trec import read_run

        c = read_run(path)
        return cls.from_columns(
            c.query,
            c.doc,
            c.value,
            name=name or default_name(c.source),
            tag=c.tag,
            source=c.source,
            lines=c.lines,
        )

    @classmethod
    def _from_file(cls, read: TableFile, options: dict[str, Any], where: str) -> Run:
        named = {**options, "name": options.get("name") or default_name(read.source)}
        return cls._from_table(read.table, read.source, read.lines, named, where)

    # -------------------------------------------------------------- views and writers

    @property
    def doc_ids(self) -> pa.Array:
        """The distinct document ids; :attr:`doc_codes` index them."""
        return self._distinct_docs()[0]

    @property
    def doc_codes(self) -> np.ndarray:
        """The document code of every row."""
        return self._distinct_docs()[1]

    def _distinct_docs(self) -> tuple[pa.Array, np.ndarray]:
        """The dictionary of distinct documents and the rows' codes into it, made from the
        rows' own ids on first use (and then kept in their place)."""
        docs, d = self._docs, self._d
        if docs is None or d is None:  # pragma: no cover - every constructor gives both
            raise TypeError("run without documents")
        if self._per_row:
            codes, docs = factorize(docs)
            d = codes[d]
            d.setflags(write=False)
            self._docs, self._d, self._per_row = docs, d, False
        return docs, d

    def _doc_lookup(self) -> tuple[pa.Array, np.ndarray]:
        """Ids and every row's code into them, distinct or not: what a join by value needs,
        without hashing every document id to make them distinct."""
        if self._docs is None or self._d is None:  # pragma: no cover - as above
            raise TypeError("run without documents")
        return self._docs, self._d

    def _doc_column(self) -> pa.Array:
        docs, d = self._doc_lookup()
        return docs.take(from_np(d))

    @property
    def values(self) -> np.ndarray:
        return self._score

    @property
    def scores(self) -> np.ndarray:
        """The score of every row (float64), in stored order."""
        return self._score

    @property
    def input_positions(self) -> np.ndarray:
        """The input position of every stored row (for ``ties="input"``)."""
        return self._input_pos

    def ranks(self) -> np.ndarray:
        """1-based rank of every stored row within its query (trec_eval order)."""
        counts = np.diff(self._offsets)
        ranks = np.arange(len(self._q), dtype=np.int64) - np.repeat(self._offsets[:-1], counts) + 1
        return cast(np.ndarray, ranks)

    def to_arrow(self) -> pa.Table:
        """Rows in trec_eval order: query, doc, score, rank.

        Returns
        -------
        pyarrow.Table
            One row per result.

        Examples
        --------
        >>> from assay import Run
        >>> Run.from_dict({"q1": {"d1": 0.5, "d2": 0.9}}).to_arrow().to_pydict()
        {'query': ['q1', 'q1'], 'doc': ['d2', 'd1'], 'score': [0.9, 0.5], 'rank': [1, 2]}
        """
        return super().to_arrow().append_column("rank", from_np(self.ranks()))

    def to_trec(self, path: PathLike | BinaryIO, *, tag: str | None = None) -> None:
        """Write ``query Q0 doc rank score tag`` lines. Scores are printed as the shortest
        decimal that reads back to the same double, so a round trip is exact. White space in
        the tag becomes ``_``.

        Parameters
        ----------
        path : str, PathLike or binary file
            The file (``.gz`` compresses; ``-`` is stdout).
        tag : str, optional
            The tag column (default: the run's tag, else its name).

        Examples
        --------
        >>> from assay import Run
        >>> Run.from_dict({"q1": {"d1": 0.5, "d2": 0.9}}, name="bm25").to_trec("example.run")
        >>> print(open("example.run").read(), end="")
        q1 Q0 d2 1 0.9 bm25
        q1 Q0 d1 2 0.5 bm25
        """
        from ..io.trec import write_run

        query, doc = self._id_columns()
        write_run(
            path,
            query,
            doc,
            self.ranks(),
            self._score,
            tag or self.tag or self.name,
            distinct=(self._qids, self._doc_lookup()[0]),
        )

    def rename(self, name: str) -> Run:
        """The same run under another name (the arrays are shared, not copied).

        Parameters
        ----------
        name : str
            The new name.

        Returns
        -------
        Run
            The renamed run.

        Examples
        --------
        >>> from assay.data import Run
        >>> Run.from_dict({"q1": {"d1": 0.9}}, name="bm25").rename("baseline").name
        'baseline'
        """
        return self._evolve(name=name)

    def _state(self) -> dict[str, Any]:
        return {
            **super()._state(),
            "_score": self._score,
            "_input_pos": self._input_pos,
            "name": self.name,
            "tag": self.tag,
            "_per_row": self._per_row,
        }

    def order(self, ties: str) -> np.ndarray | None:
        """Row permutation giving the ranking under a tie convention (None: stored order)."""
        if ties != "input":
            return None
        if "input" not in self._cache:
            keys = {
                "q": from_np(self._q),
                "s": from_np(self._score),
                "i": from_np(self._input_pos),
            }
            self._cache["input"] = to_np(
                pc.sort_indices(
                    pa.table(keys),
                    sort_keys=[("q", "ascending"), ("s", "descending"), ("i", "ascending")],
                )
            )
        return self._cache["input"]

    def __repr__(self) -> str:
        return f"Run({self.name!r}: {self.n_queries} queries, {len(self)} results)"


# What a run may be given as wherever a function reads one (:meth:`Run.coerce`): a
# :class:`Run`, a file path (any format :meth:`Run.read` reads), a pandas or polars DataFrame
# (or LazyFrame) or a pyarrow Table (columns ``query``, ``doc``, ``score``), or a
# ``{query: {doc: score}}`` dict (pytrec_eval, ranx, BEIR). At run time (for
# ``typing.get_type_hints``) the data frame types are left out: neither pandas nor polars
# is imported.
if TYPE_CHECKING:
    RunLike: TypeAlias = (
        Run
        | str
        | os.PathLike[str]
        | pd.DataFrame
        | pl.DataFrame
        | pl.LazyFrame
        | pa.Table
        | Mapping[str, Mapping[str, float]]
    )
else:
    RunLike = Run | str | os.PathLike[str] | pa.Table | Mapping[str, Mapping[str, float]]
