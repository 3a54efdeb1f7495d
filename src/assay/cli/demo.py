"""``assay demo``: a seeded synthetic collection, evaluated."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .._options import OutputFormat
from ._common import SeedOption, errors, present

__all__ = ["demo", "register"]

DEMO_METRICS = ["map", "ndcg@10", "ndcg(gain='exp')@10", "P@10", "RR", "err@10", "bpref", "R@100"]


def demo(
    seed: SeedOption = 0,
    queries: Annotated[int, typer.Option(help="Number of queries.")] = 200,
    fmt: Annotated[
        OutputFormat | None, typer.Option("-f", "--format", help="Output format.")
    ] = None,
) -> None:
    """Generate a seeded synthetic collection (graded qrels, three runs) and evaluate it."""
    with errors():
        from ..datasets import synthetic
        from ..evaluation import evaluate
        from ..report import results_report

        qrels, runs = synthetic(
            n_queries=queries,
            docs_per_query=200,
            depth=100,
            noise=(0.5, 1.0, 2.0),
            run_names=("strong", "medium", "weak"),
            judged_fraction=0.8,
            seed=seed,
        )
        sys.stderr.write(
            f"synthetic collection (seed {seed}): {qrels.n_queries} queries, {len(qrels)} "
            f"judgments (grades 0-{qrels.max_grade}); runs {', '.join(runs)} of decreasing quality\n"
        )
        res = evaluate(qrels, runs, DEMO_METRICS)
        present(results_report(res), fmt or "table")


def register(app: typer.Typer) -> None:
    """Add ``assay demo`` to ``app``."""
    app.command("demo")(demo)
