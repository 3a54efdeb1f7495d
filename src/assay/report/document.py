"""A report document: the plain data an HTML report, a saved result and an exported plot are
made from.

A document is JSON data, so it can be saved (``--save results.json``) and reported later
without recomputing anything (``assay report results.json``)::

    {"title": str, "family": str, "provenance": {...}, "records": [{...}, ...],
     "sections": [{"title": str, "text": str, "items": [{"table": {...}} | {"plot": {...}}]}]}

``records`` and ``provenance`` are the result's own (its machine view); a ``table`` item is a
:class:`~assay.report.table.DisplayTable` as data (:func:`table_to_dict`), a ``plot`` item a
plot specification drawn by :mod:`assay.report.plots`. Text is kept as it came from the data:
each renderer escapes it for its format. A saved file holds several documents under a format
name and a version (:data:`FORMAT`, :data:`VERSION`): as JSON, or as Parquet (:func:`save`
with a ``.parquet`` path), whose rows are the records (a ``result`` column numbers the
documents) and whose schema metadata holds the JSON — readable by any Parquet reader, and
reported by assay like the JSON. :func:`load` refuses anything else with one line naming the
file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .._files import atomic_open, atomic_path
from ..errors import InputError
from ..io.limits import limit
from .records import jsonable
from .saved import MAX_BYTES, MAX_DEPTH, check
from .table import Cell, Column, DisplayTable

__all__ = [
    "FORMAT",
    "METADATA_KEY",
    "VERSION",
    "Document",
    "document",
    "dumps",
    "load",
    "malformed",
    "plots",
    "save",
    "section",
    "table_from_dict",
    "table_to_dict",
    "tables",
]

#: What rendering a hand-edited or damaged saved result can raise from inside the renderers.
_MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError)


@contextmanager
def malformed(what: str, source: str | None = None) -> Iterator[None]:
    """Around rendering saved data: a failure of the data's shape becomes one
    :class:`~assay.errors.InputError` ("a malformed ``what`` in a saved result")."""
    try:
        yield
    except _MALFORMED as exc:
        raise InputError(f"a malformed {what} in a saved result ({exc!r})", source=source) from None


#: The ``format`` field of a saved report file, and the version of its layout.
FORMAT = "assay-report"
VERSION = 1
#: The schema metadata key of a Parquet saved file.
METADATA_KEY = "assay-report"

Document = dict[str, Any]


def table_to_dict(table: DisplayTable) -> dict[str, Any]:
    """A display table as plain data (cells as ``[text, strong, marks, note]``)."""
    return {
        "columns": [{"name": c.name, "align": c.align, "latex": c.latex} for c in table.columns],
        "rows": [[[c.text, c.strong, c.marks, c.note] for c in row] for row in table.cells()],
        "title": table.title,
        "caption": table.caption,
        "legend": table.legend,
        "keys": table.keys,
        "pivot": table.pivot,
    }


def table_from_dict(data: Mapping[str, Any]) -> DisplayTable:
    """The display table :func:`table_to_dict` made."""
    columns = [
        Column(
            str(c["name"]),
            align="right" if c.get("align") == "right" else "left",
            latex=c.get("latex"),
        )
        for c in data["columns"]
    ]
    rows = [
        [Cell(str(t), strong=bool(s), marks=str(m), note=str(n)) for t, s, m, n in row]
        for row in data["rows"]
    ]
    return DisplayTable(
        columns,
        rows,
        title=str(data.get("title", "")),
        caption=str(data.get("caption", "")),
        legend=str(data.get("legend", "")),
        keys=int(data.get("keys", 1)),
        pivot=str(data.get("pivot", "")),
    )


def section(
    title: str, *items: DisplayTable | Mapping[str, Any] | None, text: str = ""
) -> dict[str, Any]:
    """A section: a heading, a paragraph and tables and plots in order (None items left out)."""
    out = []
    for item in items:
        if isinstance(item, DisplayTable):
            out.append({"table": table_to_dict(item)})
        elif item:
            out.append({"plot": dict(item)})
    return {"title": title, "text": text, "items": out}


def document(
    title: str,
    family: str,
    sections: Sequence[Mapping[str, Any]],
    *,
    records: Sequence[Mapping[str, Any]] = (),
    provenance: Mapping[str, Any] | None = None,
) -> Document:
    """A document as plain JSON data (NaN and infinities become ``null``)."""
    body = {
        "title": title,
        "family": family,
        "provenance": dict(provenance or {}),
        "records": [dict(r) for r in records],
        "sections": [dict(s) for s in sections if s.get("items") or s.get("text")],
    }
    out: Document = jsonable(body)
    return out


def dumps(documents: Sequence[Document]) -> str:
    """The text of a saved report file."""
    body = {"format": FORMAT, "version": VERSION, "documents": list(documents)}
    return json.dumps(jsonable(body), indent=1, allow_nan=False) + "\n"


def save(documents: Sequence[Document], path: str | Path) -> None:
    """Write a saved report file: Parquet for a ``.parquet`` path, else JSON."""
    if Path(path).suffix.lower() != ".parquet":
        with atomic_open(path, "w", encoding="utf-8") as fh:
            fh.write(dumps(documents))
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [{"result": i, **r} for i, d in enumerate(documents) for r in d.get("records", [])]
    try:
        table = pa.Table.from_pylist(rows)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # a column of mixed kinds: as text
        table = pa.Table.from_pylist([{k: _text(v) for k, v in r.items()} for r in rows])
    table = table.replace_schema_metadata({METADATA_KEY: dumps(documents)})
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _parquet_metadata(path: str | Path) -> bytes:
    """The saved documents in a Parquet file's schema metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(str(path)).metadata or {}
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"not a Parquet file ({exc})", source=str(path)) from None
    found = meta.get(METADATA_KEY.encode())
    if found is None:
        raise InputError(
            f"a Parquet file without assay's report metadata ({METADATA_KEY}); make one with "
            "--save FILE.parquet",
            source=str(path),
        )
    return bytes(found)


def load(path: str | Path) -> list[Document]:
    """The documents of a saved report file; an :class:`~assay.errors.InputError` naming the
    file when it is not one (or is of a later version)."""
    source = str(path)
    cap = limit("ASSAY_MAX_SAVED_BYTES", MAX_BYTES)
    if Path(path).suffix.lower() == ".parquet":
        raw = _parquet_metadata(path)
    else:
        with open(path, "rb") as fh:  # at most one byte past the cap: /dev/zero is refused too
            raw = fh.read(cap + 1)
    if len(raw) > cap:
        raise InputError(
            f"a saved result larger than {cap:,} bytes; set ASSAY_MAX_SAVED_BYTES to read it",
            source=source,
        )
    data = _parse(raw, source)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(
            f'not a saved assay result (no "format": "{FORMAT}"; make one with --save)',
            source=source,
        )
    version = data.get("version")
    if not isinstance(version, int) or not 1 <= version <= VERSION:
        raise InputError(
            f"saved with report format version {version!r}; this assay reads 1 to {VERSION}",
            source=source,
        )
    docs = data.get("documents")
    if not isinstance(docs, list) or not all(_is_document(d) for d in docs):
        raise InputError("a saved assay result without well-formed documents", source=source)
    check(docs, source)
    return docs


def _is_document(doc: Any) -> bool:
    if not isinstance(doc, dict) or not isinstance(doc.get("sections"), list):
        return False
    return all(isinstance(s, dict) and isinstance(s.get("items"), list) for s in doc["sections"])


def _parse(raw: bytes, source: str) -> Any:
    """JSON text (a UTF-8 byte order mark is skipped): one :class:`InputError` for anything
    that is not strict JSON (``NaN``), or is nested or sized beyond what Python parses."""

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        return json.loads(raw.decode("utf-8-sig"), parse_constant=constant)
    except UnicodeDecodeError as exc:
        raise InputError(f"not a saved assay result (not UTF-8: {exc})", source=source) from None
    except RecursionError:
        raise InputError(
            f"not a saved assay result (JSON nested deeper than Python parses; assay writes "
            f"at most {MAX_DEPTH} levels)",
            source=source,
        ) from None
    except ValueError as exc:  # JSONDecodeError, and integers of more than 4300 digits
        raise InputError(f"not a saved assay result (not JSON: {exc})", source=source) from None


def _items(doc: Document, kind: str) -> Iterator[Any]:
    for s in doc["sections"]:
        for item in s["items"]:
            if kind in item:
                yield item[kind]


def tables(doc: Document) -> list[DisplayTable]:
    """Every table of a document, in order."""
    return [table_from_dict(t) for t in _items(doc, "table")]


def plots(doc: Document) -> list[dict[str, Any]]:
    """Every plot specification of a document, in order."""
    return list(_items(doc, "plot"))
