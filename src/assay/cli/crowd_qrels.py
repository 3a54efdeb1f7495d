"""``assay crowd-qrels JUDGMENTS [RUN...]``: qrels from crowd relevance judgments (rows
``query, doc, worker, grade``), the workers' agreement per topic and, with runs, how the
system ranking changes against majority-vote qrels."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .._options import Level
from ..judgments.options import CrowdMethod, Duplicates, GradeRule, TableFormat
from ._common import (
    FormatOption,
    OutputOption,
    QuietOption,
    ReportOption,
    RunFormatOption,
    SaveOption,
    busy,
    check_report,
    errors,
    present,
    write_documents,
)

__all__ = ["crowd_qrels", "register"]

#: The title of the ``--report`` page.
TITLE = "assay crowd-qrels"


def _grades(text: str | None) -> list[int] | None:
    """``--grades 0,1,2``: the declared grade scale."""
    from ..errors import OptionError

    if text is None:
        return None
    try:
        return [int(part) for part in text.replace(" ", "").split(",")]
    except ValueError:
        raise OptionError(
            f"--grades must list integer grades separated by commas (0,1,2), got {text!r}",
            option="grades",
        ) from None


def _check_table(judgments: str, judgments_format: str | None) -> None:
    """JUDGMENTS is a table: a file whose extension names no tabular format needs
    ``--judgments-format`` (the library's message names the Python option)."""
    from ..errors import InputError
    from ..io.formats import detect_format

    if (judgments_format or detect_format(judgments)) == "trec":
        raise InputError(
            "expected a table with a header row (CSV, TSV, Parquet or JSON Lines; name the "
            "format with --judgments-format)",
            source=judgments,
        )


#: The most iterations ``--max-iter`` asks for: far past any convergence, short of a run of days.
MAX_ITER = 1_000_000


def _method_options(
    method: str, max_iter: int | None, tolerance: float | None, seed: int | None
) -> dict[str, Any]:
    """The method options given on the command line, as the method names them (MACE's
    iterations are ``n_iter``); the method's declaration validates them."""
    from .._options import integer

    if max_iter is not None:
        max_iter = integer(max_iter, "max_iter", minimum=1, maximum=MAX_ITER)
    given = {
        ("n_iter" if method == "mace" else "max_iter"): max_iter,
        "tolerance": tolerance,
        "seed": seed,
    }
    return {k: v for k, v in given.items() if v is not None}


def crowd_qrels(
    judgments: Annotated[
        str,
        typer.Argument(
            help="Crowd judgments: a CSV/TSV/Parquet/JSON Lines table with columns query, doc, "
            "worker, grade."
        ),
    ],
    runs: Annotated[
        list[str] | None,
        typer.Argument(help="Runs (two or more) ranked under majority-vote and aggregated qrels."),
    ] = None,
    method: Annotated[CrowdMethod, typer.Option(help="Label aggregation method.")] = "dawid_skene",
    query: Annotated[
        str, typer.Option("--query", "--query-column", help="The query id column.")
    ] = "query",
    doc: Annotated[
        str, typer.Option("--doc", "--doc-column", help="The document id column.")
    ] = "doc",
    worker: Annotated[
        str, typer.Option("--worker", "--worker-column", help="The worker id column.")
    ] = "worker",
    grade: Annotated[
        str, typer.Option("--grade", "--grade-column", help="The grade column.")
    ] = "grade",
    grades: Annotated[
        str | None,
        typer.Option(help="The declared grade scale, e.g. 0,1,2 (default: the grades found)."),
    ] = None,
    duplicates: Annotated[
        Duplicates, typer.Option(help="A worker grading a document twice: error, or keep both.")
    ] = "error",
    grade_rule: Annotated[
        GradeRule,
        typer.Option(
            help="Aggregated grade: argmax (the most probable) or expected (the grade nearest "
            "the posterior mean)."
        ),
    ] = "argmax",
    judgments_format: Annotated[
        TableFormat | None,
        typer.Option(help="Force the judgments' format (default: from the file extension)."),
    ] = None,
    run_format: RunFormatOption = None,
    metric: Annotated[
        str, typer.Option("-m", "--metric", help="Metric the runs are ranked by.")
    ] = "ndcg@10",
    level: Annotated[Level, typer.Option(help="Krippendorff's alpha level.")] = "ordinal",
    p: Annotated[float, typer.Option(help="RBO's persistence, in (0, 1).")] = 0.9,
    max_iter: Annotated[
        int | None, typer.Option(help="Most iterations of an iterative method (its default).")
    ] = None,
    tolerance: Annotated[
        float | None, typer.Option(help="Convergence tolerance of an iterative method.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of a randomised method (MACE; random ties).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the aggregated qrels (TREC) to this file.")
    ] = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Qrels from crowd relevance judgments: each judged document's grades aggregated (Dawid-
    Skene by default), the workers' agreement per topic (Krippendorff's alpha) and, with
    runs, the runs' scores under majority-vote and aggregated qrels with Kendall tau, tau_AP
    and RBO between the two rankings."""
    with errors():
        from ..data import Run
        from ..judgments import crowd_qrels as build
        from ._common import distinct_inputs, unique_names

        check_report(report)
        paths = list(runs or [])
        distinct_inputs(paths, "run")
        declared = _grades(grades)
        _check_table(judgments, judgments_format)
        loaded = [
            Run.read(path, name=n, format=run_format)
            for path, n in zip(paths, unique_names(paths), strict=True)
        ]
        with busy(f"aggregating the grades ({method})", quiet):
            result = build(
                judgments,
                method=method,
                query=query,
                doc=doc,
                worker=worker,
                grade=grade,
                format=judgments_format,
                grades=declared,
                duplicates=duplicates,
                grade_rule=grade_rule,
                level=level,
                runs=loaded or None,
                metric=metric,
                p=p,
                **_method_options(method, max_iter, tolerance, seed),
            )
        if out is not None:
            result.write_qrels(out)
        present(result.report(), fmt, output)
        if report is not None or save is not None:
            write_documents([result.document()], report=report, save=save, title=TITLE, quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay crowd-qrels`` to ``app``."""
    app.command("crowd-qrels")(crowd_qrels)
