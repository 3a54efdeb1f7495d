"""What :class:`~assay.data.Qrels` and :class:`~assay.data.Run` share: (query, document,
value) rows grouped by query in CSR form, their readers and their writers.

Rows are grouped by query: query ``q`` owns rows ``offsets[q]:offsets[q+1]``. Query codes
index :attr:`QueryDocTable.query_ids` (the distinct ids in byte order); document codes index
:attr:`QueryDocTable.doc_ids`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

import numpy as np
import pyarrow as pa

from .._arrow import from_np
from .._files import atomic_path
from ..errors import EmptyInputError, InputError, OptionError, ParseError
from ._coerce import coerce_table, is_table
from ._columns import as_ids, factorize_sorted, run_heads

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

    from ..io.rows import RowLines
    from ..io.tabular import TableFile

PathLike = str | os.PathLike[str]


class QueryDocTable:
    """Immutable (query, document, value) rows grouped by query; the base of Qrels and Run.

    Column options of the readers: ``query``, ``doc`` and the value column (``relevance`` for
    qrels, ``score`` for runs) name the columns to read (each defaults to its own name).
    """

    __slots__ = ("_d", "_docs", "_offsets", "_q", "_qids", "source")

    #: Role names of the three columns, the last one the value.
    ROLES: ClassVar[tuple[str, str, str]]
    #: What the rows are, in messages ("qrels", "run").
    KIND: ClassVar[str]
    #: Options a reader accepts besides the column names.
    OPTIONS: ClassVar[tuple[str, ...]] = ()
    #: The message of an input without rows.
    EMPTY: ClassVar[str]

    _qids: pa.Array
    _docs: pa.Array | None
    _q: np.ndarray
    _d: np.ndarray | None
    _offsets: np.ndarray
    source: str | None

    def __new__(cls, *data: Any, **parts: Any) -> Self:
        # ``Run(df)`` / ``Qrels("q.txt")`` is the first thing people try: say what to call
        # instead of Python's "takes 1 positional argument".
        if data:
            raise InputError(
                f"{cls.__name__}(...) is built by its readers: {cls.__name__}.read(path), "
                f".from_pandas(df), .from_polars(df), .from_arrow(table) or "
                f".from_dict({{query: {{doc: {cls.ROLES[2]}}}}})"
            )
        return super().__new__(cls)

    def __init__(
        self,
        *,
        _qids: pa.Array,
        _docs: pa.Array | None,
        _q: np.ndarray,
        _d: np.ndarray | None,
        _offsets: np.ndarray,
        source: str | None,
        values: tuple[np.ndarray, ...] = (),
    ) -> None:
        """Keep the id columns and CSR offsets; they and the subclass's ``values`` arrays are
        made read-only, so the objects can share them. A subclass may leave the document
        dictionary (``_docs``, ``_d``) to :meth:`_encode_docs`, on first use."""
        self._qids = _qids
        self._docs = _docs
        self._q = _q
        self._d = _d
        self._offsets = _offsets
        self.source = source
        for a in (_q, _d, _offsets, *values):
            if a is not None:
                a.setflags(write=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its constructor's arguments: caches (the join's sorted keys, the grade
        # levels) are rebuilt where needed, not shipped (to Dask workers, say).
        return (_rebuild, (type(self), self._state()))

    def _state(self) -> dict[str, Any]:
        """The constructor's keyword arguments that rebuild this object."""
        return {
            "_qids": self._qids,
            "_docs": self._docs,
            "_q": self._q,
            "_d": self._d,
            "_offsets": self._offsets,
            "source": self.source,
        }

    # -------------------------------------------------------------- read-only views

    @property
    def query_ids(self) -> pa.Array:
        """The distinct query ids in byte order; :attr:`query_codes` index them."""
        return self._qids

    @property
    def doc_ids(self) -> pa.Array:
        """The distinct document ids; :attr:`doc_codes` index them."""
        return self._docs if self._docs is not None else self._encode_docs()[0]

    @property
    def query_codes(self) -> np.ndarray:
        """The query code of every row (rows are grouped by query)."""
        return self._q

    @property
    def doc_codes(self) -> np.ndarray:
        """The document code of every row."""
        return self._d if self._d is not None else self._encode_docs()[1]

    def _encode_docs(self) -> tuple[pa.Array, np.ndarray]:
        """The document dictionary of a table built without one (see :class:`Qrels`)."""
        raise NotImplementedError

    @property
    def offsets(self) -> np.ndarray:
        """CSR offsets: query ``q`` owns rows ``offsets[q]:offsets[q + 1]``."""
        return self._offsets

    @property
    def values(self) -> np.ndarray:
        """The value of every row: grades of qrels, scores of runs."""
        raise NotImplementedError

    @property
    def queries(self) -> list[str]:
        """Query ids, in byte order."""
        return cast(list[str], self._qids.to_pylist())

    @property
    def n_queries(self) -> int:
        return len(self._qids)

    def __len__(self) -> int:
        return len(self._q)

    # -------------------------------------------------------------- readers

    @classmethod
    def from_columns(cls, *columns: Any, **options: Any) -> Self:
        raise NotImplementedError

    @classmethod
    def _encode_ids(
        cls, query: Any, doc: Any, n_values: int, source: str | None, lines: np.ndarray | None
    ) -> tuple[np.ndarray, pa.Array, pa.Array]:
        """Query codes, the distinct query ids (byte order) and the document id column, once
        the id columns are checked against the ``n_values`` values: equal lengths, not empty."""
        by_runs = _query_runs(query)
        qa = as_ids(query, "query", source, lines) if by_runs is None else None
        da = as_ids(doc, "document", source, lines)
        n_query = len(qa) if qa is not None else len(query)
        if not (n_query == len(da) == n_values):
            raise InputError(
                f"query, doc and {cls.ROLES[2]} columns differ in length", source=source
            )
        if n_query == 0:
            raise EmptyInputError(cls.EMPTY, source=source)
        q, qids = by_runs if by_runs is not None else factorize_sorted(cast(pa.Array, qa))
        return q, qids, da

    def _evolve(self, **changes: Any) -> Self:
        """A copy with some constructor arguments changed (the arrays are shared)."""
        return type(self)(**{**self._state(), **changes})

    @classmethod
    def _split_options(
        cls, options: Mapping[str, Any], where: str
    ) -> tuple[dict[str, str], dict[str, Any]]:
        """Column names (by role) and the other reader options, refusing unknown names."""
        unknown = set(options) - set(cls.ROLES) - set(cls.OPTIONS)
        if unknown:
            allowed = ", ".join([*cls.ROLES, *cls.OPTIONS])
            raise OptionError(
                f"{cls.__name__}.{where} has no option {', '.join(sorted(unknown))}; "
                f"options: {allowed}",
                option=sorted(unknown)[0],
            )
        columns = {role: options.get(role) or role for role in cls.ROLES}
        return columns, {k: v for k, v in options.items() if k in cls.OPTIONS}

    @classmethod
    def from_arrow(cls, table: pa.Table, *, source: str | None = None, **options: Any) -> Self:
        """From a pyarrow Table; ``query``/``doc``/value options name its columns.

        Parameters
        ----------
        table : pyarrow.Table
            The rows.
        source : str, optional
            Where the table came from, named in messages.
        **options
            The column names (``query``, ``doc``, ``relevance`` or ``score``; each defaults
            to its own name) and a run's ``name``.

        Returns
        -------
        Qrels or Run
            The table read.

        Examples
        --------
        >>> import pyarrow as pa
        >>> from assay import Qrels
        >>> Qrels.from_arrow(pa.table({"query": ["q1", "q2"], "doc": ["d1", "d1"],
        ...                            "relevance": [1, 0]}))
        Qrels(2 queries, 2 judgments, max grade 1)
        """
        return cls._from_table(table, source, None, options, "from_arrow")

    @classmethod
    def _from_table(
        cls,
        table: pa.Table,
        source: str | None,
        lines: RowLines | None,
        options: Mapping[str, Any],
        where: str,
    ) -> Self:
        """From a table; ``lines`` locates its rows in the file it was read from."""
        from ..io.tabular import pick_columns

        columns, rest = cls._split_options(options, where)
        cols = pick_columns(table, columns, source)
        q, d, v = (cols[role] for role in cls.ROLES)
        return cls.from_columns(q, d, v, source=source, lines=lines, **rest)

    @classmethod
    def from_pandas(cls, df: pd.DataFrame, **options: Any) -> Self:
        """From a pandas DataFrame (column options as :meth:`from_arrow`).

        Parameters
        ----------
        df : pandas.DataFrame
            The rows.
        **options
            The column names and a run's ``name``, as :meth:`from_arrow`.

        Returns
        -------
        Qrels or Run
            The table read.

        Examples
        --------
        >>> import pandas as pd
        >>> from assay import Run
        >>> df = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["d1", "d2"], "score": [0.5, 0.9]})
        >>> Run.from_pandas(df, query="qid", doc="docno", name="bm25")
        Run('bm25': 1 queries, 2 results)
        """
        from ..io.frames import pandas_to_arrow

        return cls.from_arrow(pandas_to_arrow(df), source="<pandas>", **options)

    @classmethod
    def from_polars(cls, df: pl.DataFrame, **options: Any) -> Self:
        """From a polars DataFrame or LazyFrame (column options as :meth:`from_arrow`).

        Parameters
        ----------
        df : polars.DataFrame or polars.LazyFrame
            The rows.
        **options
            The column names and a run's ``name``, as :meth:`from_arrow`.

        Returns
        -------
        Qrels or Run
            The table read.

        Examples
        --------
        >>> import polars as pl
        >>> from assay import Qrels
        >>> Qrels.from_polars(pl.DataFrame({"query": ["q1"], "doc": ["d1"], "relevance": [1]}))
        Qrels(1 queries, 1 judgments, max grade 1)
        """
        from ..io.frames import polars_to_arrow

        return cls.from_arrow(polars_to_arrow(df), source="<polars>", **options)

    @classmethod
    def from_dict(cls, data: Mapping[Any, Mapping[Any, Any]], **options: Any) -> Self:
        """From ``{query: {doc: value}}`` (pytrec_eval, ranx, BEIR).

        Parameters
        ----------
        data : mapping
            ``{query: {doc: value}}``: grades of qrels, scores of a run.
        **options
            What :meth:`from_columns` takes besides the columns (a run's ``name``, ...).

        Returns
        -------
        Qrels or Run
            The table, its ids as strings.

        Examples
        --------
        >>> from assay.data import Qrels
        >>> Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}})
        Qrels(2 queries, 3 judgments, max grade 2)
        """
        from ..io.frames import nested_to_columns

        _, rest = cls._split_options(options, "from_dict")
        q, d, v, unique = nested_to_columns(data, cls.KIND)
        return cls.from_columns(q, d, v, source="<dict>", _unique=unique, **rest)

    @classmethod
    def _from_file(cls, read: TableFile, options: dict[str, Any], where: str) -> Self:
        return cls._from_table(read.table, read.source, read.lines, options, where)

    @classmethod
    def from_parquet(cls, path: PathLike, **options: Any) -> Self:
        """From a Parquet file (column options as :meth:`from_arrow`).

        Parameters
        ----------
        path : str or PathLike
            The file.
        **options
            The column names and a run's ``name``, as :meth:`from_arrow`.

        Returns
        -------
        Qrels or Run
            The table read.

        Examples
        --------
        >>> from assay import Run
        >>> Run.from_dict({"q1": {"d1": 0.5}}).to_parquet("example_run.parquet")
        >>> Run.from_parquet("example_run.parquet", name="bm25")
        Run('bm25': 1 queries, 1 results)
        """
        from ..io.tabular import read_parquet

        return cls._from_file(read_parquet(path), options, "from_parquet")

    @classmethod
    def from_csv(cls, path: PathLike, *, delimiter: str | None = None, **options: Any) -> Self:
        """CSV/TSV with a header row; ``delimiter`` defaults to tab for .tsv, else comma.
        Errors name the file and the line.

        Parameters
        ----------
        path : str or PathLike
            The file (``.gz`` is decompressed).
        delimiter : str, optional
            The field separator.
        **options
            The column names and a run's ``name``, as :meth:`from_arrow`.

        Returns
        -------
        Qrels or Run
            The table read (ids are read as text: ``007`` stays ``007``).

        Examples
        --------
        >>> from assay import Qrels
        >>> _ = open("example_qrels.csv", "w").write("query,doc,relevance\\nq1,007,2\\n")
        >>> Qrels.from_csv("example_qrels.csv").to_dict()
        {'q1': {'007': 2}}
        """
        from ..io.tabular import read_delimited

        columns, _ = cls._split_options(options, "from_csv")
        # The wanted columns as text: the ids stay ids (``007``), and the values go through
        # the same checked parser as TREC files (Arrow's CSV inference reads ``0x10`` as 16).
        read = read_delimited(path, columns, delimiter)
        return cls._from_file(read, options, "from_csv")

    @classmethod
    def from_jsonl(cls, path: PathLike, **options: Any) -> Self:
        """From JSON Lines, one object per row (column options as :meth:`from_arrow`).

        >>> from assay import Run
        >>> _ = open("example_run.jsonl", "w").write('{"query": "q1", "doc": "d1", "score": 1.5}\\n')
        >>> Run.from_jsonl("example_run.jsonl")
        Run('example_run.jsonl': 1 queries, 1 results)
        """
        from ..io.tabular import read_jsonl

        return cls._from_file(read_jsonl(path), options, "from_jsonl")

    @classmethod
    def from_trec(cls, path: PathLike, **options: Any) -> Self:
        raise NotImplementedError

    @classmethod
    def read(cls, path: PathLike, *, format: str | None = None, **options: Any) -> Self:
        """Read any supported file, the format chosen by ``format`` or the file extension.

        Parameters
        ----------
        path : str or PathLike
            The file (``.gz`` is decompressed; ``-`` is stdin for TREC text); for qrels,
            also ``irds:<dataset id>``, the judgments of an ir_datasets dataset
            (:meth:`Qrels.from_ir_datasets <assay.data.Qrels.from_ir_datasets>`).
        format : {"trec", "csv", "tsv", "parquet", "jsonl"}, optional
            The format (default: from the extension, else TREC text).
        **options
            The column names of tabular files (``query``, ``doc``, ``score`` or
            ``relevance``) and what :meth:`from_columns` takes (a run's ``name``).

        Returns
        -------
        Qrels or Run
            The table read.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> from assay.data import Run
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "bm25.run"
        >>> _ = path.write_text("q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 1.5 bm25\\n")
        >>> Run.read(path)
        Run('bm25.run': 1 queries, 2 results)
        """
        from ..io.formats import check_format, detect_format
        from .irds import is_irds_id, read_irds

        if is_irds_id(path):  # an ir_datasets id, not a file: "irds:msmarco-passage/dev"
            return read_irds(cls, str(path), format, options)
        fmt = check_format(format or detect_format(path), path)
        if fmt == "trec":
            _, rest = cls._split_options(options, "read")
            return cls.from_trec(path, **rest)
        try:
            if fmt in ("csv", "tsv"):
                return cls.from_csv(path, delimiter="\t" if fmt == "tsv" else ",", **options)
            if fmt == "parquet":
                return cls.from_parquet(path, **options)
            return cls.from_jsonl(path, **options)
        except ParseError as exc:
            if format is not None or type(exc) is not ParseError:
                raise
            # A TREC file named .jsonl or .parquet: the extension chose the reader.
            raise ParseError(
                f"{exc.detail} (read as {fmt} because of its extension; name the format with "
                f"format=, on the command line --{cls.KIND}-format)",
                source=exc.source,
                line=exc.line,
            ) from None

    @classmethod
    def coerce(
        cls,
        value: Any,  # Any: whatever a user passed; anything not a RunLike/QrelsLike is refused
        *,
        where: str,
        role: str | None = None,
    ) -> Self:
        """``value`` as a table of this kind: the object itself, a file path (:meth:`read`), a
        pandas or polars DataFrame, a pyarrow Table, or a ``{query: {doc: value}}`` dict (as
        pytrec_eval, ranx and BEIR write them); anything else an :class:`InputError` that names
        the constructor to call. :data:`~assay.data.RunLike` and
        :data:`~assay.data.QrelsLike` are these forms, as types.

        Parameters
        ----------
        value : RunLike or QrelsLike
            The input.
        where : str
            The function asking, named in the message.
        role : str, optional
            The argument's name in the message (default: ``run`` or ``qrels``).

        Returns
        -------
        Qrels or Run
            ``value`` itself, or the table read from it.

        Examples
        --------
        >>> from assay import Run
        >>> Run.coerce({"q1": {"d1": 1.0}}, where="example")
        Run('run': 1 queries, 1 results)
        """
        return coerce_table(cls, value, where, role)

    @classmethod
    def is_one(cls, value: Any) -> bool:
        """Whether ``value`` is one table (not a collection of them) in a form :meth:`coerce`
        takes: the object, a path, a data frame or a ``{query: {doc: value}}`` dict."""
        return is_table(cls, value)

    # -------------------------------------------------------------- writers

    def _doc_column(self) -> pa.Array:
        """The document id of every row."""
        return self.doc_ids.take(from_np(self.doc_codes))

    def _id_columns(self) -> tuple[pa.Array, pa.Array]:
        return self._qids.take(from_np(self._q)), self._doc_column()

    def to_arrow(self) -> pa.Table:
        """Rows as a pyarrow Table: query, doc and the value column."""
        query, doc = self._id_columns()
        return pa.table(dict(zip(self.ROLES, (query, doc, from_np(self.values)), strict=True)))

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """``{query: {doc: value}}`` (pytrec_eval, ranx, BEIR); inner dicts in row order.

        Returns
        -------
        dict
            Grades of qrels, scores of a run (in rank order).

        Examples
        --------
        >>> from assay import Run
        >>> Run.from_dict({"q1": {"d1": 0.5, "d2": 0.9}}).to_dict()
        {'q1': {'d2': 0.9, 'd1': 0.5}}
        """
        from ..io.frames import grouped_to_nested

        docs = self._doc_column().to_pylist()
        return grouped_to_nested(self.queries, self._offsets, docs, self.values.tolist())

    def to_pandas(self) -> pd.DataFrame:
        """Rows as a pandas DataFrame: the columns of :meth:`to_arrow`.

        Returns
        -------
        pandas.DataFrame
            query, doc and the value column (a run adds ``rank``).

        Examples
        --------
        >>> from assay import Qrels
        >>> Qrels.from_dict({"q1": {"d1": 1}}).to_pandas()
          query doc  relevance
        0    q1  d1          1
        """
        from .._optional import require

        require("pandas")
        return cast("pd.DataFrame", self.to_arrow().to_pandas())

    def to_polars(self) -> pl.DataFrame:
        """Rows as a polars DataFrame: the columns of :meth:`to_arrow`."""
        from .._optional import require

        polars = require("polars")
        return cast("pl.DataFrame", polars.from_arrow(self.to_arrow()))

    def to_parquet(self, path: PathLike) -> None:
        """Write the rows of :meth:`to_arrow` to a Parquet file (atomically)."""
        import pyarrow.parquet as pq

        with atomic_path(path) as tmp:
            pq.write_table(self.to_arrow(), tmp)

    def to_csv(self, path: PathLike, delimiter: str = ",") -> None:
        """Write the rows of :meth:`to_arrow` as CSV with a header row (atomically);
        ``delimiter="\\t"`` writes TSV."""
        import pyarrow.csv as pcsv

        options = pcsv.WriteOptions(delimiter=delimiter)
        with atomic_path(path) as tmp:
            pcsv.write_csv(self.to_arrow(), tmp, write_options=options)

    # -------------------------------------------------------------- comparison

    def _key(self) -> list[tuple[Any, ...]]:
        """Rows as sorted tuples (query, doc, value): equality ignores row order."""
        table = self.to_arrow().select(list(self.ROLES))
        return sorted(zip(*(c.to_pylist() for c in table.columns), strict=True))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)) or type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # why: unhashable, as __eq__ makes it


def _query_runs(query: Any) -> tuple[np.ndarray, pa.Array] | None:
    """Query codes and the distinct ids (byte order) of a NumPy query column whose rows come
    in runs of one query, from one id per run (:func:`run_heads`): the codes are exactly those
    of every row converted and encoded, since equal adjacent values are one id. None when the
    column is not such, or when a run's id is not a valid string (missing, empty, not text):
    the row-by-row path then finds the first bad row and names it."""
    heads = run_heads(query)
    if heads is None:
        return None
    try:
        ids = as_ids(query[heads], "query", None, None)
    except InputError:
        return None
    if not pa.types.is_string(ids.type) or pa.types.is_dictionary(ids.type):
        return None
    if query.dtype.kind == "O" and not _all_text(query[heads]):
        return None
    codes, qids = factorize_sorted(ids)
    sizes = np.diff(np.append(heads, len(query)))
    return np.repeat(codes, sizes), qids


def _all_text(values: np.ndarray) -> bool:
    """Whether an object array (one id per run) holds only ``str``: in a run of equal values,
    other objects (``1 == 1.0 == True``) could stand for rows converted differently."""
    return all(type(v) is str for v in values.tolist())


def _rebuild(cls: type[QueryDocTable], state: dict[str, Any]) -> QueryDocTable:
    """A pickled table, from its constructor's arguments (see ``__reduce__``)."""
    return cls(**state)
