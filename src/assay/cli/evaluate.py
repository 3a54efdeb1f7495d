"""``assay evaluate QRELS RUN...``: evaluate runs against qrels."""

from __future__ import annotations

from typing import Annotated, Any

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
    present,
    write_documents,
)

__all__ = ["evaluate", "register"]


def evaluate(
    qrels: Annotated[
        str,
        typer.Argument(
            help="Qrels file (TREC, .csv/.tsv/.parquet/.jsonl; - for stdin) or irds:DATASET_ID."
        ),
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
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="ADDRESS",
            help="Evaluate on Dask (needs assay[dist]): a scheduler address "
            "(tcp://host:8786) or 'local' (a cluster of this machine's cores). Runs: TREC "
            "text or Parquet files or dataset folders, at the same path on every worker.",
        ),
    ] = None,
    dask_timeout: Annotated[
        float | None,
        typer.Option(
            "--dask-timeout",
            metavar="SECONDS",
            help="With --dask: give up when no task finishes for this long (default: "
            "$ASSAY_DASK_TIMEOUT, else 600), as when the cluster's workers died.",
        ),
    ] = None,
) -> None:
    """Evaluate runs against qrels.

    A TREC run file of 8 MiB or more, or a Parquet one of 256k rows or more, is read in
    blocks of whole queries (memory bounded by a block plus the qrels), with the same
    values."""
    with errors():
        check_report(report)
        columns = {
            "query": query_column,
            "doc": doc_column,
            "score": score_column,
            "relevance": relevance_column,
        }
        options: dict[str, Any] = {
            "ties": ties,
            "missing": missing,
            "no_relevant": no_relevant,
            "judged_only": judged_only,
            "short_queries": short_queries,
        }
        metrics = metric or DEFAULT_METRICS
        timeout = _dask_timeout(dask_timeout)
        if dask is not None:
            from ..dist.files import evaluate_files as evaluate_on_dask

            _no_report_on_dask(report, save)
            res = evaluate_on_dask(
                dask,
                qrels,
                runs,
                metrics,
                qrels_format=qrels_format,
                run_format=run_format,
                columns=columns,
                timeout=timeout,
                **options,
            )
            present(res.report(per_query=per_query), fmt, output)
            return
        from ..ranking.collection import evaluate_files

        with busy(f"reading {len(runs) + 1} files and evaluating {len(runs)} run(s)", quiet):
            res = evaluate_files(
                qrels,
                runs,
                metrics,
                qrels_format=qrels_format,
                run_format=run_format,
                columns=columns,
                **options,
            )
        present(res.report(per_query=per_query), fmt, output)
        if report is not None or save is not None:
            docs = [res.document()]
            write_documents(docs, report=report, save=save, title="assay evaluate", quiet=quiet)


def _dask_timeout(seconds: float | None) -> float | None:
    """``--dask-timeout``: a positive number of seconds (checked with or without --dask)."""
    from .._options import number

    return None if seconds is None else number(seconds, "dask_timeout", low=0, low_open=True)


def _no_report_on_dask(report: Any, save: Any) -> None:
    if report is not None or save is not None:
        from ..errors import OptionError

        raise OptionError(
            "--report and --save need the runs on this machine: not with --dask", option="dask"
        )


def register(app: typer.Typer) -> None:
    """Add ``assay evaluate`` to ``app``."""
    app.command("evaluate")(evaluate)
