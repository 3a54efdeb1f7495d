"""``assay cluster GOLD PRED``: evaluate a clustering against a gold clustering.

Files are read by :func:`assay.clustering.read_clusterings` (item<TAB>cluster lines, one
cluster per line with optional ``item:weight`` weights, or one cluster label per line for
items numbered by line, as scikit-learn's ``labels_true``: found when every line holds one
token and some token repeats, or said with ``--layout``; the two files may differ; one may be
``-``) and measured by :func:`assay.clustering.evaluate`, which chooses the hard-clustering
measures or the soft-clustering ones.

Only typer and the standard library are imported at module level; NumPy and
:mod:`assay.clustering` load inside the command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, cast

import typer

from ._common import (
    FormatOption,
    QuietOption,
    ReportOption,
    SaveOption,
    check_report,
    errors,
    present,
    warn,
    write_documents,
)

if TYPE_CHECKING:
    from ..clustering.options import ClusteringLayout

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
        from ..clustering import evaluate, read_clusterings
        from ..errors import InputError

        check_report(report)
        if gold == "-" and pred == "-":
            raise InputError("gold and pred cannot both be read from stdin")
        # --layout is free text here: read_clustering validates it and names it in its error.
        chosen = cast("ClusteringLayout", layout)
        result = evaluate(*read_clusterings(gold, pred, layout=chosen))
        for note in result.notes:
            warn(note)
        present(result.report(), fmt)
        if report is not None or save is not None:
            write_documents(
                [result.document()], report=report, save=save, title="assay cluster", quiet=quiet
            )


def register(app: typer.Typer) -> None:
    """Add ``assay cluster`` to ``app``."""
    app.command("cluster")(cluster)
