"""``assay leaderboard COMPARISONS``: items ranked from pairwise comparisons ``(left, right,
winner)`` by one method, with bootstrap intervals of every score and rank, counts, flags for
degenerate items, and (``--report``) the forest plot and the win-probability heatmap."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..judgments.options import PairwiseMethod, TableFormat, TieModel
from ._common import (
    ConfidenceOption,
    FormatOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    SeedOption,
    busy,
    check_report,
    errors,
    present,
    write_documents,
)

__all__ = ["leaderboard", "register"]

#: The title of the ``--report`` page.
TITLE = "assay leaderboard"


def leaderboard(
    comparisons: Annotated[
        str,
        typer.Argument(
            help="Comparisons: a CSV/TSV/Parquet/JSONL table with left, right and winner columns."
        ),
    ],
    method: Annotated[PairwiseMethod, typer.Option(help="Scoring method.")] = "bradley_terry",
    left: Annotated[
        str, typer.Option("--left", "--left-column", help="Column of the left item.")
    ] = "left",
    right: Annotated[
        str, typer.Option("--right", "--right-column", help="Column of the right item.")
    ] = "right",
    winner: Annotated[
        str,
        typer.Option(
            "--winner", "--winner-column", help="Column of the outcome: left, right or tie."
        ),
    ] = "winner",
    weight: Annotated[
        str | None,
        typer.Option(
            "--weight",
            "--weight-column",
            help="Column of non-negative weights (default: each counts 1).",
        ),
    ] = None,
    input_format: Annotated[
        TableFormat | None,
        typer.Option("--input-format", help="Format of COMPARISONS (default: from its extension)."),
    ] = None,
    n_resamples: Annotated[int, typer.Option(help="Bootstrap resamples.")] = 1000,
    seed: SeedOption = 0,
    confidence: ConfidenceOption = 0.95,
    ties: Annotated[
        TieModel | None,
        typer.Option(
            help="Bradley–Terry's ties: half (a half win each) or davidson.", show_default=False
        ),
    ] = None,
    win_weight: Annotated[
        float | None, typer.Option(help="Credit for a win.", show_default=False)
    ] = None,
    tie_weight: Annotated[
        float | None, typer.Option(help="Credit for a tie.", show_default=False)
    ] = None,
    tolerance: Annotated[
        float | None,
        typer.Option(help="Convergence threshold of iterative methods.", show_default=False),
    ] = None,
    max_iter: Annotated[
        int | None, typer.Option(help="Iteration cap of iterative methods.", show_default=False)
    ] = None,
    k: Annotated[
        float | None, typer.Option(help="Elo's update factor K.", show_default=False)
    ] = None,
    initial: Annotated[
        float | None, typer.Option(help="Elo's starting rating.", show_default=False)
    ] = None,
    base: Annotated[
        float | None, typer.Option(help="Elo's logistic base.", show_default=False)
    ] = None,
    scale: Annotated[
        float | None, typer.Option(help="Elo's logistic scale.", show_default=False)
    ] = None,
    damping: Annotated[
        float | None, typer.Option(help="PageRank's damping.", show_default=False)
    ] = None,
    v_init: Annotated[
        float | None, typer.Option(help="Newman's starting tie parameter.", show_default=False)
    ] = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Rank items from pairwise comparisons (counting, average win rate, Bradley–Terry,
    Newman, Elo, eigenvector, PageRank) with bootstrap intervals of scores and ranks.
    Method options apply to the methods that take them (an option the method does not
    take is an error)."""
    with errors():
        from ..judgments import leaderboard as build
        from ..judgments import read_comparisons

        check_report(report)
        options = _given(
            ties=ties,
            win_weight=win_weight,
            tie_weight=tie_weight,
            tolerance=tolerance,
            max_iter=max_iter,
            k=k,
            initial=initial,
            base=base,
            scale=scale,
            damping=damping,
            v_init=v_init,
        )
        data = read_comparisons(
            comparisons, format=input_format, left=left, right=right, winner=winner, weight=weight
        )
        with busy(f"{method}, {n_resamples} bootstrap resamples", quiet):
            result = build(
                data,
                method=method,
                n_resamples=n_resamples,
                confidence=confidence,
                seed=seed,
                **options,
            )
        present(result.report(), fmt, output)
        if report is not None or save is not None:
            write_documents([result.document()], report=report, save=save, title=TITLE, quiet=quiet)


def _given(**options: Any) -> dict[str, Any]:  # Any: each option's own type
    return {k: v for k, v in options.items() if v is not None}


def register(app: typer.Typer) -> None:
    """Add ``assay leaderboard`` to ``app``."""
    app.command("leaderboard")(leaderboard)
