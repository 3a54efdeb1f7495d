"""Ratings files for inter-rater agreement (``assay agree``, :func:`read_ratings`).

A ratings file is CSV, or TSV when its name ends in ``.tsv``/``.tab`` or its header line
holds a tab; the first non-empty line is the header (each column named once). Two layouts:

- **long**: one rating per row, in a unit column, a rater column and a value column. They
  are named by ``unit_column``/``rater_column``/``value_column`` (other columns are then
  ignored), or found by name in a three-column file: unit/item/subject, rater/coder/
  annotator/observer, value/label/rating/code/category (any case); a three-column file read
  as long with none of these names holds them in this order. The same (unit, rater)
  twice is a :class:`~assay.errors.DuplicateError` naming both lines.
- **wide**: a table of ratings in one of two orientations, always said in
  :meth:`Ratings.describe`:

  - ``units-by-raters`` (the default): one row per unit, one column per rater;
  - ``raters-by-units``: one row per rater, one column per unit (the orientation of the
    krippendorff package's ``reliability_data``); the header holds the unit ids.

  One column may hold the ids of the rows (units, or raters when transposed). It is the
  column named by ``id_column``; with ``id_column=False`` there is none; by default it is the
  column whose name says so (an empty name, unit/item/subject/id, task, doc, document,
  sentence, text, question, query, example, sample, segment, hitid, ... and ``*_id``; for
  rows of raters: rater/coder/annotator/worker, ...). Two such names are an error, and so is,
  with no such name, a text column whose values are all different and none of them a value
  of another column: that is how an id column looks, and taking it for a rater changes
  alpha without a sign, so the reader asks to name it (``id_column``, or ``id_column=False``
  to read it as a rater). A column named like a rater id (worker, annotator_id, ...) in the
  units-by-raters orientation means a long file: the reader asks for its columns. The same
  row id twice is a :class:`~assay.errors.DuplicateError`.

The first line is the header, unless ``header=False`` (then the columns are named ``1``,
``2``, ...). A first line that looks like data -- a text name that is also a value of its own
column, as in a header-less ``item<TAB>label`` file -- is refused: read as a header, its id
column would become a rater. Numbers are not evidence (raters and units are often numbered).

Missing values: empty, ``NA``, ``NaN``, ``.``, ``*``, ``n/a``, ``null``, ``none`` (any case).
The ratings are numbers when every present rating of the file is an ASCII decimal number (``3``,
``-2.5``, ``1e3``), else text; a number that overflows (``1e400``) is an error. Lines end at
``\\n`` or ``\\r\\n``; a lone ``\\r`` outside quotes is an error, and so is a quote never
closed; quoted fields may hold the delimiter and line ends.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .._options import choice, flag
from ..errors import DuplicateError, EmptyInputError, InputError, OptionError, ParseError, shown
from ..io.delimited import csv_rows
from .options import RatingsLayout, RatingsOrientation

PathLike = str | os.PathLike[str]

__all__ = ["Ratings", "read_ratings"]

_MISSING = frozenset({"", "na", "nan", ".", "*", "n/a", "null", "none"})
_UNIT = frozenset({"unit", "item", "subject"})
_RATER = frozenset({"rater", "coder", "annotator", "observer"})
_VALUE = frozenset({"value", "label", "rating", "code", "category"})
# Column names that hold ids of rows, compared without case, "_", "-" or spaces.
_UNIT_IDS = frozenset(
    {
        "",
        "unit",
        "item",
        "subject",
        "id",
        "task",
        "doc",
        "document",
        "sentence",
        "text",
        "question",
        "query",
        "qid",
        "example",
        "sample",
        "segment",
        "utterance",
        "pair",
        "hitid",
        "hit",
        "uid",
        "guid",
        "key",
        "index",
        "idx",
        "unnamed0",
        "instance",
        "case",
        "image",
        "file",
        "filename",
        "url",
    }
)
_RATER_IDS = frozenset(
    {
        "rater",
        "coder",
        "annotator",
        "observer",
        "worker",
        "workerid",
        "judge",
        "assessor",
        "annotatorid",
        "raterid",
        "coderid",
        "user",
        "userid",
    }
)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class Ratings:
    """Ratings read from a file (by :func:`read_ratings`), or built in code.

    :attr:`data` is what the agreement functions take.

    Parameters
    ----------
    source : str
        Where the ratings come from (a path, or a name).
    layout : {"wide", "long"}
        The file's layout.
    units, raters : list of str
        The unit and rater ids.
    matrix : list of list
        One row per unit, one column per rater (``None`` where a rater gave no value),
        whatever the file's orientation.
    long : mapping of str to list, optional
        The rows of a long file as read (``unit``, ``rater``, ``value`` lists).
    orientation : {"units-by-raters", "raters-by-units"}
        The orientation of a wide file.
    id_column : str, optional
        The column the row ids were read from (None: rows are numbered).

    Examples
    --------
    >>> from assay.agreement import Ratings
    >>> r = Ratings("example", "wide", ["u1", "u2"], ["a", "b"], [["x", "x"], ["y", None]])
    >>> r.complete, r.describe()
    (False, 'wide, units × raters: 2 units as rows, 2 raters as columns; no unit ids')
    """

    source: str
    layout: Literal["wide", "long"]
    units: list[str]
    raters: list[str]
    matrix: list[list[Any]]  # Any: rating values of every type (numbers, strings, None)
    long: Mapping[str, list[Any]] | None = None  # Any: the file's values, as read
    orientation: RatingsOrientation = "units-by-raters"
    id_column: str | None = None

    def __repr__(self) -> str:
        # How the file was read, not its (possibly long) table.
        return f"Ratings({self.source!r}, {self.describe()!r})"

    @property
    def data(self) -> Any:
        """The long rows for a long file, else the unit x rater matrix."""
        return dict(self.long) if self.long is not None else self.matrix

    @property
    def complete(self) -> bool:
        """Every unit has every rater's value."""
        return all(v is not None for row in self.matrix for v in row)

    def describe(self) -> str:
        """How the file was read, in words: layout, orientation and the id column."""
        units, raters = f"{len(self.units)} units", f"{len(self.raters)} raters"
        if self.layout == "long":
            return f"long: {units}, {raters}"
        if self.orientation == "raters-by-units":
            shape = f"raters × units: {raters} as rows, {units} as columns"
            ids = "rater ids"
        else:
            shape = f"units × raters: {units} as rows, {raters} as columns"
            ids = "unit ids"
        has_ids = self.id_column is not None
        source = f"{ids} from column {shown(self.id_column or '')}" if has_ids else f"no {ids}"
        return f"wide, {shape}; {source}"


def read_ratings(
    path: PathLike,
    *,
    layout: RatingsLayout = "auto",
    orientation: RatingsOrientation = "units-by-raters",
    id_column: str | Literal[False] | None = None,
    unit_column: str | None = None,
    rater_column: str | None = None,
    value_column: str | None = None,
    header: bool = True,
) -> Ratings:
    """A ratings file, wide or long (see the module documentation). ``layout="auto"`` reads
    the long layout when a unit, rater or value column is named, or when the header has
    exactly the three long columns. ``header=False``: the file has no header line; its
    columns are named by their numbers, ``"1"``, ``"2"``, ... (a first line that looks like
    data is refused when ``header`` is true).

    Parameters
    ----------
    path : str or path-like
        The CSV/TSV file (``-``: stdin; gzip is decompressed).
    layout : {"auto", "wide", "long"}
        The file's layout.
    orientation : {"units-by-raters", "raters-by-units"}
        What the rows of a wide file are.
    id_column : str or False, optional
        A wide file's column of row ids (False: none; None: found by its name).
    unit_column, rater_column, value_column : str, optional
        A long file's columns (None: found by name).
    header : bool
        Whether the first line is a header.

    Returns
    -------
    Ratings
        The ratings (``matrix``: units × raters; ``data``: what the coefficients take) and
        how they were read (:meth:`Ratings.describe`).

    Examples
    --------
    >>> from pathlib import Path
    >>> from assay.agreement import read_ratings
    >>> _ = Path("two_annotators.csv").write_text("unit,ann1,ann2\\nu1,x,x\\nu2,y,x\\n")
    >>> read_ratings("two_annotators.csv").describe()
    "wide, units × raters: 2 units as rows, 2 raters as columns; unit ids from column 'unit'"
    """
    from ..io.text import read_text  # NumPy and pyarrow load with it: only when a file is read

    layout = choice(layout, RatingsLayout, "layout")
    header = flag(header, "header")
    orientation = choice(orientation, RatingsOrientation, "orientation")
    named = {"unit": unit_column, "rater": rater_column, "value": value_column}
    for option, value in [
        ("id_column", id_column),
        *((f"{k}_column", v) for k, v in named.items()),
    ]:
        if value is not None and value is not False and not isinstance(value, str):
            raise OptionError(
                f"{option} must be a column name, got {shown(repr(value))}", option=option
            )
        if value is False and option != "id_column":
            raise OptionError(f"{option} must be a column name, got False", option=option)
    source = os.fspath(path)
    names, header_line, body = _table(read_text(path), source, header)
    if header and id_column in (None, False) and not any(named.values()):
        # a column named and found in the first line proves that line a header
        _check_header(names, header_line, body, source)
    lower = [h.lower() for h in names]
    wants_long = any(v is not None for v in named.values())
    if layout == "wide" and wants_long:
        raise OptionError(
            "unit/rater/value columns name the columns of a long file, not a wide one",
            option="layout",
        )
    if layout == "long" or wants_long or (layout == "auto" and _looks_long(lower)):
        if id_column is not None or orientation != "units-by-raters":
            raise OptionError(
                "id_column and orientation describe a wide file, not a long one", option="layout"
            )
        return _long(names, header_line, body, source, named)
    return _wide(names, header_line, body, source, orientation, id_column)


def _table(
    text: str, source: str, has_header: bool
) -> tuple[list[str], int, list[tuple[int, list[str]]]]:
    """Header names, the header's line, and the data rows with their lines. Without a
    header line the columns are named by their numbers (errors about them name line 1)."""
    first = text.split("\n", 1)[0]
    tab = _base_name(source).endswith((".tsv", ".tab")) or "\t" in first
    rows = [(no, r) for no, r in csv_rows(text, "\t" if tab else ",", source) if r]
    if not rows:
        raise EmptyInputError("no header line" if has_header else "no rows", source=source)
    if not has_header:
        rows.insert(0, (rows[0][0], [str(j) for j in range(1, len(rows[0][1]) + 1)]))
    header_line, raw = rows[0]
    header = [h.strip() for h in raw]
    seen: dict[str, int] = {}
    for h in header:
        seen[h] = seen.get(h, 0) + 1
    twice = [h for h, n in seen.items() if n > 1]
    if twice:
        raise InputError(
            f"the header names column {shown(twice[0])} {seen[twice[0]]} times; each column "
            "must be named once (a file without a header line: header=False, --no-header)",
            source=source,
            line=header_line,
        )
    body = rows[1:]
    for no, r in body:
        if len(r) != len(header):
            raise ParseError(
                f"expected {len(header)} fields (as the header), got {len(r)}",
                source=source,
                line=no,
            )
    if not body:
        raise EmptyInputError("no data rows", source=source, line=header_line + 1)
    return header, header_line, body


def _base_name(source: str) -> str:
    return source[:-3] if source.endswith(".gz") else source


def _check_header(
    header: list[str], line: int, body: list[tuple[int, list[str]]], source: str
) -> None:
    """Refuse a first line that looks like data: a text name that is also a value of its own
    column (``i1<TAB>yes`` above ``i2<TAB>yes``, or a long row whose unit recurs). Read as a
    header, its id would become a rater and its ratings column names, without a sign.
    Numbers are not evidence: raters and units are often named 1, 2, 3."""
    for j, name in enumerate(header):
        cell = _cell(name)
        if cell is None or _NUMBER.fullmatch(cell):
            continue
        again = next((no for no, r in body if r[j].strip() == cell), None)
        if again is not None:
            raise InputError(
                f"the first line looks like data, not a header: {shown(cell, 30)} is also a "
                f"value of its column on line {again}; put a header line first (the names "
                "of the columns) or read the file without one (header=False, --no-header)",
                source=source,
                line=line,
            )


def _looks_long(lower: list[str]) -> bool:
    return (
        len(lower) == 3
        and any(h in _UNIT | {"unit_id", "item_id"} for h in lower)
        and any(h in _RATER | {"rater_id", "coder_id"} for h in lower)
        and any(h in _VALUE for h in lower)
    )


def _key(name: str) -> str:
    return re.sub(r"[\s_\-.]", "", name.lower())


def _cell(text: str) -> str | None:
    t = text.strip()
    return None if t.lower() in _MISSING else t


def _typed(cells: list[str | None], lines: list[int], source: str) -> list[Any]:
    """Numbers when every present cell is an ASCII decimal number, else the strings."""
    if not all(c is None or _NUMBER.fullmatch(c) for c in cells):
        return cells
    out: list[Any] = []
    for c, line in zip(cells, lines, strict=True):
        value = None if c is None else float(c)
        if value is not None and not math.isfinite(value):
            raise ParseError(
                f"rating {shown(str(c))} is not a finite number", source=source, line=line
            )
        out.append(value)
    return out


# ---------------------------------------------------------------- long


def _long(
    header: list[str],
    header_line: int,
    body: list[tuple[int, list[str]]],
    source: str,
    named: dict[str, str | None],
) -> Ratings:
    lower = [h.lower() for h in header]
    index: dict[str, int] = {}
    for role, names in (
        ("unit", _UNIT | {"unit_id", "item_id"}),
        ("rater", _RATER | {"rater_id", "coder_id"}),
        ("value", _VALUE),
    ):
        name = named[role]
        if name is not None:
            if name not in header:
                raise InputError(
                    f"no column {shown(name)} for the {role}s (columns: "
                    f"{', '.join(shown(h, 30) for h in header)})",
                    source=source,
                    line=header_line,
                )
            index[role] = header.index(name)
            continue
        found = [i for i, h in enumerate(lower) if h in names and i not in index.values()]
        if not found and len(header) == 3 and not any(named.values()):
            found = [len(index)]  # three columns, none named as such: unit, rater, value
        if len(found) != 1:
            raise InputError(
                f"the long layout needs three columns (unit, rater, value): name the {role} "
                f"column (columns: {', '.join(shown(h, 30) for h in header)})",
                source=source,
                line=header_line,
            )
        index[role] = found[0]
    if len(set(index.values())) != 3:
        raise InputError(
            "the unit, rater and value columns must be three different columns",
            source=source,
            line=header_line,
        )
    lines = [no for no, _ in body]
    values = _typed([_cell(r[index["value"]]) for _, r in body], lines, source)
    units = [r[index["unit"]].strip() for _, r in body]
    raters = [r[index["rater"]].strip() for _, r in body]
    unit_index = {u: k for k, u in enumerate(dict.fromkeys(units))}
    rater_index = {r: k for k, r in enumerate(dict.fromkeys(raters))}
    matrix: list[list[Any]] = [[None] * len(rater_index) for _ in unit_index]
    first: dict[tuple[str, str], int] = {}
    for u, r, v, no in zip(units, raters, values, lines, strict=True):
        if (u, r) in first:
            raise DuplicateError(
                f"unit {shown(u)} is rated by rater {shown(r)} twice (first on line "
                f"{first[(u, r)]}); each rater rates a unit once",
                source=source,
                line=no,
            )
        first[(u, r)] = no
        matrix[unit_index[u]][rater_index[r]] = v
    long = {"unit": units, "rater": raters, "value": values}
    return Ratings(source, "long", list(unit_index), list(rater_index), matrix, long)


# ---------------------------------------------------------------- wide


def _wide(
    header: list[str],
    header_line: int,
    body: list[tuple[int, list[str]]],
    source: str,
    orientation: RatingsOrientation,
    id_column: str | Literal[False] | None,
) -> Ratings:
    transposed = orientation == "raters-by-units"
    cells = [[_cell(c) for c in r] for _, r in body]
    lines = [no for no, _ in body]
    idx = _id_index(header, header_line, cells, source, transposed, id_column)
    value_cols = [j for j in range(len(header)) if j != idx]
    if not transposed and len(value_cols) < 2:
        raise InputError(
            f"the wide layout needs two or more rater columns; this file has {len(value_cols)}"
            + (f" besides the id column {shown(header[idx])}" if idx is not None else ""),
            source=source,
            line=header_line,
        )
    if transposed and len(body) < 2:
        raise InputError(
            "the raters-by-units orientation needs two or more rater rows; this is the only one",
            source=source,
            line=lines[0],
        )
    if idx is None:
        row_ids = [str(i) for i in range(1, len(body) + 1)]
    else:
        row_ids = [r[idx].strip() for _, r in body]
        _check_unique_ids(row_ids, lines, source, "rater" if transposed else "unit")
    # Every rater rates on one scale: the table is typed as a whole (numbers only when every
    # value is a number), else one rater's 1 would be the number 1.0 and another's the text
    # "1", two categories that never agree.
    flat = _typed(
        [c[j] for c in cells for j in value_cols], [no for no in lines for _ in value_cols], source
    )
    width = len(value_cols)
    rows = [flat[i * width : (i + 1) * width] for i in range(len(cells))]
    if transposed:  # one row per rater: a unit's values are a column
        matrix = [list(unit) for unit in zip(*rows, strict=True)]
        units, raters = [header[j] for j in value_cols], row_ids
    else:
        matrix = rows
        units, raters = row_ids, [header[j] for j in value_cols]
    return Ratings(
        source,
        "wide",
        units,
        raters,
        matrix,
        orientation="raters-by-units" if transposed else "units-by-raters",
        id_column=None if idx is None else header[idx],
    )


def _id_index(
    header: list[str],
    header_line: int,
    cells: list[list[str | None]],
    source: str,
    transposed: bool,
    id_column: str | Literal[False] | None,
) -> int | None:
    """The column of the row ids (None: the rows are numbered)."""
    if id_column is False:
        return None
    if id_column is not None:
        if id_column not in header:
            raise InputError(
                f"no column {shown(id_column)} for the ids (columns: "
                f"{', '.join(shown(h, 30) for h in header)})",
                source=source,
                line=header_line,
            )
        return header.index(id_column)
    own, other = (_RATER_IDS, _UNIT_IDS) if transposed else (_UNIT_IDS, _RATER_IDS)
    by_name = [
        j
        for j, h in enumerate(header)
        if _key(h) in own
        or (not transposed and _key(h).endswith("id") and _key(h)[:-2] in _UNIT_IDS)
    ]
    if not transposed:
        raters_named = [h for h in header if _key(h) in other]
        if raters_named:
            raise InputError(
                f"column {shown(raters_named[0])} holds rater ids: a long file (one rating per "
                "row: name its unit, rater and value columns, --unit-column ...) or a wide one "
                "with a row per rater (orientation raters-by-units)",
                source=source,
                line=header_line,
            )
    if len(by_name) > 1:
        names = " and ".join(shown(header[j]) for j in by_name[:2])
        raise InputError(
            f"columns {names} both look like id columns; name the one that holds the row ids "
            "(id_column, --id-column)",
            source=source,
            line=header_line,
        )
    if by_name:
        return by_name[0]
    suspect = _id_like_columns(cells)
    if len(suspect) == 1:
        j, n = suspect[0], len(cells)
        kind = "rater" if not transposed else "unit"
        raise InputError(
            f"column {shown(header[j] or '')} looks like an id column, not a {kind}: its {n} "
            "values are all different, text, and never a value of another column; name it "
            "as the id column (id_column, --id-column) or read it as ratings "
            "(id_column=False, --no-id-column)",
            source=source,
            line=header_line,
        )
    return None


def _id_like_columns(cells: list[list[str | None]]) -> list[int]:
    """Columns that look like ids: every value present, all different, some not a number,
    and none of them a value of any other column."""
    if len(cells) < 2:
        return []
    columns = list(zip(*cells, strict=True))
    out = []
    for j, col in enumerate(columns):
        if any(v is None for v in col) or len(set(col)) != len(col):
            continue
        if all(_NUMBER.fullmatch(v or "") for v in col):
            continue
        others = {v for k, c in enumerate(columns) if k != j for v in c if v is not None}
        if others.isdisjoint(col):
            out.append(j)
    return out


def _check_unique_ids(ids: list[str], lines: list[int], source: str, what: str) -> None:
    first: dict[str, int] = {}
    for value, no in zip(ids, lines, strict=True):
        if not value:
            raise ParseError(f"empty {what} id", source=source, line=no)
        if value in first:
            raise DuplicateError(
                f"{what} {shown(value)} has a second row (first on line {first[value]}); each "
                f"{what} has one row",
                source=source,
                line=no,
            )
        first[value] = no
