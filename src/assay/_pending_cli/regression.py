"""``assay regression GOLD PRED [PRED...]``: error measures, goodness of fit and correlations
of one or more predictions, with intervals and paired tests of their losses."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .._options import (
    BootstrapMethod,
    ConstantTarget,
    Correction,
    OutputFormat,
    PairedTest,
    RegressionLoss,
    ZeroTarget,
)

if TYPE_CHECKING:
    from ..regression import ModelComparison, RegressionReport

#: Display columns: (header, measure, digits, with interval).
_COLUMNS = (
    ("MAE", "mae", True),
    ("RMSE", "rmse", True),
    ("MSE", "mse", True),
    ("MedAE", "median_absolute_error", False),
    ("MaxE", "max_error", False),
    ("MAPE", "mape", False),
    ("R²", "r2", False),
    ("EV", "explained_variance", False),
    ("Pearson r", "pearson", True),
    ("Spearman ρ", "spearman", True),
    ("Kendall τ", "kendall", True),
)


def _read(gold: str, preds: list[str]) -> tuple[list[float], dict[str, list[float]]]:
    from ..io.segments import check_same_count, read_numbers
    from ._render import unique_names

    y_true = read_numbers(gold)
    values = {p: read_numbers(p) for p in preds}
    check_same_count({gold: y_true, **values})
    names = unique_names(preds)
    return y_true, {n: values[p] for n, p in zip(names, preds, strict=True)}


def _cell(report: RegressionReport, measure: str, interval: bool, mark: str) -> str:
    from ._render import number

    rec = next(r for r in report.records() if r["measure"] == measure)
    text = number(rec["value"], 4)
    if interval:
        text += f" [{number(rec['ci_low'], 4)}, {number(rec['ci_high'], 4)}]"
    return text + mark


def _display(
    reports: dict[str, RegressionReport], cmp: ModelComparison | None
) -> tuple[list[str], list[list[str]], list[str]]:
    loss_measure = None if cmp is None else ("mse" if cmp.loss == "squared" else "mae")
    header = ["model", "n", *(c[0] for c in _COLUMNS)]
    cells = []
    for name, rep in reports.items():
        row = [
            f"{name} (baseline)" if cmp is not None and name == cmp.baseline else name,
            str(rep.n),
        ]
        for _, measure, interval in _COLUMNS:
            mark = ""
            if cmp is not None and measure == loss_measure and name != cmp.baseline:
                pair = cmp.pair(name)
                mark = f" p={pair.p_adjusted:.4f}" + {1: "▲", -1: "▼", 0: ""}[pair.direction]
            row.append(_cell(rep, measure, interval, mark))
        cells.append(row)
    first = next(iter(reports.values())).provenance
    conf = round(100 * float(first["confidence"]))
    notes = [
        f"[{conf}% intervals: bootstrap ({first['ci_method']}, {first['n_resamples']} "
        "resamples) for MAE/MSE/RMSE, Fisher z for the correlations]"
    ]
    if cmp is not None:
        notes.append(
            f"p: paired {cmp.test} test of per-item {cmp.loss} errors against {cmp.baseline}, "
            f"{cmp.correction} correction; ▲/▼ significantly smaller/larger errors at "
            f"alpha={cmp.alpha}"
        )
    return header, cells, notes


def _records(
    reports: dict[str, RegressionReport], cmp: ModelComparison | None
) -> list[dict[str, Any]]:
    rows = [{"model": name, **r} for name, rep in reports.items() for r in rep.records()]
    if cmp is not None:
        rows += [
            {
                "model": p.model,
                "measure": f"{cmp.loss} error diff vs {p.baseline}",
                "value": p.diff,
                "ci_low": p.ci_low,
                "ci_high": p.ci_high,
                "pvalue": p.pvalue,
                "n": p.n,
                "p_adjusted": p.p_adjusted,
                "significant": p.significant,
            }
            for p in cmp.pairs
        ]
    keys = [
        "model",
        "measure",
        "value",
        "ci_low",
        "ci_high",
        "pvalue",
        "p_adjusted",
        "significant",
        "n",
    ]
    return [{k: r.get(k) for k in keys} for r in rows]


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
    seed: Annotated[int, typer.Option(help="Seed of every random procedure.")] = 0,
    confidence: Annotated[float, typer.Option(help="Level of the intervals.")] = 0.95,
    ci_method: Annotated[
        BootstrapMethod, typer.Option(help="Bootstrap interval of MAE/MSE/RMSE.")
    ] = "bca",
    correction: Annotated[Correction, typer.Option(help="Correction across models.")] = "holm",
    alpha: Annotated[float, typer.Option(help="Significance level of the markers.")] = 0.05,
    zero_target: Annotated[
        ZeroTarget,
        typer.Option(help="MAPE with a zero target: nan, error, eps (scikit-learn) or skip."),
    ] = "nan",
    constant_target: Annotated[
        ConstantTarget,
        typer.Option(help="R² and explained variance of a constant GOLD: finite, nan, error."),
    ] = "finite",
    fmt: Annotated[OutputFormat, typer.Option("-f", "--format", help="Output format.")] = "table",
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file.")] = None,
) -> None:
    """Regression measures (MSE, RMSE, MAE, MedAE, max error, MAPE, R², explained variance,
    Pearson/Spearman/Kendall) of each PRED against GOLD, with intervals, and paired tests of
    the models' per-item losses against a baseline."""
    from ..errors import AssayError
    from ._render import emit, fail, render

    try:
        paths = list(preds)
        if baseline is not None and baseline not in paths:
            paths = [baseline, *paths]
        y_true, named = _read(gold, paths)
        from ..regression import compare_models, regression_report

        reports = {
            name: regression_report(
                y_true,
                p,
                zero_target=zero_target,
                constant_target=constant_target,
                confidence=confidence,
                ci_method=ci_method,
                n_resamples=n_resamples,
                seed=seed,
            )
            for name, p in named.items()
        }
        cmp = None
        if len(named) > 1:
            base = list(named)[paths.index(baseline)] if baseline is not None else None
            cmp = compare_models(
                y_true,
                named,
                baseline=base,
                loss=loss,
                test=test,
                correction=correction,
                alpha=alpha,
                confidence=confidence,
                ci_method=ci_method,
                n_resamples=n_resamples,
                seed=seed,
            )
        header, cells, notes = _display(reports, cmp)
        settings = dict(next(iter(reports.values())).provenance)
        if cmp is not None:
            settings["comparison"] = dict(cmp.provenance)
        emit(render(fmt, _records(reports, cmp), settings, header, cells, notes), output)
    except AssayError as exc:
        raise fail(exc) from None


def register(app: typer.Typer) -> None:
    """Add ``assay regression`` to ``app``."""
    app.command("regression")(regression)
