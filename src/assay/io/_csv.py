"""CSV/TSV records of the task files (labels, scores, ratings), with the line where each
starts, read by Python's csv module in strict mode.

Lines end at ``\\n`` or ``\\r\\n`` only; a lone ``\\r`` outside quotes, a quote that is never
closed, text after a closing quote and a field longer than 128 KiB (:data:`MAX_FIELD`, the
csv module's default limit, checked here too because that limit is process-wide and any
code may change it) are :class:`~assay.errors.ParseError`\\ s naming the line, never a
traceback.
"""

from __future__ import annotations

import csv
import io

from ..errors import ParseError

__all__ = ["MAX_FIELD", "csv_rows"]

#: The longest field a task file may hold, in characters.
MAX_FIELD = 128 * 1024


def csv_rows(text: str, delimiter: str, source: str) -> list[tuple[int, list[str]]]:
    """Every record as (1-based line where it starts, its fields); an empty line is ``[]``."""
    reader = csv.reader(io.StringIO(text, newline="\n"), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    start = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return rows
        except csv.Error as exc:
            raise ParseError(
                _why(str(exc), start, reader.line_num), source=source, line=start
            ) from None
        if row and max(map(len, row)) > MAX_FIELD:
            raise ParseError(
                f"a field longer than {MAX_FIELD} characters", source=source, line=start
            )
        rows.append((start, row))
        start = reader.line_num + 1


def _why(message: str, start: int, now: int) -> str:
    if "new-line character" in message:
        return (
            "a carriage return not followed by a line feed: lines end at \\n or \\r\\n "
            "(convert old Mac line ends, or quote the field)"
        )
    if "field larger than field limit" in message:
        return f"a field longer than {min(csv.field_size_limit(), MAX_FIELD)} characters"
    if "unexpected end of data" in message:
        return f"a quoted field that starts here is never closed (the file ends on line {now})"
    return f"malformed CSV: {message}"
