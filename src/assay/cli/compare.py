"""``assay compare QRELS RUN RUN...``: means with confidence intervals, paired tests,
corrected p-values and significance marks."""

from __future__ import annotations

from typing import Annotated

import typer

from .._options import CIMethod, CompareTest
from ._common import (
    DEFAULT_METRICS,
    AlphaOption,
    ConfidenceOption,
    CorrectionOption,
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
    SeedOption,
    ShortQueriesOption,
    TiesOption,
    busy,
    check_report,
    errors,
    present,
    write_documents,
)

__all__ = ["compare", "register"]


def compare(
    qrels: Annotated[
        str,
        typer.Argument(help="Qrels file (TREC, .csv/.tsv/.parquet/.jsonl) or irds:DATASET_ID."),
    ],
    runs: Annotated[list[str], typer.Argument(help="Two or more run files.")],
    metric: MetricOption = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            help="Compare every run with this one (a run name: the file name); default: all pairs."
        ),
    ] = None,
    test: Annotated[CompareTest, typer.Option(help="Paired test.")] = "randomization",
    n_resamples: Annotated[
        int, typer.Option(help="Resamples for randomization/bootstrap/tukey.")
    ] = 10000,
    seed: SeedOption = 0,
    correction: CorrectionOption = "holm",
    alpha: AlphaOption = 0.05,
    ci_method: Annotated[
        CIMethod, typer.Option(help="Confidence intervals of means and differences.")
    ] = "bca",
    confidence: ConfidenceOption = 0.95,
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
    risk_alpha: Annotated[
        float | None,
        typer.Option(
            help="Also URisk/TRisk against --baseline, losses weighted 1+A (TREC Web: 1, 5, 10)."
        ),
    ] = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Compare runs: means with CIs, paired tests, corrected p-values, significance markers;
    with --risk-alpha, URisk and TRisk of every run against the baseline."""
    with errors():
        from ..ranking.collection import compare_files

        check_report(report)
        columns = {
            "query": query_column,
            "doc": doc_column,
            "score": score_column,
            "relevance": relevance_column,
        }
        doing = f"comparing {len(runs)} runs: {test} test, {n_resamples} resamples"
        with busy(doing, quiet):
            cmp = compare_files(
                qrels,
                runs,
                metric or DEFAULT_METRICS,
                qrels_format=qrels_format,
                run_format=run_format,
                columns=columns,
                baseline=baseline,
                test=test,
                n_resamples=n_resamples,
                seed=seed,
                correction=correction,
                alpha=alpha,
                ci_method=ci_method,
                confidence=confidence,
                ties=ties,
                missing=missing,
                no_relevant=no_relevant,
                judged_only=judged_only,
                short_queries=short_queries,
                risk_alpha=risk_alpha,
            )
        present(cmp.report(), fmt, output)
        if report is not None or save is not None:
            docs = [cmp.document()]
            write_documents(docs, report=report, save=save, title="assay compare", quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay compare`` to ``app``."""
    app.command("compare")(compare)
