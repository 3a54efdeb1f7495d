"""Records (flat rows of plain values) as machine text: TSV, CSV, JSON Lines and JSON.

One renderer for every result: TSV and CSV show ``columns`` (a missing key is an empty
field) with :func:`~assay.report.values.plain` values, CSV always under a header line, TSV
under one only when asked; JSON Lines writes every key of every row; JSON writes
``{key: [rows], **document}`` indented. Values go through
:func:`~assay.report.values.json_value` in both JSON formats (NaN is ``null``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .._options import choice
from .values import json_value, plain

__all__ = ["RecordFormat", "render_records"]

RecordFormat = Literal["tsv", "csv", "jsonl", "json"]


def render_records(
    rows: Sequence[Mapping[str, Any]],
    fmt: RecordFormat,
    *,
    columns: Sequence[str],
    tsv_header: bool = False,
    key: str = "results",
    document: Mapping[str, Any] | None = None,
) -> str:
    """``rows`` in a machine format (see the module documentation)."""
    fmt = choice(fmt, RecordFormat, "format")
    if fmt == "tsv":
        lines = ["\t".join(columns)] if tsv_header else []
        lines += ["\t".join(plain(row.get(c)) for c in columns) for row in rows]
        return "".join(line + "\n" for line in lines)
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([plain(row.get(c)) for c in columns] for row in rows)
        return buf.getvalue()
    if fmt == "jsonl":
        return "".join(json.dumps(_json_row(row)) + "\n" for row in rows)
    doc = {key: [_json_row(row) for row in rows], **(document or {})}
    return json.dumps(doc, indent=2) + "\n"


def _json_row(row: Mapping[str, Any]) -> dict[str, Any]:
    return {k: json_value(v) for k, v in row.items()}
