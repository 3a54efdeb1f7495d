"""TREC qrels and runs as columns: ``query iteration document grade`` and
``query Q0 document rank score tag`` lines, read and written with pyarrow.

Reading follows trec_eval (see :mod:`assay.io.text`); the rank field of a run is ignored, as
ranks come from the scores. Writing refuses ids that would not read back as the same ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from .text import (
    PathLike,
    TextColumns,
    check_writable_ids,
    parse_numbers,
    parse_text_table,
    read_text_table,
    write_text,
)

__all__ = [
    "TrecColumns",
    "parse_run",
    "query_starts",
    "read_qrels",
    "read_run",
    "write_qrels",
    "write_run",
]


@dataclass(frozen=True)
class TrecColumns:
    """The columns of a TREC file: ids as Arrow strings, values as NumPy, 1-based lines."""

    query: pa.Array
    doc: pa.Array
    value: np.ndarray
    lines: np.ndarray
    source: str
    tag: str | None = None

    def rows(self, start: int, stop: int | None = None) -> TrecColumns:
        """Rows ``start:stop`` (zero-copy slices; the same source and tag)."""
        stop = len(self.query) if stop is None else stop
        return TrecColumns(
            self.query.slice(start, stop - start),
            self.doc.slice(start, stop - start),
            self.value[start:stop],
            self.lines[start:stop],
            self.source,
            self.tag,
        )


def query_starts(query: pa.Array) -> np.ndarray:
    """Positions where a new query begins in a column of query ids (0 first, unless empty)."""
    n = len(query)
    if n < 2:
        return np.zeros(min(n, 1), dtype=np.int64)
    change = to_np(pc.not_equal(query.slice(1), query.slice(0, n - 1)), fill=False)
    return np.concatenate([[0], np.flatnonzero(change) + 1])


def read_qrels(path: PathLike | BinaryIO) -> TrecColumns:
    """TREC qrels: 4 white-space separated fields per line, the grade an integer."""
    tc = read_text_table(path, min_cols=4, max_cols=4, want=[0, 2, 3], what="qrels")
    grade = parse_numbers(tc.columns[2], pa.int64(), tc, "relevance grade")
    return TrecColumns(tc.columns[0], tc.columns[1], grade, tc.line, tc.source)


def read_subtopic_qrels(path: PathLike | BinaryIO) -> tuple[TrecColumns, pa.Array]:
    """Qrels whose second field is a subtopic (ndeval): the columns and the subtopic ids."""
    tc = read_text_table(path, min_cols=4, max_cols=4, want=[0, 1, 2, 3], what="qrels")
    grade = parse_numbers(tc.columns[3], pa.int64(), tc, "relevance grade")
    columns = TrecColumns(tc.columns[0], tc.columns[2], grade, tc.line, tc.source)
    return columns, tc.columns[1]


def read_run(path: PathLike | BinaryIO) -> TrecColumns:
    """A TREC run: 6 or more fields per line (more are ignored), the score a finite number.
    ``tag`` is the last line's sixth field."""
    tc = read_text_table(
        path, min_cols=6, max_cols=None, want=[0, 2, 4], what="run", numeric={4: pa.float64()}
    )
    return _run_columns(tc)


def parse_run(data: bytes | bytearray, source: str) -> TrecColumns:
    """:func:`read_run` of text in memory (a block of a run read in pieces); lines are
    numbered from the start of ``data``."""
    tc = parse_text_table(
        data,
        source,
        min_cols=6,
        max_cols=None,
        want=[0, 2, 4],
        what="run",
        numeric={4: pa.float64()},
    )
    return _run_columns(tc)


def _run_columns(tc: TextColumns) -> TrecColumns:
    score = parse_numbers(tc.columns[2], pa.float64(), tc, "score")
    tag = tc.last_line_tokens[5] if len(tc.last_line_tokens) > 5 else None
    return TrecColumns(tc.columns[0], tc.columns[1], score, tc.line, tc.source, tag)


def _check_ids(query_ids: pa.Array, doc_ids: pa.Array) -> None:
    check_writable_ids(query_ids, "query", first_column=True)
    check_writable_ids(doc_ids, "document", first_column=False)


def write_qrels(
    path: PathLike | BinaryIO,
    query: pa.Array,
    doc: pa.Array,
    grade: np.ndarray,
    *,
    distinct: tuple[pa.Array, pa.Array] | None = None,
) -> None:
    """Write ``query 0 doc grade`` lines. ``distinct`` (the distinct query and document ids)
    lets the id check run on the dictionaries instead of every row."""
    _check_ids(*(distinct or (query, doc)))
    n = len(query)
    columns = {
        "query": query,
        "iter": from_np(np.zeros(n, dtype=np.int8)),
        "doc": doc,
        "relevance": from_np(np.asarray(grade)),
    }
    write_text(path, pa.table(columns))


def write_run(
    path: PathLike | BinaryIO,
    query: pa.Array,
    doc: pa.Array,
    rank: np.ndarray,
    score: np.ndarray,
    tag: str,
    *,
    distinct: tuple[pa.Array, pa.Array] | None = None,
) -> None:
    """Write ``query Q0 doc rank score tag`` lines. Scores are printed as the shortest decimal
    that reads back to the same double, so a round trip is exact; white space in the tag
    becomes ``_``."""
    _check_ids(*(distinct or (query, doc)))
    tag = re.sub(r"[ \t\n\r\x0b\x0c]+", "_", tag) or "run"
    n = len(query)
    columns = {
        "query": query,
        "q0": pa.array(np.full(n, "Q0")),
        "doc": doc,
        "rank": from_np(np.asarray(rank)),
        # Arrow prints the shortest decimal that reads back to the same double.
        "score": pc.cast(from_np(np.asarray(score, dtype=np.float64)), pa.string()),
        "tag": pa.array([tag] * n, pa.string()),
    }
    write_text(path, pa.table(columns))
