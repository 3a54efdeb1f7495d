"""``assay evaluate QRELS RUN...``: evaluate runs against qrels."""

from __future__ import annotations

from typing import Annotated

import typer

from ._common import (
    DEFAULT_METRICS,
    DocColumnOption,
    FormatOption,
    JudgedOnlyOption,
    MetricOption,
    MissingOption,
    NoRelevantOption,
    OutputOption,
    QrelsFormatOption,
    QueryColumnOption,
    QuietOption,
    RelevanceColumnOption,
    ReportOption,
    RunFormatOption,
    SaveOption,
    ScoreColumnOption,
    ShortQueriesOption,
    TiesOption,
    busy,
    check_report,
    errors,
    load_collection,
    present,
    ranking_documents,
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
    qrels_format: QrelsFormatOption = None,
    run_format: RunFormatOption = None,
    query_column: QueryColumnOption = None,
    doc_column: DocColumnOption = None,
    score_column: ScoreColumnOption = None,
    relevance_column: RelevanceColumnOption = None,
    short_queries: ShortQueriesOption = "score",
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Evaluate runs against qrels."""
    with errors():
        from ..evaluation import evaluate as run_evaluation
        from ..report import results_report

        check_report(report)
        with busy(f"reading {len(runs) + 1} files", quiet):
            q, loaded = load_collection(
                qrels,
                runs,
                qrels_format=qrels_format,
                run_format=run_format,
                columns={
                    "query": query_column,
                    "doc": doc_column,
                    "score": score_column,
                    "relevance": relevance_column,
                },
            )
        with busy(f"evaluating {len(loaded)} run(s)", quiet):
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
        present(results_report(res, per_query=per_query), fmt, output)
        ranking_documents(
            res, q, loaded, report=report, save=save, title="assay evaluate", quiet=quiet
        )


def register(app: typer.Typer) -> None:
    """Add ``assay evaluate`` to ``app``."""
    app.command("evaluate")(evaluate)
