"""``assay cluster GOLD PRED``: evaluate a clustering against a gold clustering.

Files are read by :func:`assay.clustering.read_clustering` (item<TAB>cluster lines, one cluster per
line with optional ``item:weight`` weights, or one cluster label per line for items numbered
by line, as scikit-learn's ``labels_true``: found when every line holds one token and some
token repeats, or said with ``--layout``; the two files may differ; one may be ``-``). When
one file holds one label per line, a partner whose every line is one distinct token is read
the same way (each item its own cluster), not as clusters of items named by those tokens.

A clustering is **hard** when every item is in exactly one cluster with no explicit weight.
When both are hard over the same items, every hard-clustering measure is printed (pair
counts, pairwise P/R/F1, Rand, ARI, Fowlkes–Mallows, purity, inverse purity and their F1, NMI
and AMI (arithmetic mean), B-Cubed P/R/F1) and nmPU / niPU / F1. Otherwise — an overlapping or
weighted clustering, or hard clusterings of different item sets (a warning says so) — the
soft-clustering measures are printed: nmPU, niPU and their F1 (normalized weights), and
pairwise P/R/F1 over co-membership pairs. See :mod:`assay.clustering` for the definitions.

Only typer and the standard library are imported at module level; NumPy and
:mod:`assay.clustering` load inside the command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ._common import (
    FormatOption,
    QuietOption,
    ReportOption,
    SaveOption,
    check_report,
    errors,
    present,
    tables_documents,
    warn,
)

if TYPE_CHECKING:
    from ..clustering import Clustering

__all__ = ["cluster", "register"]


def cluster(
    gold: Annotated[
        str,
        typer.Argument(
            help="Gold clustering: item<TAB>cluster lines, or one cluster per line (items "
            "separated by spaces, item:weight for weights); - for stdin."
        ),
    ],
    pred: Annotated[str, typer.Argument(help="Predicted clustering, same layouts.")],
    layout: Annotated[
        str,
        typer.Option(
            "--layout",
            help="Layout of both files: auto (from the content), labels (item<TAB>cluster), "
            "clusters (one cluster per line), lines (one cluster label per line; items are "
            "line numbers).",
        ),
    ] = "auto",
    fmt: FormatOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Evaluate a clustering against a gold clustering (hard: pairwise P/R/F, Rand, ARI,
    purity, NMI, AMI, B-Cubed...; overlapping or weighted: nmPU, niPU, pairwise)."""
    with errors():
        from ..clustering import read_clustering
        from ..errors import InputError
        from ..report import values_report

        check_report(report)
        if gold == "-" and pred == "-":
            raise InputError("gold and pred cannot both be read from stdin")
        g, p = _read_pair(read_clustering, gold, pred, layout)
        kind, values, warnings = _evaluate(g, p)
        for w in warnings:
            warn(w)
        meta = {
            "kind": kind,
            "gold": {"path": gold, "layout": g.layout, "hard": g.hard},
            "pred": {"path": pred, "layout": p.layout, "hard": p.hard},
        }
        caption = f"{kind} clusterings; gold: {gold} ({g.layout}), pred: {pred} ({p.layout})"
        shown = values_report(values, caption=caption, document=meta)
        present(shown, fmt)
        if report is not None or save is not None:
            tables_documents(
                shown,
                family="clustering",
                heading="Clustering",
                report=report,
                save=save,
                title="assay cluster",
                sections=_contingency(g, p),
                quiet=quiet,
            )


def _read_pair(read: Any, gold: str, pred: str, layout: str) -> tuple[Clustering, Clustering]:
    """Both files; one label per line in one of them makes a file of distinct one-token lines
    in the other mean the same (a label per item), not one-item clusters named by items."""
    g, p = read(gold, layout=layout), read(pred, layout=layout)
    if layout == "auto" and g.layout == "lines" and _singletons(p):
        p = read(pred, layout="lines")
    elif layout == "auto" and p.layout == "lines" and _singletons(g):
        g = read(gold, layout="lines")
    return g, p


def _singletons(c: Clustering) -> bool:
    return c.layout == "clusters" and c.hard and all(len(k) == 1 for k in c.clusters)


def _contingency(gold: Clustering, pred: Clustering) -> list[Any]:
    """The contingency table's section when both clusterings are hard over the same items."""
    from ..report.sections_tasks import contingency_section

    if not (gold.hard and pred.hard and gold.items == pred.items):
        return []
    g, p = gold.labels(), pred.labels()
    items = sorted(gold.items)
    return [contingency_section([g[i] for i in items], [p[i] for i in items])]


def _evaluate(gold: Clustering, pred: Clustering) -> tuple[str, dict[str, Any], list[str]]:
    """``(kind, values, warnings)``: the hard measures when both are hard over the same
    items, else the soft ones."""
    from .. import clustering

    warnings: list[str] = []
    if gold.hard and pred.hard:
        if gold.items == pred.items:
            g, p = gold.labels(), pred.labels()
            items = sorted(gold.items)
            values = clustering.hard_report([g[i] for i in items], [p[i] for i in items])
            return "hard", dict(values), warnings
        only_gold, only_pred = len(gold.items - pred.items), len(pred.items - gold.items)
        warnings.append(
            f"{only_gold} item(s) only in {gold.source}, {only_pred} only in {pred.source}: "
            "hard-clustering measures need the same items; printing the soft-clustering "
            "measures (nmPU, niPU, pairwise)"
        )
    return "soft", dict(clustering.soft_report(gold.clusters, pred.clusters)), warnings


def register(app: typer.Typer) -> None:
    """Add ``assay cluster`` to ``app``."""
    app.command("cluster")(cluster)
