"""Records (flat rows of plain values) as machine text: TSV, CSV, JSON Lines and JSON.

One renderer for every result: TSV and CSV show ``columns`` under a header line (a missing
key is an empty field) with :func:`~assay.report.values.plain` values; TSV fields escape
backslash, tab, newline and other control characters (:func:`assay.report.escape.tsv`); CSV
fields are escaped the same way and quoted as RFC 4180 does, and a text field that a
spreadsheet would run as a formula (``=HYPERLINK(...)``, ``@``, ``-cmd``) starts with ``'``
(:func:`assay.report.escape.csv`; numbers, ``-0.5`` included, are written as they are). JSON Lines writes every key of every row; JSON writes
``{key: [rows], **document}`` indented. Both JSON formats are strict JSON (:func:`jsonable`:
NaN and infinities are ``null``, NumPy values plain numbers, control characters escaped).
"""

from __future__ import annotations

import csv
import io
import json
import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

from .._options import choice
from . import escape
from .values import json_value, plain

__all__ = ["RecordFormat", "jsonable", "render_records"]

RecordFormat = Literal["tsv", "csv", "jsonl", "json"]


def render_records(
    rows: Sequence[Mapping[str, object]],
    fmt: RecordFormat,
    *,
    columns: Sequence[str],
    key: str = "results",
    document: Mapping[str, object] | None = None,
) -> str:
    """Records (flat rows of plain values) as machine text: TSV, CSV, JSON Lines or JSON.

    TSV and CSV show ``columns`` under a header line (a missing key is an empty field) with
    :func:`~assay.report.values.plain` values, escaped for the format (a CSV text field that
    a spreadsheet would run as a formula starts with ``'``). JSON Lines writes every key of
    every row; JSON writes ``{key: rows, **document}`` indented. Both JSON formats are strict
    JSON: NaN and infinities are ``null``.

    Parameters
    ----------
    rows : sequence of mappings
        The records, ``{column: value}``.
    fmt : {"tsv", "csv", "jsonl", "json"}
        The format.
    columns : sequence of str
        The TSV and CSV columns, in order (JSON Lines and JSON write every key).
    key : str
        The JSON key of the records.
    document : mapping, optional
        More JSON data written next to the records (JSON only): provenance, settings.

    Returns
    -------
    str
        The text, ending with a newline.

    Raises
    ------
    OptionError
        An unknown format.

    Examples
    --------
    >>> from assay.report import render_records
    >>> rows = [{"run": "bm25", "P@5": 0.5}, {"run": "dense", "P@5": float("nan")}]
    >>> print(render_records(rows, "csv", columns=["run", "P@5"]), end="")
    run,P@5
    bm25,0.5
    dense,nan
    >>> render_records(rows, "tsv", columns=["run", "P@5"]).splitlines()
    ['run\\tP@5', 'bm25\\t0.5', 'dense\\tnan']
    >>> print(render_records(rows, "jsonl", columns=["run", "P@5"]), end="")
    {"run": "bm25", "P@5": 0.5}
    {"run": "dense", "P@5": null}
    """
    fmt = choice(fmt, RecordFormat, "format")
    if fmt == "tsv":
        lines = ["\t".join(escape.tsv(c) for c in columns)]
        lines += ["\t".join(escape.tsv(plain(row.get(c))) for c in columns) for row in rows]
        return "".join(line + "\n" for line in lines)
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow([escape.csv(c) for c in columns])
        writer.writerows([_csv_field(row.get(c)) for c in columns] for row in rows)
        return buf.getvalue()
    if fmt == "jsonl":
        return "".join(json.dumps(jsonable(row), allow_nan=False) + "\n" for row in rows)
    doc = {key: [jsonable(row) for row in rows], **jsonable(dict(document or {}))}
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def _csv_field(value: Any) -> str:
    """A number as :func:`~assay.report.values.plain` writes it (``-0.5`` stays a number); any
    other value as text escaped for CSV (:func:`assay.report.escape.csv`)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return plain(value)
    return escape.csv(plain(value))


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: mappings with string keys, lists, numbers (NaN and
    infinities as ``null``), strings, booleans and ``null``; anything else as its text."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, numbers.Number):
        converted = json_value(value)
        if converted is None or isinstance(converted, int):
            return converted
        # A real number is a float here (json_value made it one); a complex one raises.
        return converted if math.isfinite(cast(float, converted)) else None
    if hasattr(value, "tolist"):
        return jsonable(value.tolist())
    return str(value)
