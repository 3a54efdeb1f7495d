"""``assay cluster GOLD PRED``: evaluate a clustering against a gold clustering.

Registered by :func:`assay.cli._register_optional_commands`. Only typer and the standard
library are imported here; NumPy and :mod:`assay.clustering` are imported when the command
runs.

File layouts, detected from the first non-blank line of each file (the two files may differ):

- **labels** — the first non-blank line holds a tab: every line is ``item<TAB>cluster``
  (exactly two non-empty tab-separated fields). An item on several lines (with different
  clusters) belongs to all of them, which makes the clustering overlapping; the same
  (item, cluster) line twice is an error.
- **clusters** — otherwise: one cluster per line, its items separated by whitespace. A token
  ``name:number`` is an item with a weight (``bank:0.7``; the last colon counts, so
  ``12:30:1`` is item ``12:30`` with weight 1); other tokens weigh 1. The same item twice on
  one line is an error; an item on several lines belongs to all those clusters.

Blank lines are ignored (no comment syntax: ``#tag`` is an item). Files may be gzip-compressed
(``.gz``) and one of them may be ``-`` (stdin).

A clustering is **hard** when every item is in exactly one cluster with no explicit weight.
When both are hard over the same items, every hard-clustering measure is printed (pair
counts, pairwise P/R/F1, Rand, ARI, Fowlkes–Mallows, purity, inverse purity and their F1, NMI
and AMI (arithmetic mean), B-Cubed P/R/F1) and nmPU / niPU / F1. Otherwise — an overlapping or
weighted clustering, or hard clusterings of different item sets (a warning says so) — the
soft-clustering measures are printed: nmPU, niPU and their F1 (normalized weights), and
pairwise P/R/F1 over co-membership pairs. See :mod:`assay.clustering` for the definitions.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer


class ClusterFormat(StrEnum):
    table = "table"
    tsv = "tsv"
    csv = "csv"
    jsonl = "jsonl"
    json = "json"
    markdown = "markdown"
    latex = "latex"


class _Clustering:
    """A parsed file: clusters as {item: weight} dicts, in file order."""

    def __init__(
        self, source: str, layout: str, clusters: list[dict[str, float]], weighted: bool
    ) -> None:
        self.source = source
        self.layout = layout
        self.clusters = clusters
        self.weighted = weighted
        self.memberships = sum(len(c) for c in clusters)
        self.items: set[str] = set().union(*clusters) if clusters else set()

    @property
    def hard(self) -> bool:
        return not self.weighted and self.memberships == len(self.items)

    def labels(self) -> dict[str, int]:
        return {item: k for k, c in enumerate(self.clusters) for item in c}


def _lines(path: str) -> list[str]:

    from .io.text import read_text

    return read_text(path).splitlines()


def _weight(text: str) -> float | None:
    import math

    try:
        w = float(text)
    except ValueError:
        return None
    return w if math.isfinite(w) else None


def _read(path: str) -> _Clustering:
    from .errors import DuplicateError, EmptyInputError, InputError, ParseError

    lines = _lines(path)
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        raise EmptyInputError("no cluster", source=path)
    clusters: list[dict[str, float]] = []
    if "\t" in first:
        index: dict[str, int] = {}
        for no, line in enumerate(lines, 1):
            if not line.strip():
                continue
            fields = line.split("\t")
            if len(fields) != 2 or not fields[0].strip() or not fields[1].strip():
                raise ParseError(
                    f"expected item<TAB>cluster (the labels layout, chosen from the first "
                    f"line), got {len(fields)} field(s): {line[:60]!r}",
                    source=path,
                    line=no,
                )
            item, label = fields[0].strip(), fields[1].strip()
            k = index.setdefault(label, len(index))
            if k == len(clusters):
                clusters.append({})
            if item in clusters[k]:
                raise DuplicateError(
                    f"item {item!r} is in cluster {label!r} twice", source=path, line=no
                )
            clusters[k][item] = 1.0
        return _Clustering(path, "labels", clusters, weighted=False)
    weighted = False
    for no, line in enumerate(lines, 1):
        tokens = line.split()
        if not tokens:
            continue
        cluster: dict[str, float] = {}
        for tok in tokens:
            name, sep, tail = tok.rpartition(":")
            w = _weight(tail) if sep and name else None
            if w is None:
                name, w = tok, 1.0
            else:
                weighted = True
                if w <= 0:
                    raise InputError(
                        f"item {name!r} has weight {tail}; weights must be > 0",
                        source=path,
                        line=no,
                    )
            if name in cluster:
                raise DuplicateError(
                    f"item {name!r} appears twice in this cluster", source=path, line=no
                )
            cluster[name] = w
        clusters.append(cluster)
    return _Clustering(path, "clusters", clusters, weighted=weighted)


def _evaluate(gold: _Clustering, pred: _Clustering) -> tuple[str, dict[str, Any], list[str]]:
    from . import clustering

    warnings: list[str] = []
    if gold.hard and pred.hard:
        if gold.items == pred.items:
            g, p = gold.labels(), pred.labels()
            items = sorted(gold.items)
            return (
                "hard",
                dict(clustering.hard_report([g[i] for i in items], [p[i] for i in items])),
                warnings,
            )
        only_gold, only_pred = len(gold.items - pred.items), len(pred.items - gold.items)
        warnings.append(
            f"{only_gold} item(s) only in {gold.source}, {only_pred} only in {pred.source}: "
            "hard-clustering measures need the same items; printing the soft-clustering "
            "measures (nmPU, niPU, pairwise)"
        )
    return "soft", dict(clustering.soft_report(gold.clusters, pred.clusters)), warnings


def cluster(
    gold: Annotated[
        str,
        typer.Argument(
            help="Gold clustering: item<TAB>cluster lines, or one cluster per line (items "
            "separated by spaces, item:weight for weights); - for stdin."
        ),
    ],
    pred: Annotated[str, typer.Argument(help="Predicted clustering, same layouts.")],
    fmt: Annotated[
        ClusterFormat | None,
        typer.Option(
            "-f", "--format", help="Output format (default: table on a terminal, else tsv)."
        ),
    ] = None,
) -> None:
    """Evaluate a clustering against a gold clustering (hard: pairwise P/R/F, Rand, ARI,
    purity, NMI, AMI, B-Cubed...; overlapping or weighted: nmPU, niPU, pairwise)."""
    from .cli import _errors, _warn

    with _errors():
        from .errors import InputError

        if gold == "-" and pred == "-":
            raise InputError("gold and pred cannot both be read from stdin")
        g, p = _read(gold), _read(pred)
        kind, values, warnings = _evaluate(g, p)
        for w in warnings:
            _warn(w)
        meta = {
            "kind": kind,
            "gold": {"path": gold, "layout": g.layout, "hard": g.hard},
            "pred": {"path": pred, "layout": p.layout, "hard": p.hard},
        }
        from ._format import metric_values_table, render_metric_values
        from .cli import _present

        _present(
            fmt,  # type: ignore[arg-type]  # a format enum with the same values
            None,
            lambda: metric_values_table(
                values, f"{kind} clusterings; gold: {gold} ({g.layout}), pred: {pred} ({p.layout})"
            ),
            lambda chosen: render_metric_values(chosen, values, meta),
        )
