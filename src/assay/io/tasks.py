"""Readers of the task files: labels and scores (classification), clusterings and votes
(rank aggregation); ratings (inter-rater agreement) are read by :mod:`assay.agreement.ratings`.

Every reader takes a path (``-`` reads stdin; gzip is decompressed, by content) and raises a
:class:`~assay.errors.ParseError` (or another :class:`~assay.errors.InputError`) naming the
file and the 1-based line of a malformed line. The bytes are read by
:func:`assay.io.text.read_text` (UTF-8, a BOM ignored, bounded: see :mod:`assay.io.streams`).

**Lines** end at ``\\n`` or ``\\r\\n`` and nowhere else: not at ``\\v``, ``\\f``, U+0085
or U+2028, where Python's ``str.splitlines`` would split, so that two files read line by line
stay aligned; a lone ``\\r`` is an error (old Mac line ends would make one long line). White
space inside a line is ASCII white space (space, tab, ``\\v``, ``\\f``, ``\\r``); other
characters (a no-break space, U+2028) are part of the text.

Layouts:

- **labels / scores** — ``.csv`` / ``.tsv`` (optionally ``.gz``): a header line and a named
  column (a one-column file needs no name; each column named once; Python's csv rules,
  strict: a quote never closed is an error); in a one-column file, a header that is also a
  value of its column, or a number above numbers, is refused (it is data: reading it as the
  header would drop the first item); any other file: one value per line, white space around
  it trimmed.
  Blank lines are errors. Scores are finite numbers.
- **clusterings** — chosen from the first non-blank line (or by ``layout``): when it holds a
  tab, every line is ``item<TAB>cluster`` (items and cluster names may hold spaces; an item on several lines
  belongs to all those clusters; the same line twice is an error); otherwise one cluster per
  line, items separated by white space, where a token ``name:number`` is an item with a
  weight (the last colon counts: ``12:30:1`` is item ``12:30`` with weight 1; weights must
  be > 0). An item holding spaces (or a colon) is written in double quotes, ``""`` for a
  quote inside: ``"new york" "los angeles":0.5 boston``. Blank lines are ignored; there is
  no comment syntax. A file whose every line holds one token, some of them repeated, is
  not that (it would be one-item clusters with items in many of them): it is the
  ``lines`` layout, one cluster label per line, the item being the line number (1-based),
  as scikit-learn's ``labels_true``; blank lines are errors there.
- **votes** — one ranking per line, best first; a line holding a comma is split on commas
  (white space around each candidate trimmed), otherwise on white space. Blank lines and lines
  starting with ``#`` are skipped; a candidate twice in one ranking is an error. A file whose
  every line is one candidate, each a different one, is warned about (an
  :class:`~assay.errors.InputWarning`): it is most likely one ranking written vertically.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from dataclasses import dataclass, field
from typing import Literal

from ..errors import DuplicateError, EmptyInputError, InputError, InputWarning, ParseError, shown
from ._csv import csv_rows

PathLike = str | os.PathLike[str]

__all__ = [
    "Clustering",
    "ClusteringLayout",
    "read_clustering",
    "read_labels",
    "read_scores",
    "read_votes",
    "split_lines",
]

_SPACE = " \t\x0b\x0c\r"  # ASCII white space inside a line


def _text(path: PathLike) -> str:
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


# ---------------------------------------------------------------- clusterings


@dataclass(frozen=True)
class Clustering:
    """A clustering read from a file: clusters as ``{item: weight}`` dicts, in file order.

    ``layout`` is ``"labels"`` (item<TAB>cluster lines), ``"clusters"`` (one cluster per
    line) or ``"lines"`` (one cluster label per line, items named by their line numbers);
    ``weighted`` is true when some item carried an explicit weight.
    """

    source: str
    layout: Literal["labels", "clusters", "lines"]
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


#: How a clustering file is laid out (``auto``: from its content, see the module docs).
ClusteringLayout = Literal["auto", "labels", "clusters", "lines"]


def read_clustering(path: PathLike, *, layout: ClusteringLayout = "auto") -> Clustering:
    """A clustering file in one of its layouts (see the module documentation)."""
    from .._options import choice

    layout = choice(layout, ClusteringLayout, "layout")
    source = os.fspath(path)
    lines = split_lines(_text(path), source)
    first = next((line for line in lines if line.strip(_SPACE)), None)
    if first is None:
        raise EmptyInputError("no cluster", source=source)
    if layout == "auto":
        layout = (
            "labels" if "\t" in first else "lines" if _one_label_per_line(lines) else "clusters"
        )
    if layout == "labels":
        return Clustering(source, "labels", _label_lines(lines, source), weighted=False)
    if layout == "lines":
        return Clustering(source, "lines", _line_labels(lines, source), weighted=False)
    clusters, weighted = _cluster_lines(lines, source)
    return Clustering(source, "clusters", clusters, weighted=weighted)


def _one_label_per_line(lines: list[str]) -> bool:
    """Every non-blank line one token, and some token on two lines: cluster labels, one per
    item (read as clusters, each line would be a one-item cluster and each label an item
    in many of them)."""
    seen: set[str] = set()
    repeated = False
    for line in lines:
        tokens = _PLAIN.findall(line)
        if len(tokens) > 1:
            return False
        if tokens:
            repeated = repeated or tokens[0] in seen
            seen.add(tokens[0])
    return repeated


def _line_labels(lines: list[str], source: str) -> list[dict[str, float]]:
    """One cluster label per line; the item is the line number."""
    clusters: dict[str, dict[str, float]] = {}
    for no, line in enumerate(lines, 1):
        label = line.strip(_SPACE)
        if not label:
            raise ParseError(
                "blank line: in the one-label-per-line layout every line is an item",
                source=source,
                line=no,
            )
        clusters.setdefault(label, {})[str(no)] = 1.0
    return list(clusters.values())


def _label_lines(lines: list[str], source: str) -> list[dict[str, float]]:
    clusters: list[dict[str, float]] = []
    index: dict[str, int] = {}
    for no, line in enumerate(lines, 1):
        if not line.strip(_SPACE):
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
        tokens = _cluster_tokens(line, source, no)
        if not tokens:
            continue
        cluster: dict[str, float] = {}
        for name, w, explicit in tokens:
            weighted = weighted or explicit
            if name in cluster:
                raise DuplicateError(
                    f"item {shown(name)} appears twice in this cluster", source=source, line=no
                )
            cluster[name] = w
        clusters.append(cluster)
    return clusters, weighted


_GAP = re.compile(f"[{_SPACE}]*")
_PLAIN = re.compile(f"[^{_SPACE}]+")
_QUOTED = re.compile(f'"((?:[^"]|"")*)"(?::([^{_SPACE}]*))?(?=[{_SPACE}]|\\Z)')
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _cluster_tokens(line: str, source: str, no: int) -> list[tuple[str, float, bool]]:
    """The ``(item, weight, explicit)`` of every token of a line (see the module docs)."""
    out: list[tuple[str, float, bool]] = []
    pos = 0
    while True:
        gap = _GAP.match(line, pos)
        pos = gap.end() if gap is not None else pos
        if pos >= len(line):
            return out
        if line[pos] != '"':
            token = _PLAIN.match(line, pos)
            end = token.end() if token is not None else len(line)
            out.append(_weighted_item(line[pos:end], source, no))
            pos = end
            continue
        quoted = _QUOTED.match(line, pos)
        if quoted is None:
            raise ParseError(
                f'a quoted item must end with a closing quote ("" for a quote inside), '
                f"then white space or :weight: {shown(line[pos:], 40)}",
                source=source,
                line=no,
            )
        name = quoted.group(1).replace('""', '"')
        if not name:
            raise ParseError('an empty item ("")', source=source, line=no)
        tail = quoted.group(2)
        if tail is None:
            out.append((name, 1.0, False))
        else:
            w = _weight(tail)
            if w is None:
                raise ParseError(
                    f"item {shown(name)} has weight {shown(tail)}, not a finite number",
                    source=source,
                    line=no,
                )
            out.append((name, _positive(name, w, tail, source, no), True))
        pos = quoted.end()


def _weighted_item(token: str, source: str, line: int) -> tuple[str, float, bool]:
    """``(item, weight, explicit)`` of a token: ``name:number`` carries a weight."""
    name, sep, tail = token.rpartition(":")
    w = _weight(tail) if sep and name else None
    if w is None:
        return token, 1.0, False
    return name, _positive(name, w, tail, source, line), True


def _positive(name: str, w: float, tail: str, source: str, line: int) -> float:
    if w <= 0:
        raise InputError(
            f"item {shown(name)} has weight {tail}; weights must be > 0", source=source, line=line
        )
    return w


def _weight(text: str) -> float | None:
    """An ASCII decimal number that is finite, or None."""
    if not _DECIMAL.fullmatch(text):
        return None
    w = float(text)
    return w if math.isfinite(w) else None


# ---------------------------------------------------------------- votes


def read_votes(path: PathLike) -> list[list[str]]:
    """The rankings of a vote file, best first (see the module documentation)."""
    source = os.fspath(path)
    votes = []
    for no, line in enumerate(split_lines(_text(path), source), 1):
        s = line.strip(_SPACE)
        if not s or s.startswith("#"):
            continue
        items = [c.strip(_SPACE) for c in s.split(",")] if "," in s else _PLAIN.findall(s)
        if any(not c for c in items):
            raise ParseError("empty candidate", source=source, line=no)
        if len(set(items)) != len(items):
            raise ParseError("a candidate appears twice in this ranking", source=source, line=no)
        votes.append(items)
    if not votes:
        raise EmptyInputError("no rankings", source=source)
    _check_vertical(votes, source)
    return votes


def _check_vertical(votes: list[list[str]], source: str) -> None:
    """Warn when every ranking holds one candidate, each a different one: either votes for
    a single favourite that all differ (every candidate ties) or, far likelier, one ranking
    written one candidate per line, which is read as that many one-candidate votes."""
    if len(votes) < 2 or any(len(v) != 1 for v in votes):
        return
    if len({v[0] for v in votes}) == len(votes):
        warnings.warn(
            f"{source}: every one of the {len(votes)} rankings holds one candidate, each a "
            "different one, so all of them tie; a vote file holds one ranking per line "
            "(best first: a b c): write a ranking on one line",
            InputWarning,
            stacklevel=2,
        )
