"""The clustering file: :class:`Clustering`, read by :func:`read_clustering`.

A file is read as :mod:`assay.io.lines` reads every task file (``-`` reads stdin; gzip is
decompressed; lines end at ``\\n`` or ``\\r\\n``; malformed lines are named). Its layout is
chosen from the first non-blank line (or by ``layout``): when it holds a tab, every line is
``item<TAB>cluster`` (items and cluster names may hold spaces; an item on several lines
belongs to all those clusters; the same line twice is an error); otherwise one cluster per
line, items separated by white space, where a token ``name:number`` is an item with a weight
(the last colon counts: ``12:30:1`` is item ``12:30`` with weight 1; weights must be > 0). An
item holding spaces (or a colon) is written in double quotes, ``""`` for a quote inside:
``"new york" "los angeles":0.5 boston``. Blank lines are ignored; there is no comment syntax.
A file whose every line holds one token, some of them repeated, is not that (it would be
one-item clusters with items in many of them): it is the ``lines`` layout, one cluster label
per line, the item being the line number (1-based), as scikit-learn's ``labels_true``; blank
lines are errors there.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import Literal

from ..errors import DuplicateError, EmptyInputError, InputError, ParseError, shown
from ..io.lines import SPACE, PathLike, file_text, split_lines
from .options import ClusteringLayout

__all__ = ["Clustering", "read_clustering", "read_clusterings"]

_GAP = re.compile(f"[{SPACE}]*")
_PLAIN = re.compile(f"[^{SPACE}]+")
_QUOTED = re.compile(f'"((?:[^"]|"")*)"(?::([^{SPACE}]*))?(?=[{SPACE}]|\\Z)')
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@dataclass(frozen=True, repr=False)
class Clustering:
    """A clustering read from a file: clusters as ``{item: weight}`` dicts, in file order.

    Read by :func:`read_clustering`, or built in code. ``memberships`` (item-cluster pairs)
    and ``items`` are computed from ``clusters``.

    Parameters
    ----------
    source : str
        Where the clustering comes from (a path, or a name).
    layout : {"labels", "clusters", "lines"}
        ``"labels"`` (item<TAB>cluster lines), ``"clusters"`` (one cluster per line) or
        ``"lines"`` (one cluster label per line, items named by their line numbers).
    clusters : list of dict of str to float
        The clusters, as ``{item: weight}`` dicts.
    weighted : bool
        Whether some item carried an explicit weight.

    Examples
    --------
    >>> from assay.clustering import Clustering
    >>> c = Clustering("gold", "clusters", [{"a": 1.0, "b": 1.0}, {"c": 1.0}], False)
    >>> c.memberships, sorted(c.items), c.hard
    (3, ['a', 'b', 'c'], True)
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

    def __repr__(self) -> str:
        # One line however large the clustering: its clusters are counted, not listed.
        return (
            f"Clustering(source={self.source!r}, layout={self.layout!r}, "
            f"clusters={len(self.clusters)}, items={len(self.items)}, "
            f"memberships={self.memberships}, weighted={self.weighted})"
        )

    def labels(self) -> dict[str, int]:
        """``{item: cluster number}`` (0-based, in file order); for a hard clustering."""
        return {item: k for k, c in enumerate(self.clusters) for item in c}


def read_clustering(path: PathLike, *, layout: ClusteringLayout = "auto") -> Clustering:
    """A clustering file in one of its layouts (see the module documentation).

    Parameters
    ----------
    path
        The file (``-``: stdin; gzip decompressed).
    layout
        ``auto`` (from the content), ``labels``, ``clusters`` or ``lines``.

    Returns
    -------
    Clustering

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from assay.clustering import read_clustering
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "pred.txt"
    >>> _ = path.write_text("a b c\\nd e\\n")
    >>> c = read_clustering(path)
    >>> c.layout, len(c.clusters), c.hard
    ('clusters', 2, True)
    """
    from .._options import choice

    layout = choice(layout, ClusteringLayout, "layout")
    source = os.fspath(path)
    lines = split_lines(file_text(path), source)
    first = next((line for line in lines if line.strip(SPACE)), None)
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
        label = line.strip(SPACE)
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
        if not line.strip(SPACE):
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


def read_clusterings(
    gold: PathLike, pred: PathLike, *, layout: ClusteringLayout = "auto"
) -> tuple[Clustering, Clustering]:
    """The gold and the predicted clustering files (as :func:`read_clustering`).

    When one file holds one label per line, a partner whose every line is one distinct token
    is read the same way (a label per item), not as one-item clusters named by its items.

    Parameters
    ----------
    gold, pred : str or os.PathLike
        The gold and the predicted clustering files.
    layout : {"auto", "labels", "clusters", "lines"}
        The files' layout (``"auto"``: guessed from each file's lines).

    Returns
    -------
    tuple of Clustering
        The gold and the predicted clustering.

    Examples
    --------
    >>> from pathlib import Path
    >>> from assay.clustering import read_clusterings
    >>> _ = Path("gold.txt").write_text("a b\\nc\\n")
    >>> _ = Path("pred.txt").write_text("a\\nb c\\n")
    >>> gold, pred = read_clusterings("gold.txt", "pred.txt")
    >>> gold.layout, len(gold.clusters), len(pred.clusters)
    ('clusters', 2, 2)
    """
    g, p = read_clustering(gold, layout=layout), read_clustering(pred, layout=layout)
    if layout == "auto" and g.layout == "lines" and _singletons(p):
        p = read_clustering(pred, layout="lines")
    elif layout == "auto" and p.layout == "lines" and _singletons(g):
        g = read_clustering(gold, layout="lines")
    return g, p


def _singletons(c: Clustering) -> bool:
    return c.layout == "clusters" and c.hard and all(len(k) == 1 for k in c.clusters)
