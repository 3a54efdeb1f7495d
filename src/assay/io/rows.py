"""Lines of CSV/TSV and JSON Lines rows, for messages.

Arrow's readers count rows, not lines; a message about row ``i`` names the line where that
row starts. The lines are found again from the file's bytes when a message needs them (the
error path), following the row rules of Arrow's readers:

- **CSV/TSV**: a row ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``, except inside a quoted field;
  a field is quoted when it starts with ``"`` (``""`` inside is a quote; text after the
  closing quote joins the field; a quote that is never closed runs to the end of the file); a
  quote inside an unquoted field is text. Empty lines are not rows.
- **JSON Lines**: rows are the top-level JSON values in order, whatever white space (one or
  more line ends) separates them.

Line numbers count line feeds (``\\n``), as editors, ``sed -n`` and ``wc -l`` do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Literal

__all__ = [
    "RowLines",
    "csv_fields",
    "csv_header",
    "csv_records",
    "first_bad_row",
    "json_failure_line",
]


def _field_pattern(delimiter: str) -> str:
    d = re.escape(delimiter)
    quoted = r'"(?:[^"]++|"")*+"'
    unclosed = r'"(?:[^"]++|"")*+\Z'
    return rf"(?:{quoted}[^{d}\r\n]*+|{unclosed}|[^{d}\r\n]*+)"


_RECORDS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {}


def _patterns(delimiter: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(one record with its line end, one field) for ``delimiter``."""
    if delimiter not in _RECORDS:
        field = _field_pattern(delimiter)
        d = re.escape(delimiter)
        record = re.compile(rf"{field}(?:{d}{field})*+(?:\r\n|\r|\n|\Z)")
        _RECORDS[delimiter] = (record, re.compile(field))
    return _RECORDS[delimiter]


def csv_records(text: str, delimiter: str, limit: int | None = None) -> list[tuple[int, str]]:
    """The non-empty records of ``text`` (the first ``limit`` of them) as (1-based line where
    the record starts, its text without the line end)."""
    record, _ = _patterns(delimiter)
    out: list[tuple[int, str]] = []
    pos, line = 0, 1
    while pos < len(text) and (limit is None or len(out) < limit):
        m = record.match(text, pos)
        end = m.end() if m is not None and m.end() > pos else len(text)
        raw = text[pos:end]
        body = raw[:-2] if raw.endswith("\r\n") else raw[:-1] if raw.endswith(("\n", "\r")) else raw
        if body:
            out.append((line, body))
        line += text.count("\n", pos, end)
        pos = end
    return out


def csv_fields(record: str, delimiter: str) -> list[str]:
    """The fields of one record, unquoted as Arrow does."""
    _, field = _patterns(delimiter)
    fields: list[str] = []
    pos = 0
    while True:
        m = field.match(record, pos)
        end = m.end() if m else pos
        fields.append(_unquote(record[pos:end]))
        if end < len(record) and record[end] == delimiter:
            pos = end + 1
            continue
        return fields


def _unquote(text: str) -> str:
    if not text.startswith('"'):
        return text
    m = _QUOTED.match(text)
    if m is None:  # pragma: no cover - the pattern matches any text starting with a quote
        return text
    return m.group(1).replace('""', '"') + text[m.end() :]


_QUOTED = re.compile(r'"((?:[^"]++|"")*+)"?')


def csv_header(text: str, delimiter: str) -> tuple[int, list[str]] | None:
    """The line of the header and its column names (None: no record at all)."""
    records = csv_records(text, delimiter, 1)
    if not records:
        return None
    line, body = records[0]
    return line, csv_fields(body, delimiter)


def first_bad_row(text: str, delimiter: str) -> tuple[int, str] | None:
    """The line of the first data row whose number of fields differs from the header's, and
    what is wrong (None: every row has the header's width)."""
    records = csv_records(text, delimiter)
    if not records:
        return None
    width = len(csv_fields(records[0][1], delimiter))
    for line, body in records[1:]:
        n = len(csv_fields(body, delimiter))
        if n != width:
            return line, f"{n} field{'s' if n != 1 else ''}, the header has {width}"
    return None


def json_failure_line(text: str) -> int | None:
    """The line where the first top-level JSON value that does not parse starts (None:
    every value parses)."""
    failed: list[bool] = []
    starts = _json_starts(text, failed)
    return starts[-1] if failed and starts else None


def _json_starts(text: str, failed: list[bool] | None = None) -> list[int]:
    """The line where every top-level JSON value starts, up to and including the first that
    does not parse (``failed`` then gets an element)."""
    decoder = json.JSONDecoder()
    ws = re.compile(r"[ \t\r\n]*")
    starts: list[int] = []
    pos, line, counted = 0, 1, 0
    while True:
        m = ws.match(text, pos)
        pos = m.end() if m else pos
        if pos >= len(text):
            return starts
        line += text.count("\n", counted, pos)
        counted = pos
        starts.append(line)
        try:
            _, pos = decoder.raw_decode(text, pos)
        except (ValueError, RecursionError):
            if failed is not None:
                failed.append(True)
            return starts


class RowLines:
    """The 1-based line where each row of a CSV/TSV or JSON Lines input starts, found on first
    use from ``load()`` (the file's bytes). ``lines[i]`` is None when it cannot be said."""

    def __init__(
        self,
        load: Callable[[], bytes],
        kind: Literal["csv", "jsonl"],
        delimiter: str = ",",
    ) -> None:
        self._load = load
        self._kind = kind
        self._delimiter = delimiter
        self._starts: list[int] | None = None

    def _compute(self) -> list[int]:
        try:
            text = self._load().decode("utf-8", "replace")
        except Exception:  # the file changed or vanished since it was read: no lines
            return []
        if text.startswith("\ufeff"):
            text = text[1:]
        if self._kind == "jsonl":
            return _json_starts(text)
        return [line for line, _ in csv_records(text, self._delimiter)[1:]]

    def __getitem__(self, row: int) -> int | None:
        if self._starts is None:
            self._starts = self._compute()
        return self._starts[int(row)] if 0 <= int(row) < len(self._starts) else None
