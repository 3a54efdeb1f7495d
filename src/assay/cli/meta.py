"""``assay meta ...``: evaluating the evaluation.

- ``assay meta discpower QRELS RUN... -m M...``: discriminative power of metrics (Sakai 2006);
- ``assay meta topicsize QRELS RUN... -m M... --min-diff D``: topic-set size design (Sakai
  2016), or ``assay meta topicsize --variance V --n-topics N``;
- ``assay meta rbo RUN_A RUN_B``: rank-biased overlap per query (Webber et al. 2010);
- ``assay meta repro QRELS ORIG_BASE ORIG_ADV REP_BASE REP_ADV -m M...``: reproducibility
  measures (Breuer et al. 2020, as repro_eval), ``--rep-qrels`` for a replication;
- ``assay meta assessors QRELS_A QRELS_B [RUN...]``: assessor agreement (Voorhees 2000);
- ``assay meta anova QRELS RUN... -m M...``: two-way ANOVA without replication of runs ×
  topics, run means with margins of error, effect sizes (Sakai 2018);
- ``assay meta replicability TABLE``: on how many datasets an effect holds, from one p-value
  per dataset (Dror et al. 2017).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .._options import Combination, KappaWeights, Level
from ..meta.options import PowerMethod, RBOTies
from ._common import (
    DEFAULT_METRICS,
    AlphaOption,
    ConfidenceOption,
    FormatOption,
    JudgedOnlyOption,
    MetricOption,
    MissingOption,
    NoRelevantOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    SeedOption,
    TiesOption,
    check_report,
    errors,
    load_collection,
    present,
    warn,
    write_documents,
)

__all__ = [
    "anova",
    "assessors",
    "discpower",
    "rbo",
    "register",
    "replicability",
    "repro",
    "topicsize",
]

group = typer.Typer(
    name="meta",
    help="Evaluating the evaluation: discriminative power, topic-set size, RBO, "
    "reproducibility, assessor agreement, ANOVA, replicability across datasets.",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

POption = Annotated[float, typer.Option("--p", "-p", help="RBO persistence p in (0, 1).")]


def _metrics(metric: list[str] | None) -> list[str]:
    return metric or DEFAULT_METRICS


def _show(
    result: Any,
    command: str,
    fmt: Any,
    output: Any,
    report: Any,
    save: Any,
    quiet: bool,
    **options: bool,
) -> None:
    """Print a meta result's report and write its ``--report`` / ``--save`` (``options``:
    the result's report options, as ``pairs``)."""
    present(result.report(**options), fmt, output)
    if report is not None or save is not None:
        doc = result.document(**options)
        write_documents([doc], report=report, save=save, title=f"assay meta {command}", quiet=quiet)


@group.command("discpower")
def discpower(
    qrels: Annotated[str, typer.Argument(help="Qrels file or irds:DATASET_ID.")],
    runs: Annotated[list[str], typer.Argument(help="Two or more run files.")],
    metric: MetricOption = None,
    test: Annotated[
        list[str] | None,
        typer.Option("--test", help="bootstrap (Sakai 2006), tukey (randomised HSD); repeatable."),
    ] = None,
    alpha: AlphaOption = 0.05,
    n_resamples: Annotated[int, typer.Option(help="Resamples B.")] = 1000,
    seed: SeedOption = 0,
    pairs: Annotated[bool, typer.Option("--pairs", help="Every pair's ASL instead.")] = False,
    fmt: FormatOption = None,
    ties: TiesOption = "docno",
    missing: MissingOption = "zero",
    no_relevant: NoRelevantOption = "zero",
    judged_only: JudgedOnlyOption = False,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Discriminative power of metrics: share of run pairs significant at alpha, the ASL
    curve and the estimated difference required (Sakai 2006)."""
    with errors():
        from ..evaluation import evaluate
        from ..meta import discriminative_power

        check_report(report)
        q, loaded = load_collection(qrels, runs)
        res = evaluate(
            q,
            loaded,
            _metrics(metric),
            ties=ties,
            missing=missing,
            no_relevant=no_relevant,
            judged_only=judged_only,
        )
        for w in res.warnings:
            warn(w)
        tests: list[Any] = list(test or ("bootstrap", "tukey"))
        dp = discriminative_power(res, test=tests, alpha=alpha, n_resamples=n_resamples, seed=seed)
        _show(dp, "discpower", fmt, output, report, save, quiet, pairs=pairs)


@group.command("topicsize")
def topicsize(
    qrels: Annotated[str | None, typer.Argument(help="Qrels file or irds:DATASET_ID.")] = None,
    runs: Annotated[
        list[str] | None, typer.Argument(help="Run files (the variance source).")
    ] = None,
    metric: MetricOption = None,
    min_diff: Annotated[
        list[float] | None,
        typer.Option("--min-diff", help="Minimum detectable difference; repeatable."),
    ] = None,
    alpha: AlphaOption = 0.05,
    beta: Annotated[float, typer.Option(help="Type II error rate (power 1 - beta).")] = 0.2,
    n_systems: Annotated[
        int | None, typer.Option(help="Systems compared by the ANOVA (default: the runs).")
    ] = None,
    variance: Annotated[
        float | None, typer.Option(help="A variance estimate instead of QRELS and RUNs.")
    ] = None,
    n_topics: Annotated[
        int | None, typer.Option(help="Current topic set size (with --variance).")
    ] = None,
    power_method: Annotated[
        PowerMethod, typer.Option(help="exact (noncentral t/F) or normal (Sakai's Excel tools).")
    ] = "exact",
    fmt: FormatOption = None,
    ties: TiesOption = "docno",
    missing: MissingOption = "zero",
    no_relevant: NoRelevantOption = "zero",
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Topic-set size design (Sakai 2016): topics needed by the paired t-test and one-way
    ANOVA, and the power of the current topic set."""
    with errors():
        from ..errors import InputError
        from ..evaluation import evaluate
        from ..meta import topic_set_size
        from ..results import Results

        check_report(report)
        if variance is not None:
            if qrels is not None:
                raise InputError("give either --variance or QRELS and RUNs, not both")
            source: Results | float = variance
        else:
            if qrels is None or not runs or len(runs) < 2:
                raise InputError("give QRELS and two or more RUNs (or --variance)")
            q, loaded = load_collection(qrels, runs)
            res = evaluate(
                q, loaded, _metrics(metric), ties=ties, missing=missing, no_relevant=no_relevant
            )
            for w in res.warnings:
                warn(w)
            source = res
        ts = topic_set_size(
            source,
            min_diff=min_diff or [0.1],
            alpha=alpha,
            beta=beta,
            n_systems=n_systems,
            n_topics=n_topics,
            power_method=power_method,
        )
        _show(ts, "topicsize", fmt, output, report, save, quiet)


@group.command("rbo")
def rbo(
    run_a: Annotated[str, typer.Argument(help="First run file.")],
    run_b: Annotated[str, typer.Argument(help="Second run file.")],
    p: POption = 0.9,
    depth: Annotated[int | None, typer.Option(help="Compare the first N documents.")] = None,
    ties: Annotated[
        RBOTies, typer.Option(help="Tied scores: docno (trec_eval), input, group (tie groups).")
    ] = "docno",
    per_query: Annotated[bool, typer.Option("--per-query", help="Every query's RBO.")] = False,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Rank-biased overlap (RBO_min, RBO_res, RBO_ext) of two runs, query by query."""
    with errors():
        from ..data import Run
        from ..meta import rbo_runs
        from ._common import unique_names

        check_report(report)
        names = unique_names([run_a, run_b])
        a, b = (Run.read(path, name=n) for path, n in zip((run_a, run_b), names, strict=True))
        import warnings as _w

        with _w.catch_warnings():
            _w.simplefilter("ignore")  # reported below, once
            res = rbo_runs(a, b, p=p, depth=depth, ties=ties)
        for note in res.warnings:
            warn(note)
        _show(res, "rbo", fmt, output, report, save, quiet, per_query=per_query)


@group.command("repro")
def repro(
    qrels: Annotated[
        str, typer.Argument(help="Qrels of the original experiment (a file or irds:DATASET_ID).")
    ],
    orig_baseline: Annotated[str, typer.Argument(help="Original baseline run.")],
    orig_advanced: Annotated[str, typer.Argument(help="Original advanced run.")],
    rep_baseline: Annotated[str, typer.Argument(help="Reproduced baseline run.")],
    rep_advanced: Annotated[str, typer.Argument(help="Reproduced advanced run.")],
    metric: MetricOption = None,
    rep_qrels: Annotated[
        str | None, typer.Option(help="Qrels of a replication (another collection).")
    ] = None,
    p: Annotated[
        float, typer.Option("--p", "-p", help="RBO persistence (repro_eval: 0.95).")
    ] = 0.95,
    rbo_depth: Annotated[int, typer.Option(help="RBO depth (repro_eval: 1000).")] = 1000,
    ktu_depth: Annotated[int, typer.Option(help="KTU run length (repro_eval: 1000).")] = 1000,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Reproducibility (or, with --rep-qrels, replicability) measures of Breuer et al. (2020)
    as repro_eval computes them: KTU, RBO, RMSE, ER, ΔRI and t-test p-values."""
    with errors():
        import warnings as _w

        from ..data import Qrels, Run
        from ..meta import reproducibility

        check_report(report)
        q = Qrels.read(qrels)
        rq = None if rep_qrels is None else Qrels.read(rep_qrels)
        paths = [orig_baseline, orig_advanced, rep_baseline, rep_advanced]
        labels = ["orig-baseline", "orig-advanced", "rep-baseline", "rep-advanced"]
        runs = [
            Run.read(path, name=f"{lab}:{path}") for path, lab in zip(paths, labels, strict=True)
        ]
        with _w.catch_warnings():
            _w.simplefilter("ignore")  # reported below, once
            orig_base, orig_adv, rep_base, rep_adv = runs
            res = reproducibility(
                q,
                orig_base,
                orig_adv,
                rep_base,
                rep_adv,
                _metrics(metric),
                rep_qrels=rq,
                p=p,
                rbo_depth=rbo_depth,
                ktu_depth=ktu_depth,
            )
        for note in res.warnings:
            warn(note)
        _show(res, "repro", fmt, output, report, save, quiet)


@group.command("assessors")
def assessors(
    qrels_a: Annotated[
        str, typer.Argument(help="First qrels (assessor A): a file or irds:DATASET_ID.")
    ],
    qrels_b: Annotated[str, typer.Argument(help="Second qrels (assessor B), same topics.")],
    runs: Annotated[list[str] | None, typer.Argument(help="Runs to rank under each qrels.")] = None,
    metric: MetricOption = None,
    rel: Annotated[int, typer.Option(help="Lowest relevant grade (overlap).")] = 1,
    level: Annotated[Level, typer.Option(help="Krippendorff's alpha level.")] = "ordinal",
    weights: Annotated[
        KappaWeights | None, typer.Option(help="Cohen's kappa weights (default: none).")
    ] = None,
    p: POption = 0.9,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Assessor agreement of two qrels (Voorhees 2000): overlap, Cohen's kappa and
    Krippendorff's alpha per topic and overall; with runs, the correlation of the system
    rankings under each qrels (Kendall tau, tau_AP, RBO)."""
    with errors():
        import warnings as _w

        from ..data import Qrels, Run
        from ..meta import assessor_agreement
        from ._common import unique_names

        check_report(report)
        qa, qb = Qrels.read(qrels_a), Qrels.read(qrels_b)
        paths = runs or []
        loaded = [
            Run.read(path, name=n) for path, n in zip(paths, unique_names(paths), strict=True)
        ]
        with _w.catch_warnings():
            _w.simplefilter("ignore")  # reported below, once
            res = assessor_agreement(
                qa,
                qb,
                runs=loaded,
                metrics=metric or ["map"],
                rel=rel,
                level=level,
                weights=weights,
                p=p,
            )
        for note in res.warnings:
            warn(note)
        _show(res, "assessors", fmt, output, report, save, quiet)


@group.command("anova")
def anova(
    qrels: Annotated[str, typer.Argument(help="Qrels file or irds:DATASET_ID.")],
    runs: Annotated[list[str], typer.Argument(help="Two or more run files.")],
    metric: MetricOption = None,
    confidence: ConfidenceOption = 0.95,
    fmt: FormatOption = None,
    ties: TiesOption = "docno",
    missing: MissingOption = "zero",
    no_relevant: NoRelevantOption = "zero",
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Two-way ANOVA without replication of runs x topics (Sakai 2018): the table, the run
    means with margins of error, the effect sizes of every pair of runs."""
    with errors():
        from ..errors import InputError
        from ..evaluation import evaluate
        from ..meta import anova as run_anova

        check_report(report)
        if len(runs) < 2:
            raise InputError("give QRELS and two or more RUNs")
        q, loaded = load_collection(qrels, runs)
        res = evaluate(
            q, loaded, _metrics(metric), ties=ties, missing=missing, no_relevant=no_relevant
        )
        for w in res.warnings:
            warn(w)
        _show(run_anova(res, confidence=confidence), "anova", fmt, output, report, save, quiet)


@group.command("replicability")
def replicability(
    table: Annotated[
        str, typer.Argument(help="CSV/TSV/Parquet/JSONL table: one p-value per dataset.")
    ],
    alpha: AlphaOption = 0.05,
    method: Annotated[
        Combination,
        typer.Option(help="bonferroni (any dependence) or fisher (independent datasets)."),
    ] = "bonferroni",
    system: Annotated[str | None, typer.Option(help="Read only the rows of this system.")] = None,
    baseline: Annotated[
        str | None, typer.Option(help="Read only the rows of this baseline.")
    ] = None,
    dataset_column: Annotated[str, typer.Option(help="The dataset column.")] = "dataset",
    p_value_column: Annotated[str, typer.Option(help="The p-value column.")] = "p_value",
    system_column: Annotated[str, typer.Option(help="The system column.")] = "system",
    baseline_column: Annotated[str, typer.Option(help="The baseline column.")] = "baseline",
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Replicability analysis (Dror et al. 2017): on how many datasets the effect holds
    (partial conjunction, Bonferroni or Fisher) and on which (Holm)."""
    with errors():
        from ..meta import read_pvalues
        from ..meta import replicability as analyse

        check_report(report)
        pvalues = read_pvalues(
            table,
            system=system,
            baseline=baseline,
            dataset_column=dataset_column,
            p_value_column=p_value_column,
            system_column=system_column,
            baseline_column=baseline_column,
        )
        res = analyse(pvalues, alpha=alpha, method=method)
        _show(res, "replicability", fmt, output, report, save, quiet)


def register(app: typer.Typer) -> None:
    """Add the ``assay meta`` group to ``app``."""
    app.add_typer(group, name="meta")
