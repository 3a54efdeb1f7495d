"""``assay ltr``: learning to rank on LETOR data — ``run`` (train, evaluate and compare in one
go), ``stats``, ``train`` (predictions written as TREC runs, labels as TREC qrels),
``evaluate`` (runs against a split's labels) and ``analyze``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from .._options import CIMethod, CompareTest, Correction, NoRelevant, ShortQueries, Ties
from ..ltr.options import AnalysisKind, Norm
from ._common import (
    FormatOption,
    MetricOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    busy,
    check_report,
    errors,
    present,
    progress_bar,
    warn,
    write_documents,
)

__all__ = ["ltr_app", "register"]

ltr_app = typer.Typer(
    name="ltr",
    help="Learning to rank on LETOR/SVMlight data: run, stats, train, evaluate, analyze.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

DataArg = Annotated[
    str,
    typer.Argument(
        help="A LETOR file, or a folder with train/vali/test files (FoldN sub-folders too)."
    ),
]
ModelsOption = Annotated[
    str, typer.Option(help="Models, comma-separated: linear, ridge, lambdamart, random.")
]
FoldOption = Annotated[int | None, typer.Option(help="FoldN sub-folder to read (default 1).")]
SeedOption = Annotated[int, typer.Option(help="Seed of the models and of every random procedure.")]
ThreadsOption = Annotated[
    int, typer.Option("--threads", help="LightGBM threads (results are identical for any count).")
]
NormOption = Annotated[Norm, typer.Option(help="Query-level feature normalisation.")]
LtrTiesOption = Annotated[Ties, typer.Option(help="Tied scores: input (LightGBM), docno, average.")]
LtrNoRelevantOption = Annotated[
    NoRelevant,
    typer.Option(
        help="Queries without a relevant document: one (LightGBM), zero (trec_eval), skip, nan."
    ),
]
ShortOption = Annotated[
    ShortQueries,
    typer.Option(
        help="Queries with fewer than k documents for metrics @k: score, or skip (NaN, left out)."
    ),
]


def _load(data: str, fold: int | None, norm: Norm = "none") -> dict[str, Any]:
    from ..ltr import load, normalize

    splits: dict[str, Any] = load(data, fold=fold)
    if norm != "none":
        splits = {k: normalize(v, norm=norm) for k, v in splits.items()}
    return splits


def _ticker(
    tick: Callable[[str, int, int], None] | None, label: str
) -> Callable[[int, int], None] | None:
    """A model's progress callback reporting under ``label`` (None without a bar)."""
    if tick is None:
        return None

    def report(done: int, total: int) -> None:
        tick(label, done, total)

    return report


def _seeds(text: str) -> int | list[int]:
    """``--seeds``: a count, or comma-separated seeds (validated by run_experiment)."""
    from ..errors import OptionError

    parts = [p.strip() for p in text.split(",")]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise OptionError(
            f"--seeds must be a count or comma-separated seeds (1,2,3), got {text!r}",
            option="seeds",
        ) from None
    return values[0] if "," not in text else values


def _model_names(models: str) -> list[Any]:
    from .._options import choice
    from ..ltr.options import ModelName

    names = [m.strip() for m in models.split(",") if m.strip()]
    return [choice(n, ModelName, "models", ignore_case=True) for n in names]


@ltr_app.command("run")
def run(
    data: DataArg,
    models: ModelsOption = "linear,lambdamart",
    baseline: Annotated[
        str | None,
        typer.Option(help="The model every other is compared with (default: the first)."),
    ] = None,
    seeds: Annotated[
        str,
        typer.Option(
            help="Fits per model: a count (seeds --seed, --seed+1, ...) or the seeds, "
            "comma-separated (1,2,3,4,5); with several, each model's score distribution "
            "over seeds and ASO against the baseline are reported.",
        ),
    ] = "1",
    seed: SeedOption = 0,
    fold: FoldOption = None,
    norm: NormOption = "none",
    threads: ThreadsOption = 1,
    metric: MetricOption = None,
    test: Annotated[CompareTest, typer.Option(help="Paired test.")] = "randomization",
    n_resamples: Annotated[int, typer.Option(help="Resamples of the test and the CIs.")] = 10000,
    correction: Annotated[
        Correction, typer.Option(help="Multiple-comparison correction.")
    ] = "holm",
    alpha: Annotated[float, typer.Option(help="Significance level.")] = 0.05,
    ci_method: Annotated[CIMethod, typer.Option(help="Confidence intervals.")] = "bca",
    ties: LtrTiesOption = "input",
    no_relevant: LtrNoRelevantOption = "one",
    short_queries: ShortOption = "score",
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Train on train (early stopping on vali), evaluate and compare on test, print the table."""
    with errors():
        from ..ltr import LTR_METRICS, run_experiment

        check_report(report)
        with busy(f"reading {data}", quiet):
            splits = _load(data, fold)
        with progress_bar(quiet) as tick:
            exp = run_experiment(
                splits,
                _model_names(models),
                baseline=baseline,
                seeds=_seeds(seeds),
                seed=seed,
                num_threads=threads,
                norm=None if norm == "none" else norm,
                metrics=metric or list(LTR_METRICS),
                test=test,
                n_resamples=n_resamples,
                correction=correction,
                alpha=alpha,
                ci_method=ci_method,
                ties=ties,
                no_relevant=no_relevant,
                short_queries=short_queries,
                progress=tick,
            )
        for w in exp.results.warnings:
            warn(w)
        present(exp.report(), fmt, output)
        if report is not None or save is not None:
            with busy("analysing the models for the report", quiet):
                doc = exp.document()
            write_documents([doc], report=report, save=save, title="assay ltr run", quiet=quiet)


@ltr_app.command("stats")
def stats(
    data: DataArg, fold: FoldOption = None, fmt: FormatOption = None, output: OutputOption = None
) -> None:
    """Queries, documents, documents per query, labels, constant and empty features."""
    with errors():
        from ..ltr import collection_stats

        splits = _load(data, fold)
        present(collection_stats(splits).report(), fmt, output)


@ltr_app.command("train")
def train(
    data: DataArg,
    out: Annotated[Path, typer.Option("--out", help="Folder for the runs, qrels and model.")],
    model: Annotated[str, typer.Option(help="linear, ridge, lambdamart or random.")] = "lambdamart",
    seed: SeedOption = 0,
    fold: FoldOption = None,
    norm: NormOption = "none",
    threads: ThreadsOption = 1,
    fmt: FormatOption = None,
    output: OutputOption = None,
    quiet: QuietOption = False,
) -> None:
    """Fit one model on train and write every split's predictions as a TREC run
    (SPLIT.MODEL.run), its labels as TREC qrels (SPLIT.qrels) and the model."""
    with errors():
        from ..ltr import export, make_model

        with busy(f"reading {data}", quiet):
            splits = _load(data, fold, norm)
        m = make_model(_model_names(model)[0], seed=seed, num_threads=threads)
        with progress_bar(quiet) as tick:
            m.fit(splits["train"], splits.get("vali"), progress=_ticker(tick, m.name))
        present(export(m, splits, out).report(), fmt, output)


@ltr_app.command("evaluate")
def evaluate(
    data: DataArg,
    runs: Annotated[
        list[str], typer.Argument(help="TREC run files scoring the split's documents.")
    ],
    split: Annotated[str, typer.Option(help="Split whose labels judge the runs.")] = "test",
    fold: FoldOption = None,
    metric: MetricOption = None,
    ties: LtrTiesOption = "input",
    no_relevant: LtrNoRelevantOption = "one",
    short_queries: ShortOption = "score",
    fmt: FormatOption = None,
    output: OutputOption = None,
) -> None:
    """Evaluate run files against a split's labels with the LTR metrics and conventions."""
    with errors():
        from ..data import Run
        from ..errors import InputError
        from ..evaluation import evaluate as run_evaluation
        from ..ltr import LTR_METRICS
        from ..ranking import results_report
        from ._common import unique_names

        splits = _load(data, fold)
        if split not in splits:
            raise InputError(f"no {split} split (have {', '.join(splits)})", source=data)
        loaded = [Run.read(p, name=n) for p, n in zip(runs, unique_names(runs), strict=True)]
        res = run_evaluation(
            splits[split].qrels(),
            loaded,
            metric or list(LTR_METRICS),
            ties=ties,
            no_relevant=no_relevant,
            short_queries=short_queries,
        )
        for w in res.warnings:
            warn(w)
        present(results_report(res), fmt, output)


@ltr_app.command("analyze")
def analyze(
    data: DataArg,
    analysis: Annotated[AnalysisKind, typer.Argument(help="Which analysis.")],
    models: ModelsOption = "linear,lambdamart",
    split: Annotated[str, typer.Option(help="Split analysed.")] = "test",
    metric: Annotated[str, typer.Option(help="Metric of the analysis.")] = "ndcg(gain='exp')@10",
    seed: SeedOption = 0,
    fold: FoldOption = None,
    norm: NormOption = "none",
    threads: ThreadsOption = 1,
    step: Annotated[int, typer.Option(help="trees: evaluate every STEP trees.")] = 1,
    top: Annotated[int | None, typer.Option(help="importance: keep the TOP features.")] = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Per-query distribution, effectiveness by query length or relevant documents, scores
    per grade, feature importance, metric vs number of trees, feature statistics."""
    with errors():
        from ..ltr import analyze as run_analysis

        check_report(report)
        with busy(f"reading {data}", quiet):
            splits = _load(data, fold, norm)
        with progress_bar(quiet) as tick:
            result = run_analysis(
                splits,
                analysis,
                _model_names(models),
                split=split,
                metric=metric,
                seed=seed,
                num_threads=threads,
                step=step,
                top=top,
                progress=tick,
            )
        present(result.report(), fmt, output)
        if report is not None or save is not None:
            write_documents(
                [result.document()],
                report=report,
                save=save,
                title="assay ltr analyze",
                quiet=quiet,
            )


def register(app: typer.Typer) -> None:
    """Add ``assay ltr ...`` to ``app``."""
    app.add_typer(ltr_app, name="ltr")
