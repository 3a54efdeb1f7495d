"""Relevance judgments: :class:`Qrels`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from .._options import integer
from ._columns import as_grades, check_duplicates, csr_offsets, factorize
from ._table import PathLike, QueryDocTable

__all__ = [
    "Qrels",
]


class Qrels(QueryDocTable):
    """Relevance judgments: (query, document, grade) with integer grades.

    Negative grades mean "pooled but not judged" (trec_eval). Build with :meth:`from_trec`,
    :meth:`from_dict`, :meth:`from_pandas`, :meth:`from_polars`, :meth:`from_parquet`,
    :meth:`from_csv`, :meth:`from_jsonl`, :meth:`from_arrow` or :meth:`read`.

    ``max_grade`` is the top of the grade scale, which ERR and pFound normalise by. It is the
    largest grade of the whole collection unless declared (:meth:`with_max_grade`), and
    :meth:`restrict` keeps it, so a query's values do not depend on which other queries are
    evaluated with it.
    """

    __slots__ = ("_levels", "_max_grade", "_rel")
    ROLES = ("query", "doc", "relevance")
    KIND = "qrels"
    EMPTY = "the qrels hold no judgments"

    def __init__(
        self,
        *,
        _qids: pa.Array,
        _docs: pa.Array,
        _q: np.ndarray,
        _d: np.ndarray,
        _rel: np.ndarray,
        _offsets: np.ndarray,
        source: str | None = None,
        max_grade: int | None = None,
    ) -> None:
        super().__init__(
            _qids=_qids, _docs=_docs, _q=_q, _d=_d, _offsets=_offsets, source=source, values=(_rel,)
        )
        self._rel = _rel
        observed = int(_rel.max()) if len(_rel) else 0
        self._max_grade = observed if max_grade is None else max_grade
        self._levels: np.ndarray | None = None

    @classmethod
    def from_columns(
        cls,
        query: Any,
        doc: Any,
        relevance: Any,
        *,
        source: str | None = None,
        lines: np.ndarray | None = None,
        _unique: bool = False,
    ) -> Qrels:
        """Build from three equal-length columns (sequences, NumPy or Arrow arrays)."""
        rel = as_grades(relevance, source, lines)
        q, qids, da = cls._encode_ids(query, doc, len(rel), source, lines)
        d, docs = factorize(da)
        if not _unique:  # dict input with string keys cannot repeat a pair
            check_duplicates(q, d, len(docs), "qrels", docs, qids, source, lines)
        order = np.lexsort((d, q))
        q, d, rel = q[order], d[order], rel[order]
        offsets = csr_offsets(q, len(qids))
        return cls(_qids=qids, _docs=docs, _q=q, _d=d, _rel=rel, _offsets=offsets, source=source)

    @classmethod
    def from_trec(cls, path: PathLike | BinaryIO) -> Qrels:  # type: ignore[override]
        """Read TREC qrels: ``query iteration document grade`` per line (4 fields).

        ``#`` lines and blank lines are skipped; ``.gz`` is decompressed; ``-`` is stdin.
        """
        from ..io.trec import read_qrels

        c = read_qrels(path)
        return cls.from_columns(c.query, c.doc, c.value, source=c.source, lines=c.lines)

    def restrict(self, queries: Any) -> Qrels:
        """The judgments of the given queries only (ids not in the qrels are ignored). The
        grade scale (:attr:`max_grade`) stays that of the whole collection. The document
        dictionary keeps only the documents judged for those queries, so that joining a block
        of a run costs in proportion to the block, not to the whole qrels."""
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
        used, d = np.unique(self._d[rows], return_inverse=True)
        return self._evolve(
            _qids=self._qids.filter(from_np(keep_q)),
            _q=q,
            _docs=self._docs.take(from_np(used)),
            _d=d.astype(self._d.dtype),
            _rel=self._rel[rows],
            _offsets=csr_offsets(q, int(keep_q.sum())),
        )

    def with_max_grade(self, max_grade: int) -> Qrels:
        """The same judgments on a declared grade scale 0..``max_grade`` (at least the largest
        grade present), e.g. 4 for MSLR-WEB10K whatever grades a subset holds."""
        observed = int(self._rel.max()) if len(self._rel) else 0
        scale = integer(max_grade, "max_grade", minimum=max(observed, 0))
        return self._evolve(max_grade=scale)

    def _state(self) -> dict[str, Any]:
        return {**super()._state(), "_rel": self._rel, "max_grade": self._max_grade}

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
        """Write ``query 0 doc grade`` lines (``.gz`` compresses; ``-`` is stdout)."""
        from ..io.trec import write_qrels

        query, doc = self._id_columns()
        write_qrels(path, query, doc, self._rel, distinct=(self._qids, self._docs))

    def __iter__(self) -> Iterator[tuple[str, str, int]]:
        t = self.to_arrow()
        columns = (t["query"].to_pylist(), t["doc"].to_pylist(), t["relevance"].to_pylist())
        return iter(zip(*columns, strict=True))

    def __repr__(self) -> str:
        return f"Qrels({self.n_queries} queries, {len(self)} judgments, max grade {self.max_grade})"
