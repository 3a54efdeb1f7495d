"""``assay demo``: the learning-to-rank job on built-in data — a seeded MSLR-like collection,
a linear model and LambdaMART trained, evaluated and compared with significance."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .._options import OutputFormat
from ._common import (
    QuietOption,
    ReportOption,
    SaveOption,
    SeedOption,
    busy,
    check_report,
    errors,
    present,
    progress_bar,
    write_documents,
)

__all__ = ["DEMO_METRICS", "demo", "register"]

#: The most queries the demo synthesises: about 120 documents of 136 features each, so
#: ten thousand queries already hold over a gigabyte.
_MAX_QUERIES = 10_000
#: What the demo table shows (``assay ltr run`` shows more).
DEMO_METRICS = [
    "ndcg(gain='exp')@1",
    "ndcg(gain='exp')@5",
    "ndcg(gain='exp')@10",
    "AP",
    "err@10",
    "pairwise_accuracy",
]


def demo(
    seed: SeedOption = 0,
    queries: Annotated[
        int, typer.Option(help="Number of queries (60/20/20 train/vali/test).")
    ] = 300,
    threads: Annotated[int, typer.Option("--threads", help="LightGBM threads.")] = 1,
    fmt: Annotated[
        OutputFormat | None, typer.Option("-f", "--format", help="Output format.")
    ] = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Generate a seeded MSLR-like collection (136 features, grades 0-4 skewed to 0), train a
    least-squares model and LambdaMART, and compare them on test with a paired test."""
    with errors():
        from .._optional import require
        from .._options import integer
        from .._options import seed as check_seed
        from ..ltr import run_experiment
        from ..ltr.synthetic import mslr_like_splits

        check_seed(seed)
        n = integer(queries, "queries", minimum=5, maximum=_MAX_QUERIES)
        integer(threads, "num_threads", minimum=1)
        require("lightgbm")  # LambdaMART: say which extra is missing before any work
        check_report(report)
        splits = mslr_like_splits(n, seed=seed)
        shape = ", ".join(
            f"{k} {v.n_queries} queries / {v.n_docs} documents" for k, v in splits.items()
        )
        if not quiet:
            sys.stderr.write(
                f"synthetic MSLR-like collection (seed {seed}): {shape}; 136 features, grades 0-4\n"
            )
        with progress_bar(quiet) as tick:
            exp = run_experiment(
                splits,
                ["linear", "lambdamart"],
                seed=seed,
                num_threads=threads,
                metrics=DEMO_METRICS,
                progress=tick,
            )
        present(exp.report(), fmt or "table")
        if report is not None or save is not None:
            with busy("analysing the models for the report", quiet):
                doc = exp.document()
            write_documents([doc], report=report, save=save, title="assay demo", quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay demo`` to ``app``."""
    app.command("demo")(demo)
