"""The ``assay`` command line. Heavy modules are imported inside the commands so that
``assay --help`` answers at once. Bad input prints one line and exits with code 2."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ._version import __version__
from .errors import AssayError

app = typer.Typer(
    name="assay",
    help="Offline evaluation of ranking and NLP systems: trec_eval-exact metrics, fast.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

DEFAULT_METRICS = ["map", "ndcg@10", "P@10", "RR", "R@100"]


class Format(StrEnum):
    table = "table"
    tsv = "tsv"
    csv = "csv"
    jsonl = "jsonl"
    json = "json"
    markdown = "markdown"
    latex = "latex"


class InputFormat(StrEnum):
    trec = "trec"
    csv = "csv"
    tsv = "tsv"
    parquet = "parquet"
    jsonl = "jsonl"


class Ties(StrEnum):
    docno = "docno"
    input = "input"
    average = "average"


class Missing(StrEnum):
    zero = "zero"
    skip = "skip"
    error = "error"


class NoRelevant(StrEnum):
    zero = "zero"
    one = "one"
    skip = "skip"
    nan = "nan"


def _err(message: str) -> None:
    sys.stderr.write(f"assay: error: {message}\n")


def _warn(message: str) -> None:
    sys.stderr.write(f"assay: warning: {message}\n")


@contextmanager
def _errors() -> Iterator[None]:
    """AssayError -> one line on stderr and exit code 2; never a traceback for bad input."""
    try:
        yield
    except AssayError as exc:
        _err(str(exc))
        raise typer.Exit(2) from None
    except BrokenPipeError:
        raise typer.Exit(0) from None
    except OSError as exc:  # an unreadable input or an unwritable output file
        where = f"{exc.filename}: " if exc.filename is not None else ""
        _err(f"{where}{exc.strerror or exc}")
        raise typer.Exit(2) from None


def _version(value: bool) -> None:
    if value:
        typer.echo(f"assay {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Offline evaluation of ranking and NLP systems."""


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        output.write_text(text, encoding="utf-8")


def _present(fmt: Format | None, output: Path | None, table: Any, text: Any) -> None:
    """Print a result: ``table()`` gives a rich table (default on a terminal), ``text(fmt)``
    the text of a machine format (default tsv elsewhere)."""
    chosen = (
        fmt.value
        if fmt is not None
        else ("table" if output is None and sys.stdout.isatty() else "tsv")
    )
    if chosen != "table":
        _emit(text(chosen), output)
        return
    from rich.console import Console

    if output is None:
        console = Console()
        if not console.is_terminal:
            console = Console(width=max(console.width, 240))
        console.print(table())
    else:
        with output.open("w", encoding="utf-8") as fh:
            Console(file=fh, width=240).print(table())


def _show(results: Any, fmt: Format | None, per_query: bool, output: Path | None) -> None:
    from ._format import render, rich_table

    _present(
        fmt,
        output,
        lambda: rich_table(results, per_query),
        lambda chosen: render(results, chosen, per_query),
    )


def _unique_names(paths: list[str]) -> list[str]:
    import os

    names = [os.path.basename(p[:-3] if p.endswith(".gz") else p) or p for p in paths]
    if len(set(names)) == len(names):
        return names
    return paths


@app.command()
def evaluate(
    qrels: Annotated[
        str, typer.Argument(help="Qrels file (TREC, .csv/.tsv/.parquet/.jsonl); - for stdin.")
    ],
    runs: Annotated[list[str], typer.Argument(help="One or more run files.")],
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "-m",
            "--metric",
            help="Metric, repeatable: ndcg@10, P(rel=2)@5, map, ndcg_cut.10, P.5,10 ... "
            f"(default: {' '.join(DEFAULT_METRICS)}). `assay metrics` lists them.",
        ),
    ] = None,
    per_query: Annotated[
        bool, typer.Option("-q", "--per-query", help="Also print per-query values.")
    ] = False,
    fmt: Annotated[
        Format | None,
        typer.Option(
            "-f", "--format", help="Output format (default: table on a terminal, else tsv)."
        ),
    ] = None,
    ties: Annotated[
        Ties, typer.Option(help="Tied scores: docno (trec_eval), input, average.")
    ] = Ties.docno,
    missing: Annotated[
        Missing,
        typer.Option(help="Qrels queries absent from a run: zero (trec_eval -c), skip, error."),
    ] = Missing.zero,
    no_relevant: Annotated[
        NoRelevant,
        typer.Option(
            help="Queries where a metric is undefined (no relevant document): zero, one, skip, nan."
        ),
    ] = NoRelevant.zero,
    judged_only: Annotated[
        bool,
        typer.Option(
            "--judged-only", "-J", help="Drop unjudged documents before ranking (trec_eval -J)."
        ),
    ] = False,
    qrels_format: Annotated[
        InputFormat | None,
        typer.Option(help="Force the qrels format (default: from the file extension, else trec)."),
    ] = None,
    run_format: Annotated[
        InputFormat | None,
        typer.Option(help="Force the run format (default: from the file extension, else trec)."),
    ] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file.")] = None,
) -> None:
    """Evaluate runs against qrels."""
    with _errors():
        from .data import Qrels, Run
        from .evaluation import evaluate as _evaluate

        q = Qrels.read(qrels, format=qrels_format.value if qrels_format else None)
        names = _unique_names(runs)
        run_objs = [
            Run.read(p, format=run_format.value if run_format else None, name=n)
            for p, n in zip(runs, names, strict=True)
        ]
        res = _evaluate(
            q,
            run_objs,
            metric or DEFAULT_METRICS,
            ties=ties.value,
            missing=missing.value,
            no_relevant=no_relevant.value,
            judged_only=judged_only,
        )
        for w in res.warnings:
            _warn(w)
        _show(res, fmt, per_query, output)


class Test(StrEnum):
    randomization = "randomization"
    t = "t"
    wilcoxon = "wilcoxon"
    sign = "sign"
    bootstrap = "bootstrap"
    tukey = "tukey"


class Correction(StrEnum):
    holm = "holm"
    bonferroni = "bonferroni"
    bh = "bh"
    none = "none"


class CIMethod(StrEnum):
    bca = "bca"
    percentile = "percentile"
    basic = "basic"
    t = "t"


@app.command()
def compare(
    qrels: Annotated[str, typer.Argument(help="Qrels file (TREC, .csv/.tsv/.parquet/.jsonl).")],
    runs: Annotated[list[str], typer.Argument(help="Two or more run files.")],
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "-m", "--metric", help=f"Metric, repeatable (default: {' '.join(DEFAULT_METRICS)})."
        ),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(
            help="Compare every run with this one (a run name: the file name); default: all pairs."
        ),
    ] = None,
    test: Annotated[Test, typer.Option(help="Paired test.")] = Test.randomization,
    n_resamples: Annotated[
        int, typer.Option(help="Resamples for randomization/bootstrap/tukey.")
    ] = 10000,
    seed: Annotated[int, typer.Option(help="Seed of every random procedure.")] = 0,
    correction: Annotated[
        Correction, typer.Option(help="Multiple-comparison correction, per metric.")
    ] = Correction.holm,
    alpha: Annotated[float, typer.Option(help="Significance level for the markers.")] = 0.05,
    ci: Annotated[
        CIMethod, typer.Option(help="Confidence intervals of means and differences.")
    ] = CIMethod.bca,
    fmt: Annotated[
        Format | None,
        typer.Option(
            "-f", "--format", help="Output format (default: table on a terminal, else tsv)."
        ),
    ] = None,
    ties: Annotated[
        Ties, typer.Option(help="Tied scores: docno (trec_eval), input, average.")
    ] = Ties.docno,
    missing: Annotated[
        Missing, typer.Option(help="Qrels queries absent from a run.")
    ] = Missing.zero,
    no_relevant: Annotated[
        NoRelevant, typer.Option(help="Queries where a metric is undefined.")
    ] = NoRelevant.zero,
    judged_only: Annotated[
        bool, typer.Option("--judged-only", "-J", help="Drop unjudged documents.")
    ] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file.")] = None,
) -> None:
    """Compare runs: means with CIs, paired tests, corrected p-values, significance markers."""
    with _errors():
        from .comparison import compare as _compare
        from .data import Qrels, Run

        q = Qrels.read(qrels)
        names = _unique_names(runs)
        run_objs = [Run.read(p, name=n) for p, n in zip(runs, names, strict=True)]
        cmp = _compare(
            q,
            run_objs,
            metric or DEFAULT_METRICS,
            baseline=baseline,
            test=test.value,
            n_resamples=n_resamples,
            seed=seed,
            correction=correction.value,
            alpha=alpha,
            ci_method=ci.value,
            ties=ties.value,
            missing=missing.value,
            no_relevant=no_relevant.value,
            judged_only=judged_only,
        )
        for w in cmp.results.warnings:
            _warn(w)
        from ._format import render_comparison, rich_comparison_table

        _present(
            fmt,
            output,
            lambda: rich_comparison_table(cmp),
            lambda chosen: render_comparison(cmp, chosen),
        )


@app.command()
def metrics(
    fmt: Annotated[str, typer.Option("-f", "--format", help="table, markdown or json.")] = "table",
) -> None:
    """List every metric with its parameters and a one-line description."""
    with _errors():
        from .metrics import REGISTRY
        from .metrics.catalog import describe

        rows = [describe(spec) for spec in REGISTRY.values()]
        if fmt == "json":
            import json

            sys.stdout.write(json.dumps(rows, indent=2) + "\n")
            return
        if fmt == "markdown":
            from .metrics.catalog import markdown

            sys.stdout.write(markdown(rows))
            return
        if fmt != "table":
            raise AssayError(f"unknown format {fmt!r}; expected table, markdown or json")
        from rich.console import Console
        from rich.table import Table

        table = Table(show_lines=False)
        table.add_column("metric", no_wrap=True)  # a name must survive grep and copy-paste
        for col in ("parameters", "@k", "range", "better", "description"):
            table.add_column(col, overflow="fold")
        for r in rows:
            table.add_row(
                r["name"],
                r["params_text"],
                r["cutoff"],
                r["range"],
                "higher" if r["higher_is_better"] else "lower",
                r["summary"],
            )
        console = Console()
        if not console.is_terminal:
            console = Console(width=max(console.width, 200))
        console.print(table)


@app.command(
    "trec-eval",
    context_settings={
        "allow_extra_args": True,
        "ignore_unknown_options": True,
        "help_option_names": [],
    },
    add_help_option=False,
)
def trec_eval(ctx: typer.Context) -> None:
    """trec_eval 10.0 byte for byte: [-q] [-c] [-n] [-J] [-l N] [-M N] [-m MEASURE[.PARAMS]]...
    QRELS RUN. `assay trec-eval -h` lists flags and measures."""
    # trec_eval's own flag syntax (-mP.5, -M100, -qc, options after the files) is parsed by
    # assay.compat.trec_eval, so every argument is passed through untouched.
    with _errors():
        from .compat.trec_eval import main as trec_eval_main

        code = trec_eval_main(list(ctx.args))
    if code:
        raise typer.Exit(code)


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Seed of the synthetic collection.")] = 0,
    queries: Annotated[int, typer.Option(help="Number of queries.")] = 200,
    fmt: Annotated[Format | None, typer.Option("-f", "--format", help="Output format.")] = None,
) -> None:
    """Generate a seeded synthetic collection (graded qrels, three runs) and evaluate it."""
    with _errors():
        from .datasets import synthetic
        from .evaluation import evaluate as _evaluate

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
        res = _evaluate(
            qrels,
            runs,
            ["map", "ndcg@10", "ndcg(gain='exp')@10", "P@10", "RR", "err@10", "bpref", "R@100"],
        )
        for w in res.warnings:
            _warn(w)
        _show(res, fmt or Format.table, False, None)


def _register_task_commands() -> None:
    """Commands defined in their own light modules (heavy imports happen inside them)."""
    from ._cli_agree import agree
    from ._cli_classify import classify
    from ._cli_cluster import cluster
    from ._cli_fusion import aggregate, fuse

    app.command("classify")(classify)
    app.command("cluster")(cluster)
    app.command("agree")(agree)
    app.command("fuse")(fuse)
    app.command("aggregate")(aggregate)


_register_task_commands()


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
