"""Lines and columns of the task files, shared by the family readers (labels and scores,
clusterings, votes, ...).

Every reader takes a path (``-`` reads stdin; gzip is decompressed, by content) and raises a
:class:`~assay.errors.ParseError` (or another :class:`~assay.errors.InputError`) naming the
file and the 1-based line of a malformed line. The bytes are read by
:func:`assay.io.text.read_text` (UTF-8, a BOM ignored, bounded: see :mod:`assay.io.streams`).

**Lines** end at ``\\n`` or ``\\r\\n`` and nowhere else: not at ``\\v``, ``\\f``, U+0085
or U+2028, where Python's ``str.splitlines`` would split, so that two files read line by line
stay aligned; a lone ``\\r`` is an error (old Mac line ends would make one long line). White
space inside a line is ASCII white space (:data:`SPACE`: space, tab, ``\\v``, ``\\f``,
``\\r``); other characters (a no-break space, U+2028) are part of the text.

**A column of values** (:func:`read_column`: labels, scores, ...) — ``.csv`` / ``.tsv``
(optionally ``.gz``): a header line and a named column (a one-column file needs no name; each
column named once; Python's csv rules, strict: a quote never closed is an error); in a
one-column file, a header that is also a value of its column, or a number above numbers, is
refused (it is data: reading it as the header would drop the first item); any other file: one
value per line, white space around it trimmed. Blank lines are errors.
"""

from __future__ import annotations

import os
import re

from ..errors import EmptyInputError, InputError, ParseError, shown
from ._csv import csv_rows

PathLike = str | os.PathLike[str]

__all__ = ["SPACE", "PathLike", "base_name", "file_text", "read_column", "split_lines"]

#: ASCII white space inside a line.
SPACE = " \t\x0b\x0c\r"


def file_text(path: PathLike) -> str:
    """The text of a file (see the module documentation)."""
    from .text import read_text  # NumPy and pyarrow load with it: only when a file is read

    return read_text(path)


def split_lines(text: str, source: str) -> list[str]:
    """The lines of ``text``: split at ``\\n`` only, a ``\\r`` before it dropped, a final line
    end not starting another line; a lone ``\\r`` is a :class:`ParseError` naming its line."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if "\r" in text and any("\r" in line for line in lines):
        no = next(i for i, line in enumerate(lines, 1) if "\r" in line)
        raise ParseError(
            "a carriage return not followed by a line feed: lines end at \\n or \\r\\n "
            "(convert old Mac line ends with tr '\\r' '\\n')",
            source=source,
            line=no,
        )
    return lines


def base_name(source: str) -> str:
    """``source`` without a final ``.gz``."""
    return source[:-3] if source.endswith(".gz") else source


def read_column(
    path: PathLike,
    *,
    column: str | None = None,
    name: str = "values",
    column_hint: str = "the column argument",
) -> tuple[list[str], list[int]]:
    """The values of a file of one value per item, and their 1-based line numbers (the
    layouts of the module documentation).

    ``column`` names the column of a ``.csv``/``.tsv`` file (needed when it has several);
    ``name`` is what the values are called in error messages and ``column_hint`` how the
    message tells the reader to name a column (the CLI passes its flags).
    """
    what, hint = name, column_hint
    source = os.fspath(path)
    text = file_text(path)
    base = base_name(source)
    delim = "," if base.endswith(".csv") else "\t" if base.endswith(".tsv") else None
    if delim is None:
        values, lines = _one_per_line(text, source, what)
    else:
        values, lines = _delimited_column(text, delim, source, column, what, hint)
    if not values:
        raise EmptyInputError(f"no {what} values", source=source)
    return values, lines


def _one_per_line(text: str, source: str, what: str) -> tuple[list[str], list[int]]:
    values: list[str] = []
    lines: list[int] = []
    for i, line in enumerate(split_lines(text, source), start=1):
        value = line.strip()
        if not value:
            raise ParseError(
                f"blank line: {what} files hold one value per line", source=source, line=i
            )
        values.append(value)
        lines.append(i)
    return values, lines


def _delimited_column(
    text: str, delim: str, source: str, column: str | None, what: str, hint: str
) -> tuple[list[str], list[int]]:
    rows = csv_rows(text, delim, source)
    while rows and not rows[0][1]:
        rows.pop(0)  # blank lines before the header
    if not rows:
        raise EmptyInputError("empty file (a header line is expected)", source=source)
    header_line, header = rows[0]
    col = _column_index(header, column, source, what, hint, header_line)
    values: list[str] = []
    lines: list[int] = []
    for i, row in rows[1:]:
        if not row:
            raise ParseError("blank line", source=source, line=i)
        if len(row) != len(header):
            raise ParseError(
                f"{len(row)} fields, the header has {len(header)}", source=source, line=i
            )
        values.append(row[col].strip())
        lines.append(i)
    if column is None:  # a named column found in the first line: that line is a header
        _check_header(header[col].strip(), header_line, values, lines, source)
    return values, lines


_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _check_header(name: str, line: int, values: list[str], lines: list[int], source: str) -> None:
    """Refuse a header that looks like data: a name that is also a value of its column, or
    a number above a column of numbers. Taken for the header, the first item would be
    dropped and every item after it compared with the wrong one, without a sign."""
    again = next((no for v, no in zip(values, lines, strict=True) if v == name), None)
    numeric = bool(values) and all(_NUMBER.fullmatch(v) for v in [name, *values])
    if again is None and not numeric:
        return
    why = f"it is also a value on line {again}" if again is not None else "it is a number"
    raise InputError(
        f"the first line looks like data, not a header: {shown(name, 30)} ({why}); a .csv/.tsv "
        "file starts with a header line naming its columns (a file of one value per line "
        "needs no header: give it another extension, such as .txt)",
        source=source,
        line=line,
    )


def _column_index(
    header: list[str], column: str | None, source: str, what: str, hint: str, line: int
) -> int:
    if column is None:
        if len(header) != 1:
            raise InputError(
                f"{len(header)} columns ({', '.join(header)}); name the {what} column with {hint}",
                source=source,
                line=line,
            )
        return 0
    if column not in header:
        raise InputError(
            f"no column {column!r} (columns: {', '.join(header)})", source=source, line=line
        )
    if header.count(column) > 1:
        raise InputError(
            f"the header names column {shown(column)} {header.count(column)} times; the "
            f"{what} column must be named once",
            source=source,
            line=line,
        )
    return header.index(column)
