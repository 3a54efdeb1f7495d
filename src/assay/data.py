"""Immutable columnar relevance judgments (:class:`Qrels`) and system output (:class:`Run`).

Ids are kept exactly: query ids become integer codes into a dictionary of the distinct ids in
byte order; document ids become integer codes into a dictionary of the distinct documents
(Arrow's ``dictionary_encode``; ids are compared by value, never by hash). Rows are grouped by
query with CSR offsets: query ``q`` owns rows ``offsets[q]:offsets[q+1]``.

Ids are strings. Integer ids from data frames or dicts are converted with ``str``, so that tie
breaking by docno (trec_eval: byte order) means the same thing whatever the source.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ._arrow import from_np, to_np
from .errors import DuplicateError, EmptyInputError, InputError

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

PathLike = str | os.PathLike[str]


# ---------------------------------------------------------------- id handling


def _as_array(values: Any) -> pa.Array:
    if isinstance(values, pa.ChunkedArray):
        return values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    return values


def _first(mask: Any) -> int:
    """Index of the first true value of a boolean Arrow or NumPy array."""
    if isinstance(mask, pa.ChunkedArray | pa.Array):
        mask = to_np(mask, fill=False)
    return int(np.flatnonzero(np.asarray(mask, dtype=bool))[0])


def _as_id_array(
    values: Any, what: str, source: str | None, lines: np.ndarray | None = None
) -> pa.Array:
    """Any sequence/array of ids -> a pyarrow string array (no nulls, no empty ids)."""
    try:
        if isinstance(values, pa.ChunkedArray | pa.Array):
            arr = _as_array(values)
        else:
            np_values = np.asarray(values)
            if np_values.size == 0:
                arr = pa.array([], pa.string())
            elif np_values.dtype.kind in "iu":
                arr = from_np(np_values.astype(np.int64))
            else:
                arr = pa.array(np_values.tolist() if np_values.dtype == object else np_values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError) as exc:
        raise InputError(
            f"{what} ids must be strings or integers ({str(exc).splitlines()[0]})", source=source
        ) from None
    if pa.types.is_dictionary(arr.type):
        if (
            pa.types.is_string(arr.type.value_type)
            and arr.null_count == 0
            and arr.dictionary.null_count == 0
            and len(arr.dictionary)
            and pc.min(pc.binary_length(arr.dictionary)).as_py() > 0
            and pc.count_distinct(arr.dictionary).as_py() == len(arr.dictionary)
        ):
            return arr  # distinct, valid ids with codes: factorised without re-hashing
        arr = arr.cast(arr.type.value_type)
    if arr.null_count:
        i = _first(arr.is_null())
        raise InputError(
            f"{what} id is missing (null) at {_row_label(lines, i)}", **_where(source, lines, i)
        )
    if pa.types.is_binary(arr.type) or pa.types.is_large_binary(arr.type):
        try:
            arr = arr.cast(pa.string())
        except pa.ArrowInvalid:
            raise InputError(
                f"{what} ids are bytes that are not valid UTF-8", source=source
            ) from None
    if pa.types.is_large_string(arr.type) or pa.types.is_string_view(arr.type):
        arr = arr.cast(pa.string())
    elif not pa.types.is_string(arr.type):
        if not pa.types.is_integer(arr.type):
            raise InputError(
                f"{what} ids must be strings or integers, got {arr.type}", source=source
            )
        arr = pc.cast(arr, pa.string())
    if len(arr) and pc.min(pc.binary_length(arr)).as_py() == 0:
        i = _first(pc.equal(pc.binary_length(arr), 0))
        raise InputError(
            f"{what} id is empty at {_row_label(lines, i)}", **_where(source, lines, i)
        )
    return arr


def _factorize_sorted(arr: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Codes into the distinct values sorted in byte order (strcmp order, as trec_eval)."""
    enc = arr if pa.types.is_dictionary(arr.type) else pc.dictionary_encode(arr)
    dictionary = enc.dictionary
    order = to_np(pc.sort_indices(dictionary))
    rank = np.empty(len(order), dtype=np.int32)
    rank[order] = np.arange(len(order), dtype=np.int32)
    codes = rank[to_np(enc.indices)]
    return codes, dictionary.take(from_np(order))


def _factorize(arr: pa.Array) -> tuple[np.ndarray, pa.Array]:
    enc = pc.dictionary_encode(arr)
    return to_np(enc.indices).astype(np.int32, copy=False), enc.dictionary


def _offsets(codes_sorted: np.ndarray, n_groups: int) -> np.ndarray:
    counts = np.bincount(codes_sorted, minlength=n_groups)
    out = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def _where(source: str | None, lines: np.ndarray | None, row: int) -> dict[str, Any]:
    return {"source": source, "line": int(lines[row]) if lines is not None else None}


def _row_label(lines: np.ndarray | None, row: int) -> str:
    return f"line {int(lines[row])}" if lines is not None else f"row {row + 1}"


def _check_duplicates(
    q: np.ndarray,
    d: np.ndarray,
    n_docs: int,
    what: str,
    doc_dict: pa.Array,
    query_dict: pa.Array,
    source: str | None,
    lines: np.ndarray | None,
) -> None:
    """Raise on a repeated (query, document) pair, naming the earliest repeat in the input
    and where that pair first occurred."""
    if len(d) == 0:
        return
    # Only documents that occur more than once can repeat a pair: filter by a bincount first,
    # then compare exact (query, doc) codes of those rows.
    repeated = np.bincount(d, minlength=n_docs)[d] > 1
    if not repeated.any():
        return
    rows = np.flatnonzero(repeated)
    sub = q[rows].astype(np.int64) * max(n_docs, 1) + d[rows]
    sub_sorted = np.sort(sub)
    if not (sub_sorted[1:] == sub_sorted[:-1]).any():
        return
    key = q.astype(np.int64) * max(n_docs, 1) + d
    order = np.argsort(key, kind="stable")  # stable: input order within equal keys
    ks = key[order]
    dup = np.flatnonzero(ks[1:] == ks[:-1])  # order[j + 1] repeats order[j]
    j = int(dup[np.argmin(order[dup + 1])])
    second = int(order[j + 1])
    first = int(order[np.searchsorted(ks, ks[j], side="left")])
    query = query_dict[int(q[second])].as_py()
    doc = doc_dict[int(d[second])].as_py()
    where = "" if lines is not None else f" at {_row_label(lines, second)}"
    raise DuplicateError(
        f"duplicate {what} entry for query {query!r}, document {doc!r}{where} "
        f"(first at {_row_label(lines, first)}); {len(dup)} repeated row(s) in all — "
        "each (query, document) pair must appear once",
        **_where(source, lines, second),
    )


# ---------------------------------------------------------------- Qrels


class Qrels:
    """Relevance judgments: (query, document, grade) with integer grades.

    Negative grades mean "pooled but not judged" (trec_eval). Build with
    :meth:`from_trec`, :meth:`from_dict`, :meth:`from_pandas`, :meth:`from_polars`,
    :meth:`from_parquet`, :meth:`from_csv`, :meth:`from_jsonl` or :meth:`from_arrow`.
    """

    __slots__ = ("_d", "_docs", "_offsets", "_q", "_qids", "_rel", "source")

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
    ) -> None:
        self._qids = _qids
        self._docs = _docs
        self._q = _q
        self._d = _d
        self._rel = _rel
        self._offsets = _offsets
        self.source = source
        for a in (_q, _d, _rel, _offsets):
            a.setflags(write=False)

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
        qa = _as_id_array(query, "query", source, lines)
        da = _as_id_array(doc, "document", source, lines)
        rel = _as_grades(relevance, source, lines)
        if not (len(qa) == len(da) == len(rel)):
            raise InputError("query, doc and relevance columns differ in length", source=source)
        if len(qa) == 0:
            raise EmptyInputError("the qrels hold no judgments", source=source)
        q, qids = _factorize_sorted(qa)
        d, docs = _factorize(da)
        if not _unique:  # dict input with string keys cannot repeat a pair
            _check_duplicates(q, d, len(docs), "qrels", docs, qids, source, lines)
        order = np.lexsort((d, q))
        q, d, rel = q[order], d[order], rel[order]
        return cls(
            _qids=qids,
            _docs=docs,
            _q=q,
            _d=d,
            _rel=rel,
            _offsets=_offsets(q, len(qids)),
            source=source,
        )

    # -------------------------------------------------------------- readers

    @classmethod
    def from_trec(cls, path: PathLike | BinaryIO) -> Qrels:
        """Read TREC qrels: ``query iteration document grade`` per line (4 fields).

        ``#`` lines and blank lines are skipped; ``.gz`` is decompressed; ``-`` is stdin.
        """
        from .io._text import parse_numbers, read_text_table

        tc = read_text_table(path, min_cols=4, max_cols=4, want=[0, 2, 3], what="qrels")
        rel = parse_numbers(tc.columns[2], pa.int64(), tc, "relevance grade")
        return cls.from_columns(tc.columns[0], tc.columns[1], rel, source=tc.source, lines=tc.line)

    @classmethod
    def from_dict(cls, data: Mapping[Any, Mapping[Any, Any]]) -> Qrels:
        """From ``{query: {doc: grade}}`` (pytrec_eval, ranx, BEIR)."""
        from .io.frames import nested_to_columns

        q, d, v, unique = nested_to_columns(data, "qrels")
        return cls.from_columns(q, d, v, source="<dict>", _unique=unique)

    @classmethod
    def from_arrow(
        cls,
        table: pa.Table,
        *,
        query: str = "query",
        doc: str = "doc",
        relevance: str = "relevance",
        source: str | None = None,
    ) -> Qrels:
        from .io.tabular import pick_columns

        cols = pick_columns(table, {"query": query, "doc": doc, "relevance": relevance}, source)
        return cls.from_columns(cols["query"], cols["doc"], cols["relevance"], source=source)

    @classmethod
    def from_pandas(
        cls,
        df: pd.DataFrame,
        *,
        query: str = "query",
        doc: str = "doc",
        relevance: str = "relevance",
    ) -> Qrels:
        from .io.frames import pandas_to_arrow

        return cls.from_arrow(
            pandas_to_arrow(df), query=query, doc=doc, relevance=relevance, source="<pandas>"
        )

    @classmethod
    def from_polars(
        cls,
        df: pl.DataFrame,
        *,
        query: str = "query",
        doc: str = "doc",
        relevance: str = "relevance",
    ) -> Qrels:
        from .io.frames import polars_to_arrow

        return cls.from_arrow(
            polars_to_arrow(df), query=query, doc=doc, relevance=relevance, source="<polars>"
        )

    @classmethod
    def from_parquet(
        cls, path: PathLike, *, query: str = "query", doc: str = "doc", relevance: str = "relevance"
    ) -> Qrels:
        from .io.tabular import read_parquet

        return cls.from_arrow(
            read_parquet(path), query=query, doc=doc, relevance=relevance, source=os.fspath(path)
        )

    @classmethod
    def from_csv(
        cls,
        path: PathLike,
        *,
        query: str = "query",
        doc: str = "doc",
        relevance: str = "relevance",
        delimiter: str | None = None,
    ) -> Qrels:
        """CSV/TSV with a header row; ``delimiter`` defaults to tab for .tsv, else comma."""
        from .io.tabular import read_delimited

        return cls.from_arrow(
            read_delimited(path, delimiter, strings=(query, doc)),
            query=query,
            doc=doc,
            relevance=relevance,
            source=os.fspath(path),
        )

    @classmethod
    def from_jsonl(
        cls, path: PathLike, *, query: str = "query", doc: str = "doc", relevance: str = "relevance"
    ) -> Qrels:
        from .io.tabular import read_jsonl

        return cls.from_arrow(
            read_jsonl(path), query=query, doc=doc, relevance=relevance, source=os.fspath(path)
        )

    @classmethod
    def read(cls, path: PathLike, *, format: str | None = None, **columns: str) -> Qrels:
        """Read any supported file, the format chosen by ``format`` or the file extension."""
        from .io.tabular import detect_format

        fmt = _check_format(format or detect_format(path), path)
        if fmt == "trec":
            return cls.from_trec(path)
        if fmt in ("csv", "tsv"):
            return cls.from_csv(path, delimiter="\t" if fmt == "tsv" else ",", **columns)
        reader = {"parquet": cls.from_parquet, "jsonl": cls.from_jsonl}[fmt]
        return reader(path, **columns)

    def restrict(self, queries: Any) -> Qrels:
        """The judgments of the given queries only (ids not in the qrels are ignored)."""
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
        return Qrels(
            _qids=self._qids.filter(from_np(keep_q)),
            _docs=self._docs,
            _q=q,
            _d=self._d[rows],
            _rel=self._rel[rows],
            _offsets=_offsets(q, int(keep_q.sum())),
            source=self.source,
        )

    # -------------------------------------------------------------- writers

    def to_arrow(self) -> pa.Table:
        return pa.table(
            {
                "query": self._qids.take(from_np(self._q)),
                "doc": self._docs.take(from_np(self._d)),
                "relevance": from_np(self._rel),
            }
        )

    def to_trec(self, path: PathLike | BinaryIO) -> None:
        from .io._text import check_writable_ids, write_text

        check_writable_ids(self._qids, "query", first_column=True)
        check_writable_ids(self._docs, "document", first_column=False)
        t = self.to_arrow()
        write_text(
            path,
            pa.table(
                {
                    "query": t["query"],
                    "iter": from_np(np.zeros(len(self), dtype=np.int8)),
                    "doc": t["doc"],
                    "relevance": t["relevance"],
                }
            ),
        )

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{query: {doc: grade}}`` (pytrec_eval, ranx, BEIR)."""
        from .io.frames import grouped_to_nested

        docs = self._docs.take(from_np(self._d)).to_pylist()
        return grouped_to_nested(self.queries, self._offsets, docs, self._rel.tolist())

    def to_pandas(self) -> pd.DataFrame:
        from ._compat import require

        require("pandas")
        return self.to_arrow().to_pandas()

    def to_polars(self) -> pl.DataFrame:
        from ._compat import require

        pl_ = require("polars")
        return pl_.from_arrow(self.to_arrow())

    def to_parquet(self, path: PathLike) -> None:
        import pyarrow.parquet as pq

        pq.write_table(self.to_arrow(), os.fspath(path))

    def to_csv(self, path: PathLike, delimiter: str = ",") -> None:
        import pyarrow.csv as pcsv

        pcsv.write_csv(
            self.to_arrow(), os.fspath(path), write_options=pcsv.WriteOptions(delimiter=delimiter)
        )

    # -------------------------------------------------------------- inspection

    def __len__(self) -> int:
        return len(self._q)

    @property
    def queries(self) -> list[str]:
        """Query ids, in byte order."""
        return self._qids.to_pylist()

    @property
    def n_queries(self) -> int:
        return len(self._qids)

    @property
    def max_grade(self) -> int:
        return int(self._rel.max()) if len(self._rel) else 0

    def __iter__(self) -> Iterator[tuple[str, str, int]]:
        t = self.to_arrow()
        return iter(
            zip(
                t["query"].to_pylist(),
                t["doc"].to_pylist(),
                t["relevance"].to_pylist(),
                strict=True,
            )
        )

    def __repr__(self) -> str:
        return f"Qrels({self.n_queries} queries, {len(self)} judgments, max grade {self.max_grade})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Qrels):
            return NotImplemented
        return _table_key(self.to_arrow()) == _table_key(other.to_arrow())

    __hash__ = None  # type: ignore[assignment]


def _table_key(t: pa.Table) -> list[tuple[Any, ...]]:
    return sorted(zip(*(c.to_pylist() for c in t.columns), strict=True))


_INT32 = np.iinfo(np.int32)


def _numeric_column(
    values: Any, what: str, kind: str, source: str | None, lines: np.ndarray | None
) -> np.ndarray:
    """A column of numbers as NumPy: nulls and text that does not parse are errors that name
    the row (or line)."""
    if isinstance(values, pa.ChunkedArray | pa.Array):
        arr_pa = _as_array(values)
        if arr_pa.null_count:
            i = _first(arr_pa.is_null())
            raise InputError(
                f"{what} is missing (null) at {_row_label(lines, i)}", **_where(source, lines, i)
            )
        if pa.types.is_string(arr_pa.type) or pa.types.is_large_string(arr_pa.type):
            from .io._text import first_uncastable

            target = pa.int64() if kind == "an integer" else pa.float64()
            try:
                arr_pa = pc.cast(arr_pa, target)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                i = first_uncastable(arr_pa, target)
                raise InputError(
                    f"{what} {arr_pa[i].as_py()!r} is not {kind} at {_row_label(lines, i)}",
                    **_where(source, lines, i),
                ) from None
        if (
            pa.types.is_integer(arr_pa.type)
            or pa.types.is_floating(arr_pa.type)
            or pa.types.is_boolean(arr_pa.type)
        ):
            return to_np(arr_pa)
        return np.asarray(arr_pa.to_numpy(zero_copy_only=False))
    return np.asarray(values)


def _as_grades(values: Any, source: str | None, lines: np.ndarray | None = None) -> np.ndarray:
    arr = _numeric_column(values, "relevance grade", "an integer", source, lines)
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if bad.any():
            i = _first(bad)
            raise InputError(
                f"relevance grade {float(arr[i])!r} is not an integer at {_row_label(lines, i)}",
                **_where(source, lines, i),
            )
    elif arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "iu":
        raise InputError(f"relevance grades must be integers, got {arr.dtype}", source=source)
    if len(arr):
        out = (arr < _INT32.min) | (arr > _INT32.max)
        if out.any():
            i = _first(out)
            raise InputError(
                f"relevance grade {int(arr[i])} is out of range at "
                f"{_row_label(lines, i)} (grades are 32-bit integers)",
                **_where(source, lines, i),
            )
    return arr.astype(np.int32)


def _as_scores(values: Any, source: str | None, lines: np.ndarray | None) -> np.ndarray:
    arr = _numeric_column(values, "score", "a number", source, lines)
    if arr.dtype.kind not in "iuf":
        raise InputError(f"scores must be numbers, got {arr.dtype}", source=source)
    arr = arr.astype(np.float64, copy=False)
    bad = ~np.isfinite(arr)
    if bad.any():
        i = _first(bad)
        raise InputError(
            f"score {float(arr[i])!r} is not finite (NaN and infinity are not "
            f"allowed) at {_row_label(lines, i)}",
            **_where(source, lines, i),
        )
    return arr


# ---------------------------------------------------------------- Run


def _trec_order(q: np.ndarray, score: np.ndarray, docs: pa.Array) -> np.ndarray | None:
    """Permutation into trec_eval's order (query, score descending, docno descending), or
    None when the rows are in that order already."""
    same_q = q[1:] == q[:-1]
    in_order = bool((q[1:] >= q[:-1]).all()) and bool(((score[1:] <= score[:-1]) | ~same_q).all())
    if in_order:
        tied = np.flatnonzero(same_q & (score[1:] == score[:-1]))
        if len(tied) == 0:
            return None
        first = docs.take(from_np(tied))
        second = docs.take(from_np(tied + 1))
        if pc.all(pc.greater(first, second)).as_py():
            return None
    # One multithreaded Arrow sort; docno strings are compared only where (query, score) tie.
    return to_np(
        pc.sort_indices(
            pa.table({"q": from_np(q), "s": from_np(score), "d": docs}),
            sort_keys=[("q", "ascending"), ("s", "descending"), ("d", "descending")],
        )
    )


class Run:
    """Scored documents per query from one system, with a name.

    Rows are stored in trec_eval's canonical order: query (byte order), score descending,
    docno descending (byte order). The input position of every row is kept so that
    ``ties="input"`` can rank tied documents in input order.
    """

    __slots__ = (
        "_cache",
        "_d",
        "_docs",
        "_input_pos",
        "_offsets",
        "_q",
        "_qids",
        "_score",
        "name",
        "source",
        "tag",
    )

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
    ) -> None:
        self._qids = _qids
        self._docs = _docs
        self._q = _q
        self._d = _d
        self._score = _score
        self._input_pos = _input_pos
        self._offsets = _offsets
        self.name = name
        self.tag = tag
        self.source = source
        self._cache: dict[str, np.ndarray] = {}
        for a in (_q, _d, _score, _input_pos, _offsets):
            a.setflags(write=False)

    @classmethod
    def from_columns(
        cls,
        query: Any,
        doc: Any,
        score: Any,
        *,
        name: str = "run",
        tag: str | None = None,
        source: str | None = None,
        lines: np.ndarray | None = None,
        _unique: bool = False,
    ) -> Run:
        """Build from three equal-length columns (sequences, NumPy or Arrow arrays)."""
        qa = _as_id_array(query, "query", source, lines)
        da = _as_id_array(doc, "document", source, lines)
        sc = _as_scores(score, source, lines)
        if not (len(qa) == len(da) == len(sc)):
            raise InputError("query, doc and score columns differ in length", source=source)
        if len(qa) == 0:
            raise EmptyInputError("the run holds no results", source=source)
        q, qids = _factorize_sorted(qa)
        if _unique:
            # Pairs known distinct (dict input): codes index the exact per-row strings, which
            # is all the join needs; hashing every document id would only find no repeats.
            d, docs = np.arange(len(da), dtype=np.int32), da
        else:
            d, docs = _factorize(da)
            _check_duplicates(q, d, len(docs), "run", docs, qids, source, lines)
        order = _trec_order(q, sc, da)
        if order is None:  # already in rank order, as systems usually write runs
            pos = np.arange(len(q), dtype=np.int64)
        else:
            q, d, sc, pos = q[order], d[order], sc[order], order.astype(np.int64)
        return cls(
            _qids=qids,
            _docs=docs,
            _q=q,
            _d=d,
            _score=sc,
            _input_pos=pos,
            _offsets=_offsets(q, len(qids)),
            name=name,
            tag=tag,
            source=source,
        )

    # -------------------------------------------------------------- readers

    @classmethod
    def from_trec(cls, path: PathLike | BinaryIO, name: str | None = None) -> Run:
        """Read a TREC run: ``query Q0 document rank score tag`` (6 fields, more ignored).

        The rank field is ignored: ranks come from the scores (and the tie convention), as in
        trec_eval. ``#`` lines and blank lines are skipped; ``.gz`` is decompressed; ``-`` is
        stdin. ``name`` defaults to the file name.
        """
        from .io._text import parse_numbers, read_text_table

        tc = read_text_table(
            path, min_cols=6, max_cols=None, want=[0, 2, 4], what="run", numeric={4: pa.float64()}
        )
        score = parse_numbers(tc.columns[2], pa.float64(), tc, "score")
        if name is None:
            name = _default_name(tc.source)
        tag = tc.last_line_tokens[5] if len(tc.last_line_tokens) > 5 else None
        return cls.from_columns(
            tc.columns[0], tc.columns[1], score, name=name, tag=tag, source=tc.source, lines=tc.line
        )

    @classmethod
    def from_dict(cls, data: Mapping[Any, Mapping[Any, Any]], name: str = "run") -> Run:
        """From ``{query: {doc: score}}`` (pytrec_eval, ranx, BEIR)."""
        from .io.frames import nested_to_columns

        q, d, v, unique = nested_to_columns(data, "run")
        return cls.from_columns(q, d, v, name=name, source="<dict>", _unique=unique)

    @classmethod
    def from_arrow(
        cls,
        table: pa.Table,
        *,
        query: str = "query",
        doc: str = "doc",
        score: str = "score",
        name: str = "run",
        source: str | None = None,
    ) -> Run:
        from .io.tabular import pick_columns

        cols = pick_columns(table, {"query": query, "doc": doc, "score": score}, source)
        return cls.from_columns(cols["query"], cols["doc"], cols["score"], name=name, source=source)

    @classmethod
    def from_pandas(
        cls,
        df: pd.DataFrame,
        *,
        query: str = "query",
        doc: str = "doc",
        score: str = "score",
        name: str = "run",
    ) -> Run:
        from .io.frames import pandas_to_arrow

        return cls.from_arrow(
            pandas_to_arrow(df), query=query, doc=doc, score=score, name=name, source="<pandas>"
        )

    @classmethod
    def from_polars(
        cls,
        df: pl.DataFrame,
        *,
        query: str = "query",
        doc: str = "doc",
        score: str = "score",
        name: str = "run",
    ) -> Run:
        from .io.frames import polars_to_arrow

        return cls.from_arrow(
            polars_to_arrow(df), query=query, doc=doc, score=score, name=name, source="<polars>"
        )

    @classmethod
    def _from_file(
        cls, table: pa.Table, path: PathLike, query: str, doc: str, score: str, name: str | None
    ) -> Run:
        """A run read from a tabular file, named after the file unless ``name`` is given."""
        source = os.fspath(path)
        return cls.from_arrow(
            table,
            query=query,
            doc=doc,
            score=score,
            name=name or _default_name(source),
            source=source,
        )

    @classmethod
    def from_parquet(
        cls,
        path: PathLike,
        *,
        query: str = "query",
        doc: str = "doc",
        score: str = "score",
        name: str | None = None,
    ) -> Run:
        from .io.tabular import read_parquet

        return cls._from_file(read_parquet(path), path, query, doc, score, name)

    @classmethod
    def from_csv(
        cls,
        path: PathLike,
        *,
        query: str = "query",
        doc: str = "doc",
        score: str = "score",
        name: str | None = None,
        delimiter: str | None = None,
    ) -> Run:
        """CSV/TSV with a header row; ``delimiter`` defaults to tab for .tsv, else comma."""
        from .io.tabular import read_delimited

        return cls._from_file(
            read_delimited(path, delimiter, strings=(query, doc)), path, query, doc, score, name
        )

    @classmethod
    def from_jsonl(
        cls,
        path: PathLike,
        *,
        query: str = "query",
        doc: str = "doc",
        score: str = "score",
        name: str | None = None,
    ) -> Run:
        from .io.tabular import read_jsonl

        return cls._from_file(read_jsonl(path), path, query, doc, score, name)

    @classmethod
    def read(
        cls, path: PathLike, *, format: str | None = None, name: str | None = None, **columns: str
    ) -> Run:
        """Read any supported file, the format chosen by ``format`` or the file extension."""
        from .io.tabular import detect_format

        fmt = _check_format(format or detect_format(path), path)
        if fmt == "trec":
            return cls.from_trec(path, name=name)
        if fmt in ("csv", "tsv"):
            return cls.from_csv(path, name=name, delimiter="\t" if fmt == "tsv" else ",", **columns)
        reader = {"parquet": cls.from_parquet, "jsonl": cls.from_jsonl}[fmt]
        return reader(path, name=name, **columns)

    # -------------------------------------------------------------- writers

    def ranks(self) -> np.ndarray:
        """1-based rank of every stored row within its query (trec_eval order)."""
        counts = np.diff(self._offsets)
        return np.arange(len(self._q), dtype=np.int64) - np.repeat(self._offsets[:-1], counts) + 1

    def to_arrow(self) -> pa.Table:
        """Rows in trec_eval order: query, doc, score, rank."""
        return pa.table(
            {
                "query": self._qids.take(from_np(self._q)),
                "doc": self._docs.take(from_np(self._d)),
                "score": from_np(self._score),
                "rank": from_np(self.ranks()),
            }
        )

    def to_trec(self, path: PathLike | BinaryIO, tag: str | None = None) -> None:
        """Write ``query Q0 doc rank score tag`` lines. Scores are printed as the shortest
        decimal that reads back to the same double, so a round trip is exact. White space in
        the tag becomes ``_``."""
        import re

        from .io._text import check_writable_ids, write_text

        check_writable_ids(self._qids, "query", first_column=True)
        check_writable_ids(self._docs, "document", first_column=False)
        tag = re.sub(r"[ \t\n\r\x0b\x0c]+", "_", tag or self.tag or self.name) or "run"
        t = self.to_arrow()
        n = len(self)
        write_text(
            path,
            pa.table(
                {
                    "query": t["query"],
                    "q0": pa.array(np.full(n, "Q0")),
                    "doc": t["doc"],
                    "rank": t["rank"],
                    # Arrow prints the shortest decimal that reads back to the same double.
                    "score": pc.cast(t["score"], pa.string()),
                    "tag": pa.array([tag] * n, pa.string()),
                }
            ),
        )

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{query: {doc: score}}`` (pytrec_eval, ranx, BEIR); inner dicts in rank order."""
        from .io.frames import grouped_to_nested

        docs = self._docs.take(from_np(self._d)).to_pylist()
        return grouped_to_nested(self.queries, self._offsets, docs, self._score.tolist())

    def to_pandas(self) -> pd.DataFrame:
        from ._compat import require

        require("pandas")
        return self.to_arrow().to_pandas()

    def to_polars(self) -> pl.DataFrame:
        from ._compat import require

        pl_ = require("polars")
        return pl_.from_arrow(self.to_arrow())

    def to_parquet(self, path: PathLike) -> None:
        import pyarrow.parquet as pq

        pq.write_table(self.to_arrow(), os.fspath(path))

    def to_csv(self, path: PathLike, delimiter: str = ",") -> None:
        import pyarrow.csv as pcsv

        pcsv.write_csv(
            self.to_arrow(), os.fspath(path), write_options=pcsv.WriteOptions(delimiter=delimiter)
        )

    # -------------------------------------------------------------- inspection

    def __len__(self) -> int:
        return len(self._q)

    @property
    def queries(self) -> list[str]:
        return self._qids.to_pylist()

    @property
    def n_queries(self) -> int:
        return len(self._qids)

    def rename(self, name: str) -> Run:
        """The same run under another name (the arrays are shared, not copied)."""
        return Run(
            _qids=self._qids,
            _docs=self._docs,
            _q=self._q,
            _d=self._d,
            _score=self._score,
            _input_pos=self._input_pos,
            _offsets=self._offsets,
            name=name,
            tag=self.tag,
            source=self.source,
        )

    def order(self, ties: str) -> np.ndarray | None:
        """Row permutation giving the ranking under a tie convention (None: stored order)."""
        if ties != "input":
            return None
        if "input" not in self._cache:
            self._cache["input"] = pc.sort_indices(
                pa.table(
                    {
                        "q": from_np(self._q),
                        "s": from_np(self._score),
                        "i": from_np(self._input_pos),
                    }
                ),
                sort_keys=[("q", "ascending"), ("s", "descending"), ("i", "ascending")],
            )
            self._cache["input"] = to_np(self._cache["input"])
        return self._cache["input"]

    def __repr__(self) -> str:
        return f"Run({self.name!r}: {self.n_queries} queries, {len(self)} results)"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Run):
            return NotImplemented
        a, b = self.to_arrow(), other.to_arrow()
        return _table_key(a.select(["query", "doc", "score"])) == _table_key(
            b.select(["query", "doc", "score"])
        )

    __hash__ = None  # type: ignore[assignment]


_FORMATS = ("trec", "csv", "tsv", "parquet", "jsonl")


def _check_format(fmt: str, path: PathLike) -> str:
    if fmt not in _FORMATS:
        raise InputError(
            f"unknown format {fmt!r}; expected one of {', '.join(_FORMATS)}", source=os.fspath(path)
        )
    return fmt


def _default_name(source: str) -> str:
    base = os.path.basename(str(source))
    for ext in (".gz",):
        if base.endswith(ext):
            base = base[: -len(ext)]
    return base or "run"
