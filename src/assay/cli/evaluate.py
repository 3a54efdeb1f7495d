"""``assay evaluate QRELS RUN...``: evaluate runs against qrels."""

from __future__ import annotations

from typing import Annotated

import typer

from .._options import InputFormat
from ._common import (
    DEFAULT_METRICS,
    FormatOption,
    JudgedOnlyOption,
    MetricOption,
    MissingOption,
    NoRelevantOption,
    OutputOption,
    ShortQueriesOption,
    TiesOption,
    errors,
    load_collection,
    present,
    warn,
)

__all__ = ["evaluate", "register"]


def evaluate(
    qrels: Annotated[
        str, typer.Argument(help="Qrels file (TREC, .csv/.tsv/.parquet/.jsonl); - for stdin.")
    ],
    runs: Annotated[list[str], typer.Argument(help="One or more run files.")],
    metric: MetricOption = None,
    per_query: Annotated[
        bool, typer.Option("-q", "--per-query", help="Also print per-query values.")
    ] = False,
    fmt: FormatOption = None,
    ties: TiesOption = "docno",
    missing: MissingOption = "zero",
    no_relevant: NoRelevantOption = "zero",
    judged_only: JudgedOnlyOption = False,
    short_queries: ShortQueriesOption = "score",
    qrels_format: Annotated[
        InputFormat | None,
        typer.Option(help="Force the qrels format (default: from the file extension, else trec)."),
    ] = None,
    run_format: Annotated[
        InputFormat | None,
        typer.Option(help="Force the run format (default: from the file extension, else trec)."),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Evaluate runs against qrels."""
    with errors():
        from ..evaluation import evaluate as run_evaluation
        from ..report import results_report

        q, loaded = load_collection(qrels, runs, qrels_format=qrels_format, run_format=run_format)
        res = run_evaluation(
            q,
            loaded,
            metric or DEFAULT_METRICS,
            ties=ties,
            missing=missing,
            no_relevant=no_relevant,
            judged_only=judged_only,
            short_queries=short_queries,
        )
        for w in res.warnings:
            warn(w)
        present(results_report(res, per_query), fmt, output)


def register(app: typer.Typer) -> None:
    """Add ``assay evaluate`` to ``app``."""
    app.command("evaluate")(evaluate)
