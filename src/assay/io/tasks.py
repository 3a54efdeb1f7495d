"""Readers of the task files: labels and scores (classification), clusterings, ratings
(inter-rater agreement) and votes (rank aggregation).

Every reader takes a path (``-`` reads stdin; ``.gz`` is decompressed, by content) and raises
a :class:`~assay.errors.ParseError` (or another :class:`~assay.errors.InputError`) naming the
file and the 1-based line of a malformed line. Only the standard library is imported here;
the bytes are read by :func:`assay.io.text.read_text` (UTF-8, a BOM ignored).

Layouts:

- **labels / scores** — ``.csv`` / ``.tsv`` (optionally ``.gz``): a header line and a named
  column (a one-column file needs no name); any other file: one value per line. Blank lines
  are errors. Scores are finite numbers.
- **clusterings** — chosen from the first non-blank line: when it holds a tab, every line is
  ``item<TAB>cluster`` (an item on several lines belongs to all those clusters; the same line
  twice is an error); otherwise one cluster per line, items separated by white space, where a
  token ``name:number`` is an item with a weight (the last colon counts: ``12:30:1`` is item
  ``12:30`` with weight 1; weights must be > 0). Blank lines are ignored; there is no comment
  syntax.
- **ratings** — CSV, or TSV when the name ends in ``.tsv``/``.tab`` or the header line holds
  a tab; the first line is a header. *long*: three columns named (any case) unit/item/subject,
  rater/coder/annotator/observer and value/label/rating/code/category, one rating per row;
  *wide*: one column per rater, one row per unit, with an optional first unit-id column
  (unit/item/subject/id/unit_id/item_id). Missing cells: empty, ``NA``, ``NaN``, ``.``,
  ``*``, ``n/a``, ``null``, ``none``. Values are numbers when every non-missing value of a
  column parses as one, else strings.
- **votes** — one ranking per line, best first; a line holding a comma is split on commas
  (white space around each candidate trimmed), otherwise on white space. Blank lines and lines
  starting with ``#`` are skipped; a candidate twice in one ranking is an error.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .._options import choice
from ..errors import DuplicateError, EmptyInputError, InputError, ParseError

PathLike = str | os.PathLike[str]
RatingsLayout = Literal["auto", "wide", "long"]

__all__ = [
    "Clustering",
    "Ratings",
    "RatingsLayout",
    "read_clustering",
    "read_labels",
    "read_ratings",
    "read_scores",
    "read_votes",
]

_MISSING = frozenset({"", "na", "nan", ".", "*", "n/a", "null", "none"})
_UNIT = frozenset({"unit", "item", "subject", "id", "unit_id", "item_id"})
_RATER = frozenset({"rater", "coder", "annotator", "observer", "rater_id", "coder_id"})
_VALUE = frozenset({"value", "label", "rating", "code", "category"})


def _text(path: PathLike) -> str:
    from .text import read_text  # NumPy and pyarrow load with it: only when a file is read

    return read_text(path)


def _base_name(source: str) -> str:
    return source[:-3] if source.endswith(".gz") else source


# ---------------------------------------------------------------- labels and scores


def read_labels(
    path: PathLike,
    *,
    column: str | None = None,
    name: str = "labels",
    column_hint: str = "the column argument",
) -> list[str]:
    """The labels of a file, one per item, as strings (white space around them trimmed).

    ``column`` names the column of a ``.csv``/``.tsv`` file (needed when it has several);
    ``name`` is what the values are called in error messages and ``column_hint`` how the
    message tells the reader to name a column (the CLI passes its flags).
    """
    values, _ = _read_column(path, column, name, column_hint)
    return values


def read_scores(
    path: PathLike,
    *,
    column: str | None = None,
    name: str = "scores",
    column_hint: str = "the column argument",
) -> list[float]:
    """The scores of a file, one finite number per item (same layouts as
    :func:`read_labels`); a value that is not a finite number is a :class:`ParseError`."""
    from .text import parse_number

    source = os.fspath(path)
    values, lines = _read_column(path, column, name, column_hint)
    return [parse_number(v, source, line) for v, line in zip(values, lines, strict=True)]


def _read_column(
    path: PathLike, column: str | None, what: str, hint: str
) -> tuple[list[str], list[int]]:
    """Values and their 1-based line numbers."""
    source = os.fspath(path)
    text = _text(path)
    base = _base_name(source)
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
    for i, line in enumerate(text.splitlines(), start=1):
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
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    try:
        header = next(reader)
    except StopIteration:
        raise EmptyInputError("empty file (a header line is expected)", source=source) from None
    col = _column_index(header, column, source, what, hint)
    values: list[str] = []
    lines: list[int] = []
    for row in reader:
        i = reader.line_num
        if not row:
            raise ParseError("blank line", source=source, line=i)
        if len(row) != len(header):
            raise ParseError(
                f"{len(row)} fields, the header has {len(header)}", source=source, line=i
            )
        values.append(row[col].strip())
        lines.append(i)
    return values, lines


def _column_index(header: list[str], column: str | None, source: str, what: str, hint: str) -> int:
    if column is None:
        if len(header) != 1:
            raise InputError(
                f"{len(header)} columns ({', '.join(header)}); name the {what} column with {hint}",
                source=source,
            )
        return 0
    if column not in header:
        raise InputError(f"no column {column!r} (columns: {', '.join(header)})", source=source)
    return header.index(column)


# ---------------------------------------------------------------- clusterings


@dataclass(frozen=True)
class Clustering:
    """A clustering read from a file: clusters as ``{item: weight}`` dicts, in file order.

    ``layout`` is ``"labels"`` (item<TAB>cluster lines) or ``"clusters"`` (one cluster per
    line); ``weighted`` is true when some item carried an explicit weight.
    """

    source: str
    layout: Literal["labels", "clusters"]
    clusters: list[dict[str, float]]
    weighted: bool
    memberships: int = field(init=False)
    items: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "memberships", sum(len(c) for c in self.clusters))
        object.__setattr__(self, "items", frozenset().union(*self.clusters))

    @property
    def hard(self) -> bool:
        """Every item in exactly one cluster, with no explicit weight."""
        return not self.weighted and self.memberships == len(self.items)

    def labels(self) -> dict[str, int]:
        """``{item: cluster number}`` (0-based, in file order); for a hard clustering."""
        return {item: k for k, c in enumerate(self.clusters) for item in c}


def read_clustering(path: PathLike) -> Clustering:
    """A clustering file in either layout (see the module documentation)."""
    source = os.fspath(path)
    lines = _text(path).splitlines()
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        raise EmptyInputError("no cluster", source=source)
    if "\t" in first:
        return Clustering(source, "labels", _label_lines(lines, source), weighted=False)
    clusters, weighted = _cluster_lines(lines, source)
    return Clustering(source, "clusters", clusters, weighted=weighted)


def _label_lines(lines: list[str], source: str) -> list[dict[str, float]]:
    clusters: list[dict[str, float]] = []
    index: dict[str, int] = {}
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
            raise ParseError(
                f"expected item<TAB>cluster (the labels layout, chosen from the first "
                f"line), got {len(fields)} field(s): {line[:60]!r}",
                source=source,
                line=no,
            )
        item, label = fields[0].strip(), fields[1].strip()
        k = index.setdefault(label, len(index))
        if k == len(clusters):
            clusters.append({})
        if item in clusters[k]:
            raise DuplicateError(
                f"item {item!r} is in cluster {label!r} twice", source=source, line=no
            )
        clusters[k][item] = 1.0
    return clusters


def _cluster_lines(lines: list[str], source: str) -> tuple[list[dict[str, float]], bool]:
    clusters: list[dict[str, float]] = []
    weighted = False
    for no, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens:
            continue
        cluster: dict[str, float] = {}
        for tok in tokens:
            name, w, explicit = _weighted_item(tok, source, no)
            weighted = weighted or explicit
            if name in cluster:
                raise DuplicateError(
                    f"item {name!r} appears twice in this cluster", source=source, line=no
                )
            cluster[name] = w
        clusters.append(cluster)
    return clusters, weighted


def _weighted_item(token: str, source: str, line: int) -> tuple[str, float, bool]:
    """``(item, weight, explicit)`` of a token: ``name:number`` carries a weight."""
    name, sep, tail = token.rpartition(":")
    w = _weight(tail) if sep and name else None
    if w is None:
        return token, 1.0, False
    if w <= 0:
        raise InputError(
            f"item {name!r} has weight {tail}; weights must be > 0", source=source, line=line
        )
    return name, w, True


def _weight(text: str) -> float | None:
    try:
        w = float(text)
    except ValueError:
        return None
    return w if math.isfinite(w) else None


# ---------------------------------------------------------------- ratings


@dataclass(frozen=True)
class Ratings:
    """Ratings read from a file.

    ``matrix`` has one row per unit and one column per rater (``None`` where a rater gave no
    value); ``long`` holds the rows of a long file as read (``{"unit", "rater", "value"}``
    lists; ``None`` for a wide file). :attr:`data` is what the agreement functions take.
    """

    source: str
    layout: Literal["wide", "long"]
    units: list[str]
    raters: list[str]
    matrix: list[list[Any]]
    long: Mapping[str, list[Any]] | None = None

    @property
    def data(self) -> Any:
        """The long rows for a long file, else the unit x rater matrix."""
        return dict(self.long) if self.long is not None else self.matrix

    @property
    def complete(self) -> bool:
        """Every unit has every rater's value."""
        return all(v is not None for row in self.matrix for v in row)


def read_ratings(path: PathLike, *, layout: RatingsLayout = "auto") -> Ratings:
    """A ratings file, wide or long (``"auto"``: long when the header has exactly the three
    long columns, see the module documentation)."""
    layout = choice(layout, RatingsLayout, "layout")
    source = os.fspath(path)
    header, body = _ratings_rows(_text(path), source)
    lower = [h.lower() for h in header]
    if layout == "long" or (layout == "auto" and _looks_long(lower)):
        return _long_ratings(header, lower, body, source)
    return _wide_ratings(header, lower, body, source)


def _ratings_rows(text: str, source: str) -> tuple[list[str], list[list[str]]]:
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise EmptyInputError("no header line", source=source)
    tab = _base_name(source).endswith((".tsv", ".tab")) or "\t" in lines[0]
    reader = csv.reader(io.StringIO(text), delimiter="\t" if tab else ",")
    rows = [r for r in reader if any(c.strip() for c in r)]
    header = [h.strip() for h in rows[0]]
    body = rows[1:]
    for no, r in enumerate(body, 2):
        if len(r) != len(header):
            raise ParseError(
                f"expected {len(header)} fields (as the header), got {len(r)}",
                source=source,
                line=no,
            )
    if not body:
        raise EmptyInputError("no data rows", source=source)
    return header, body


def _looks_long(lower: list[str]) -> bool:
    return (
        len(lower) == 3
        and any(h in _UNIT for h in lower)
        and any(h in _RATER for h in lower)
        and any(h in _VALUE for h in lower)
    )


def _cell(text: str) -> str | None:
    t = text.strip()
    return None if t.lower() in _MISSING else t


def _typed(cells: list[str | None]) -> list[Any]:
    """Numbers when every present cell parses as one, else the strings."""
    try:
        numbers = [None if c is None else float(c) for c in cells]
    except ValueError:
        return cells
    return numbers


def _long_ratings(
    header: list[str], lower: list[str], body: list[list[str]], source: str
) -> Ratings:
    if len(header) != 3:
        raise InputError(
            f"the long layout needs three columns: unit, rater, value (got {len(header)})",
            source=source,
        )
    iu = next((i for i, h in enumerate(lower) if h in _UNIT), 0)
    ir = next((i for i, h in enumerate(lower) if h in _RATER), 1)
    iv = next((i for i, h in enumerate(lower) if h in _VALUE), 2)
    values = _typed([_cell(r[iv]) for r in body])
    units = [r[iu].strip() for r in body]
    raters = [r[ir].strip() for r in body]
    unit_index = {u: k for k, u in enumerate(dict.fromkeys(units))}
    rater_index = {r: k for k, r in enumerate(dict.fromkeys(raters))}
    matrix: list[list[Any]] = [[None] * len(rater_index) for _ in unit_index]
    for u, r, v in zip(units, raters, values, strict=True):
        matrix[unit_index[u]][rater_index[r]] = v
    long = {"unit": units, "rater": raters, "value": values}
    return Ratings(source, "long", list(unit_index), list(rater_index), matrix, long)


def _wide_ratings(
    header: list[str], lower: list[str], body: list[list[str]], source: str
) -> Ratings:
    first = 1 if lower[0] in _UNIT else 0
    if len(header) - first < 2:
        raise InputError("the wide layout needs two or more rater columns", source=source)
    columns = [_typed([_cell(r[j]) for r in body]) for j in range(first, len(header))]
    matrix = [list(row) for row in zip(*columns, strict=True)]
    units = [r[0].strip() for r in body] if first else [str(i) for i in range(1, len(body) + 1)]
    return Ratings(source, "wide", units, header[first:], matrix)


# ---------------------------------------------------------------- votes


def read_votes(path: PathLike) -> list[list[str]]:
    """The rankings of a vote file, best first (see the module documentation)."""
    source = os.fspath(path)
    votes = []
    for no, line in enumerate(_text(path).splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        items = [c.strip() for c in s.split(",")] if "," in s else s.split()
        if any(not c for c in items):
            raise ParseError("empty candidate", source=source, line=no)
        if len(set(items)) != len(items):
            raise ParseError("a candidate appears twice in this ranking", source=source, line=no)
        votes.append(items)
    if not votes:
        raise EmptyInputError("no rankings", source=source)
    return votes
