"""``assay regression GOLD PRED [PRED...]``: error measures, goodness of fit and correlations
of one or more predictions, with intervals and paired tests of their losses."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .._options import BootstrapMethod, PairedTest
from ..regression.options import ConstantTarget, RegressionLoss, ZeroTarget
from ._common import (
    AlphaOption,
    ConfidenceOption,
    CorrectionOption,
    FormatOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    SeedOption,
    busy,
    check_baseline,
    check_report,
    distinct_inputs,
    errors,
    present,
    unique_names,
    write_documents,
)

__all__ = [
    "register",
    "regression",
]

#: The title of the ``--report`` page.
TITLE = "assay regression"


def _read(gold: str, preds: list[str]) -> tuple[list[float], dict[str, list[float]]]:
    from ..io.segments import check_same_count, read_numbers

    distinct_inputs(preds, "prediction")
    y_true = read_numbers(gold)
    values = {p: read_numbers(p) for p in preds}
    check_same_count({gold: y_true, **values}, unit="values")
    names = unique_names(preds)
    return y_true, {n: values[p] for n, p in zip(names, preds, strict=True)}


def regression(
    gold: Annotated[str, typer.Argument(help="True values: one number per line.")],
    preds: Annotated[
        list[str], typer.Argument(help="Predictions, one number per line, aligned with GOLD.")
    ],
    baseline: Annotated[
        str | None,
        typer.Option(help="The model every other is tested against (default: the first PRED)."),
    ] = None,
    loss: Annotated[RegressionLoss, typer.Option(help="Per-item loss compared.")] = "squared",
    test: Annotated[PairedTest, typer.Option(help="Paired test of the losses.")] = "randomization",
    n_resamples: Annotated[int, typer.Option(help="Resamples (tests and intervals).")] = 10000,
    seed: SeedOption = 0,
    confidence: ConfidenceOption = 0.95,
    ci_method: Annotated[
        BootstrapMethod, typer.Option(help="Bootstrap interval of MAE/MSE/RMSE.")
    ] = "bca",
    correction: CorrectionOption = "holm",
    alpha: AlphaOption = 0.05,
    zero_target: Annotated[
        ZeroTarget | None,
        typer.Option(
            help="MAPE with a zero target: error, eps (scikit-learn), nan or skip "
            "(default: MAPE's own, error).",
            show_default=False,
        ),
    ] = None,
    constant_target: Annotated[
        ConstantTarget | None,
        typer.Option(
            help="R² and explained variance of a constant GOLD: finite, nan, error "
            "(default: the measures' own, finite).",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Regression measures (MSE, RMSE, MAE, MedAE, max error, MAPE, R², explained variance,
    Pearson/Spearman/Kendall) of each PRED against GOLD, with intervals, and paired tests of
    the models' per-item losses against a baseline."""
    with errors():
        from ..regression import evaluate

        check_report(report)
        paths = list(preds)
        check_baseline(baseline, paths, "prediction")
        if baseline is not None and baseline not in paths:
            paths = [baseline, *paths]
        y_true, named = _read(gold, paths)
        with busy(f"comparing models ({test}, {n_resamples} resamples)", quiet or len(named) < 2):
            result = evaluate(
                y_true,
                named,
                baseline=None if baseline is None else list(named)[paths.index(baseline)],
                loss=loss,
                test=test,
                n_resamples=n_resamples,
                seed=seed,
                confidence=confidence,
                ci_method=ci_method,
                correction=correction,
                alpha=alpha,
                # unset: the measures' own defaults (one declaration, in assay.regression)
                **_given(zero_target=zero_target, constant_target=constant_target),
            )
        present(result.report(), fmt, output)
        if report is not None or save is not None:
            write_documents([result.document()], report=report, save=save, title=TITLE, quiet=quiet)


def _given(**options: Any) -> dict[str, Any]:
    return {k: v for k, v in options.items() if v is not None}


def register(app: typer.Typer) -> None:
    """Add ``assay regression`` to ``app``."""
    app.command("regression")(regression)
