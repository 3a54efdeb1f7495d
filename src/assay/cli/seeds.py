"""``assay seeds SCORES`` and ``assay seeds --qrels QRELS --run NAME=PATH ... -m METRIC``:
several runs per system (one per seed), their score distributions, and every system against
a baseline by ASO and a classical test corrected across pairs."""

from __future__ import annotations

from typing import Annotated

import typer

from .._options import InputFormat, PairedTest
from ._common import (
    AlphaOption,
    CorrectionOption,
    FormatOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    SeedOption,
    busy,
    check_report,
    errors,
    present,
    write_documents,
)

__all__ = ["register", "seeds"]

#: The title of the ``--report`` page.
TITLE = "assay seeds"


def _named_runs(specs: list[str]) -> dict[str, list[str]]:
    """``NAME=PATH`` options grouped by name, in order (one path per seed)."""
    from ..errors import OptionError

    out: dict[str, list[str]] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise OptionError(
                f"--run expects NAME=PATH (repeat the same NAME for each seed), got {spec!r}",
                option="run",
            )
        out.setdefault(name, []).append(path)
    return out


def seeds(
    scores: Annotated[
        str | None,
        typer.Argument(
            help="A table of scores (CSV/TSV with a header, Parquet, JSON Lines): one row per "
            "system and seed, or per system, seed and unit with --unit-column.",
            show_default=False,
        ),
    ] = None,
    qrels: Annotated[
        str | None,
        typer.Option(help="Qrels: evaluate the --run files instead of reading SCORES."),
    ] = None,
    run: Annotated[
        list[str] | None,
        typer.Option(
            "--run",
            help="NAME=PATH, one run of system NAME; repeat the same NAME for each seed.",
            show_default=False,
        ),
    ] = None,
    metric: Annotated[
        str | None,
        typer.Option("-m", "--metric", help="The metric of the runs, e.g. ndcg_cut.10."),
    ] = None,
    system_column: Annotated[str, typer.Option(help="System column of SCORES.")] = "system",
    seed_column: Annotated[str, typer.Option(help="Seed column of SCORES.")] = "seed",
    score_column: Annotated[str, typer.Option(help="Score column of SCORES.")] = "score",
    unit_column: Annotated[
        str | None,
        typer.Option(help="Unit (query, item) column of SCORES: per-unit scores per seed."),
    ] = None,
    input_format: Annotated[
        InputFormat | None,
        typer.Option(help="Force the format of SCORES (default: from the file name)."),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(help="The system every other is compared with (default: the first)."),
    ] = None,
    test: Annotated[
        PairedTest,
        typer.Option(
            help="Classical test: paired over units with per-unit scores; with one score per "
            "seed only t (Welch's t-test)."
        ),
    ] = "t",
    correction: CorrectionOption = "holm",
    alpha: AlphaOption = 0.05,
    confidence_level: Annotated[
        float,
        typer.Option(help="ASO's confidence level (Bonferroni-adjusted over the pairs)."),
    ] = 0.95,
    n_bootstrap: Annotated[int, typer.Option(help="ASO's bootstrap iterations.")] = 1000,
    n_resamples: Annotated[
        int, typer.Option(help="Resamples of the randomization and bootstrap tests.")
    ] = 10000,
    seed: SeedOption = 0,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Several runs per system (seeds): each system's score distribution (mean, sd,
    quartiles) and every system against a baseline by Almost Stochastic Order (ε_min) and a
    classical test, corrected across pairs."""
    with errors():
        from ..errors import OptionError
        from ..seeds import compare_seeds, compare_seeds_runs, read_seed_scores

        check_report(report)
        ranking = qrels is not None or run or metric is not None
        if scores is not None and ranking:
            raise OptionError("give SCORES or --qrels with --run and -m, not both", option="qrels")
        if scores is None:
            if qrels is None or not run or metric is None:
                raise OptionError(
                    "give a SCORES table, or --qrels, --run NAME=PATH (one per seed) and -m",
                    option="qrels" if qrels is None else ("run" if not run else "metric"),
                )
            runs = _named_runs(run)
            with busy(f"evaluating {len(run)} runs", quiet):
                result = compare_seeds_runs(
                    qrels,
                    runs,
                    metric,
                    baseline=baseline,
                    test=test,
                    correction=correction,
                    alpha=alpha,
                    confidence_level=confidence_level,
                    n_bootstrap=n_bootstrap,
                    n_resamples=n_resamples,
                    seed=seed,
                )
        else:
            named = read_seed_scores(
                scores,
                system_column=system_column,
                seed_column=seed_column,
                score_column=score_column,
                unit_column=unit_column,
                format=input_format,
            )
            with busy(f"comparing {len(named)} systems", quiet):
                result = compare_seeds(
                    named,
                    metric=score_column,
                    baseline=baseline,
                    test=test,
                    correction=correction,
                    alpha=alpha,
                    confidence_level=confidence_level,
                    n_bootstrap=n_bootstrap,
                    n_resamples=n_resamples,
                    seed=seed,
                )
        present(result.report(), fmt, output)
        if report is not None or save is not None:
            write_documents([result.document()], report=report, save=save, title=TITLE, quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay seeds`` to ``app``."""
    app.command("seeds")(seeds)
