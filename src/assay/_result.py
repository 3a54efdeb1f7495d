"""The result protocol every result type follows.

A result is a frozen dataclass with a ``provenance`` mapping (what produced it: assay's
version, the options, seeds, inputs) and ``records()``, flat rows of plain Python values
that every output format, data frame and report is built from. Every result also reads well
where people look at it: ``repr()`` fits on one screen (arrays and long collections are
summarised, never dumped) and ``_repr_html_()`` shows its records as a table in a notebook.
Results of the families and of the ranking core add ``report()`` and ``document()``
(:class:`assay.report.Reported`), from which the CLI prints and writes ``--report``.
"""

from __future__ import annotations

import dataclasses
import platform
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast, runtime_checkable

from ._version import __version__

if TYPE_CHECKING:
    import pandas as pd


@runtime_checkable
class ResultLike(Protocol):
    """What every assay result offers."""

    @property
    def provenance(self) -> Mapping[str, Any]: ...

    def records(self) -> list[dict[str, Any]]: ...

    def to_pandas(self) -> pd.DataFrame: ...


#: A ``repr()`` is one screen: at most this many characters.
REPR_LIMIT = 2000
#: Rows of ``records()`` a notebook's HTML view shows before "… n more rows".
HTML_ROWS = 20
#: Items of a collection shown by a short repr before "… n more".
_SHOWN_ITEMS = 6


class Result:
    """Base of the result types: ``to_pandas()`` from ``records()``, a one-screen ``repr()``
    and a notebook view (``_repr_html_``).

    Subclasses are frozen dataclasses with a ``provenance`` field and a ``records()`` method;
    they are declared with ``repr=False`` so that this ``__repr__`` (fields in order, arrays,
    long sequences and mappings summarised, provenance left out) is the one used.
    """

    __slots__ = ()

    def records(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return short_repr(self)

    def _repr_html_(self) -> str:
        """The records as an HTML table (the first :data:`HTML_ROWS` rows), escaped."""
        return records_html(type(self).__name__, self.records())

    def to_pandas(self) -> pd.DataFrame:
        """``records()`` as a pandas DataFrame (needs the ``frames`` extra)."""
        from ._optional import require

        pandas = require("pandas")
        return cast("pd.DataFrame", pandas.DataFrame.from_records(self.records()))


class TupleResult(Result):
    """A small result that unpacks, indexes, hashes and compares like the tuple of its
    ``_fields`` (what it was before the result protocol): ``tp, fp, fn, tn = counts``,
    ``counts == (1, 2, 1, 6)``. ``provenance`` takes no part in comparisons.
    ``records()``: one row with the fields."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __iter__(self) -> Iterator[Any]:
        return (getattr(self, name) for name in self._fields)

    def __getitem__(self, index: int) -> Any:
        return tuple(self)[index]

    def __len__(self) -> int:
        return len(self._fields)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple | TupleResult):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def records(self) -> list[dict[str, Any]]:
        return [{name: getattr(self, name) for name in self._fields}]


def short(value: Any, budget: int = 120) -> str:
    """A short repr of ``value``: arrays as shape and dtype, long sequences and mappings as
    their first items and a count, anything else cut at ``budget`` characters."""
    shape = getattr(value, "shape", None)
    if shape is not None and getattr(value, "dtype", None) is not None and len(shape) > 0:
        return f"<array shape={tuple(shape)} dtype={value.dtype}>"
    if isinstance(value, Result) and dataclasses.is_dataclass(value):
        return f"<{type(value).__name__}>"
    if isinstance(value, Mapping):
        items = list(value.items())
        shown = ", ".join(f"{k!r}: {short(v, 40)}" for k, v in items[:_SHOWN_ITEMS])
        more = f", … {len(items) - _SHOWN_ITEMS} more" if len(items) > _SHOWN_ITEMS else ""
        return _cut("{" + shown + more + "}", budget)
    if isinstance(value, list | tuple) and len(value) > _SHOWN_ITEMS:
        shown = ", ".join(short(v, 40) for v in value[:_SHOWN_ITEMS])
        return _cut(f"[{shown}, … {len(value) - _SHOWN_ITEMS} more]", budget)
    return _cut(repr(value), budget)


def _cut(text: str, budget: int) -> str:
    return text if len(text) <= budget else text[: budget - 1] + "…"


def short_repr(result: Any) -> str:
    """``Name(field=value, ...)`` of a dataclass result in at most :data:`REPR_LIMIT`
    characters: every field but ``provenance``, each summarised by :func:`short`."""
    name = type(result).__name__
    fields = [f.name for f in dataclasses.fields(result) if f.repr and f.name != "provenance"]
    parts = [f"{name}={short(getattr(result, name))}" for name in fields]
    return _cut(f"{name}({', '.join(parts)})", REPR_LIMIT)


def records_html(title: str, records: list[dict[str, Any]]) -> str:
    """An HTML table of ``records`` (the first :data:`HTML_ROWS`), every text escaped."""
    import html  # here: only an HTML view needs it, not every result's import

    columns = list(dict.fromkeys(key for row in records for key in row))
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(row.get(c)))}</td>" for c in columns) + "</tr>"
        for row in records[:HTML_ROWS]
    )
    more = len(records) - HTML_ROWS
    note = f"<p>… {more} more rows</p>" if more > 0 else ""
    return (
        f"<div><strong>{html.escape(title)}</strong><table><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>{note}</div>"
    )


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def provenance(**settings: Any) -> dict[str, Any]:
    """A provenance mapping: assay's and Python's versions, then ``settings`` in order."""
    return {"assay_version": __version__, "python": platform.python_version(), **settings}
