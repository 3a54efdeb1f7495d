"""``assay ltr``: learning to rank on LETOR data — ``run`` (train, evaluate and compare in one
go), ``stats``, ``train`` (predictions written as TREC runs, labels as TREC qrels),
``evaluate`` (runs against a split's labels) and ``analyze``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from .._options import CIMethod, CompareTest, Correction, NoRelevant, ShortQueries, Ties
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
    unwarned,
    warn,
    write_documents,
)

__all__ = ["experiment_document", "ltr_app", "register"]

ltr_app = typer.Typer(
    name="ltr",
    help="Learning to rank on LETOR/SVMlight data: run, stats, train, evaluate, analyze.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

Norm = Literal["none", "min-max", "zscore"]
Analysis = Literal["queries", "length", "relevant", "scores", "importance", "trees", "features"]

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


def experiment_document(exp: Any, splits: dict[str, Any]) -> Any:
    """The report document of an experiment with its analyses on the evaluation split: the
    metric against trees and feature importance (LightGBM's gain: no permutations) for the
    first LambdaMART, effectiveness by query length, and precision-recall curves."""
    from ..report.sections_ranking import experiment_document as document

    with unwarned():  # the undefined queries were reported with the experiment
        return document(exp, analyses=_analyses(exp, splits), curves=_curves(exp, splits))


def _analyses(exp: Any, splits: dict[str, Any]) -> list[Any]:
    from ..ltr import LambdaMART, evaluate_scores
    from ..ltr import analysis as an

    target = splits[exp.split]
    first = {name: s[0] for name, s in exp.scores.items()}
    main = an.NDCG10
    analyses = []
    trees = [m[0] for m in exp.models.values() if isinstance(m[0], LambdaMART)]
    if trees:
        curve = {s: d for s, d in splits.items() if s != "train"}
        total = int(trees[0].booster_.current_iteration())
        analyses.append(an.trees_curve(trees[0], curve, metric=main, step=max(1, total // 50)))
        analyses.append(an.feature_importance(trees[0], target, metric=main, permutation=False))
    res = evaluate_scores(target, first, [main], **_conventions(exp))
    analyses.append(an.by_query_length(target, res, main))
    return analyses


def _curves(exp: Any, splits: dict[str, Any]) -> Any:
    from ..evaluation import evaluate as run_evaluation

    target = splits[exp.split]
    runs = [target.run(s[0], name) for name, s in exp.scores.items()]
    return run_evaluation(
        target.qrels(), runs, ["iprec_at_recall"], missing="error", **_conventions(exp)
    )


def _conventions(exp: Any) -> dict[str, Any]:
    conv = exp.results.conventions
    return {"ties": conv.ties, "no_relevant": conv.no_relevant}


def _load(data: str, fold: int | None, norm: Norm = "none") -> dict[str, Any]:
    from ..ltr import load, normalize

    splits = load(data, fold=fold)
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


def _model_names(models: str) -> list[Any]:
    from .._options import choice
    from ..ltr import ModelName

    names = [m.strip() for m in models.split(",") if m.strip()]
    return [choice(n, ModelName, "models", ignore_case=True) for n in names]


@ltr_app.command("run")
def run(
    data: DataArg,
    models: ModelsOption = "linear,lambdamart",
    seeds: Annotated[int, typer.Option(help="Seeds per model; the spread is reported.")] = 1,
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
        from ..report import experiment_report

        check_report(report)
        with busy(f"reading {data}", quiet):
            splits = _load(data, fold)
        with progress_bar(quiet) as tick:
            exp = run_experiment(
                splits, _model_names(models), seeds=seeds, seed=seed, num_threads=threads,
                norm=None if norm == "none" else norm, metrics=metric or list(LTR_METRICS),
                test=test, n_resamples=n_resamples, correction=correction, alpha=alpha,
                ci_method=ci_method, ties=ties, no_relevant=no_relevant, short_queries=short_queries,
                progress=tick,
            )  # fmt: skip
        for w in exp.results.warnings:
            warn(w)
        present(experiment_report(exp), fmt, output)
        if report is not None or save is not None:
            with busy("analysing the models for the report", quiet):
                doc = experiment_document(exp, splits)
            write_documents([doc], report=report, save=save, title="assay ltr run", quiet=quiet)


@ltr_app.command("stats")
def stats(
    data: DataArg, fold: FoldOption = None, fmt: FormatOption = None, output: OutputOption = None
) -> None:
    """Queries, documents, documents per query, labels, constant and empty features."""
    with errors():
        from ..report import stats_report

        splits = _load(data, fold)
        present(stats_report([s.stats() for s in splits.values()]), fmt, output)


def _save_model(model: Any, path: Path) -> str:
    import json

    from .._files import atomic_open, atomic_path

    if hasattr(model, "booster_") and model.booster_ is not None:
        with atomic_path(path.with_suffix(".txt")) as tmp:
            model.booster_.save_model(tmp, num_iteration=model.best_iteration_)
        return path.with_suffix(".txt").name
    if getattr(model, "coef_", None) is not None:
        body = {"intercept": model.intercept_, "coef": model.coef_.tolist(), "l2": model.l2}
        with atomic_open(path.with_suffix(".json"), "w", encoding="utf-8") as fh:
            fh.write(json.dumps(body))
        return path.with_suffix(".json").name
    return ""


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
        from ..ltr import make_model
        from ..report import Report
        from ..report.table import Column, DisplayTable

        with busy(f"reading {data}", quiet):
            splits = _load(data, fold, norm)
        m = make_model(_model_names(model)[0], seed=seed, num_threads=threads)
        with progress_bar(quiet) as tick:
            m.fit(splits["train"], splits.get("vali"), progress=_ticker(tick, m.name))
        out.mkdir(parents=True, exist_ok=True)
        saved = _save_model(m, out / m.name)
        rows = []
        for split, ds in splits.items():
            run_path, qrels_path = out / f"{split}.{m.name}.run", out / f"{split}.qrels"
            ds.run(m.predict(ds), m.name).to_trec(run_path)
            ds.qrels().to_trec(qrels_path)
            rows.append({"split": split, "queries": ds.n_queries, "documents": ds.n_docs,
                         "run": str(run_path), "qrels": str(qrels_path), "model": saved})  # fmt: skip
        cols = ("split", "queries", "documents", "run", "qrels", "model")
        table = DisplayTable([Column(c) for c in cols], [[str(r[c]) for c in cols] for r in rows])
        present(Report(table, rows, cols, key="files"), fmt, output)


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
            splits[split].qrels(), loaded, metric or list(LTR_METRICS), ties=ties,
            no_relevant=no_relevant, short_queries=short_queries,
        )  # fmt: skip
        for w in res.warnings:
            warn(w)
        present(results_report(res), fmt, output)


@ltr_app.command("analyze")
def analyze(
    data: DataArg,
    analysis: Annotated[Analysis, typer.Argument(help="Which analysis.")],
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
        from ..report import analysis_report

        check_report(report)
        with busy(f"reading {data}", quiet):
            splits = _load(data, fold, norm)
        with progress_bar(quiet) as tick:
            result = _analysis(
                splits,
                analysis,
                _model_names(models),
                split,
                metric,
                seed,
                threads,
                step,
                top,
                tick,
            )
        present(analysis_report(result), fmt, output)
        if report is not None or save is not None:
            write_documents([_analysis_document(result)], report=report, save=save,
                            title="assay ltr analyze", quiet=quiet)  # fmt: skip


def _analysis_document(result: Any) -> Any:
    """One analysis as a report document: its plot (trees, importance, length, relevant)
    and its table."""
    from ..report.document import document
    from ..report.sections_ranking import analysis_section

    return document(f"Learning to rank: {result.title}", "ltr", [analysis_section(result)],
                    records=result.records(), provenance=result.provenance)  # fmt: skip


def _analysis(
    splits: dict[str, Any], kind: str, names: list[str], split: str, metric: str,
    seed: int, threads: int, step: int, top: int | None, tick: Any,
) -> Any:  # fmt: skip
    from .._options import integer
    from ..errors import InputError
    from ..ltr import LambdaMART, evaluate_scores, make_model
    from ..ltr import analysis as an

    if split not in splits:
        raise InputError(f"no {split} split (have {', '.join(splits)})")
    integer(step, "step", minimum=1)
    if top is not None:
        integer(top, "top", minimum=1)
    target = splits[split]
    if kind == "features":
        return an.feature_table(target)
    fitted = []
    for name in names:
        m = make_model(name, seed=seed, num_threads=threads)  # type: ignore[arg-type]
        m.fit(splits["train"], splits.get("vali") if split != "vali" else None,
              progress=_ticker(tick, m.name))  # fmt: skip
        fitted.append(m)
    scores = {m.name: m.predict(target) for m in fitted}
    if kind == "scores":
        return an.score_distribution(target, scores)
    if kind in ("importance", "trees"):
        trees = [m for m in fitted if isinstance(m, LambdaMART)]
        chosen = trees[0] if trees else fitted[0]
        if kind == "importance":
            return an.feature_importance(chosen, target, metric=metric, seed=seed, top=top)
        if not trees:
            raise InputError("the trees analysis needs --models lambdamart")
        curve = {s: d for s, d in splits.items() if s != "train"} or {"train": splits["train"]}
        return an.trees_curve(trees[0], curve, metric=metric, step=step)
    res = evaluate_scores(target, scores, [metric])
    if kind == "queries":
        return an.query_distribution(target, res, metric)
    if kind == "length":
        return an.by_query_length(target, res, metric)
    return an.by_relevant(target, res, metric)


def register(app: typer.Typer) -> None:
    """Add ``assay ltr ...`` to ``app``."""
    app.add_typer(ltr_app, name="ltr")
