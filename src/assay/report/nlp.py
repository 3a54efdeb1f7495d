"""Reports of the NLP families: regression models (:class:`~assay.regression.RegressionReport`,
with an optional :class:`~assay.regression.ModelComparison`). Generation's report is
:func:`assay.generation.generation_report` (``SystemComparison.report()``).

Each model is a row; each cell shows the score with its confidence interval and, against
the baseline, the corrected p-value and a ▲/▼ mark; the legend says how the intervals and
tests were made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .output import Report
from .table import Cell, Column, DisplayTable
from .values import short

if TYPE_CHECKING:
    from ..regression import ModelComparison, RegressionReport

__all__ = ["REGRESSION_COLUMNS", "regression_report"]

REGRESSION_COLUMNS = (
    "model",
    "measure",
    "value",
    "ci_low",
    "ci_high",
    "pvalue",
    "p_adjusted",
    "significant",
    "n",
)
_MARK = {1: "▲", -1: "▼", 0: ""}


def _with_interval(value: float, low: float, high: float, spec: str) -> tuple[str, str]:
    return short(value, spec), f"[{short(low, spec)}, {short(high, spec)}]"


# ---------------------------------------------------------------- regression

#: Display columns: (header, measure, with interval).
_REGRESSION_DISPLAY = (
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


def regression_report(
    reports: Mapping[str, RegressionReport], cmp: ModelComparison | None = None
) -> Report:
    """Models x measures (intervals on the terminal); with ``cmp``, the corrected p-value of
    each model's loss against the baseline in its MAE or MSE cell. Records: every measure
    of every model, then one row per model pair."""
    columns = [Column("model", latex="Model", style="bold"), Column("n", align="right")]
    columns += [Column(h, align="right") for h, _, _ in _REGRESSION_DISPLAY]
    loss_measure = None if cmp is None else ("mse" if cmp.loss == "squared" else "mae")
    rows: list[list[Cell | str]] = []
    for name, rep in reports.items():
        values = {r["measure"]: r for r in rep.records()}
        label = f"{name} (baseline)" if cmp is not None and name == cmp.baseline else name
        cells: list[Cell | str] = [label, str(rep.n)]
        for _, measure, interval in _REGRESSION_DISPLAY:
            rec = values[measure]
            text, note = _with_interval(rec["value"], rec["ci_low"], rec["ci_high"], ".4f")
            marks = ""
            if cmp is not None and measure == loss_measure and name != cmp.baseline:
                pair = cmp.pair(name)
                note += f" p={short(pair.p_adjusted)}"
                marks = _MARK[pair.direction]
            cells.append(Cell(text, marks=marks, note=note if interval or marks else ""))
        rows.append(cells)
    first = next(iter(reports.values()))
    provenance: dict[str, Any] = dict(first.provenance)
    if cmp is not None:
        provenance["comparison"] = dict(cmp.provenance)
    return Report(
        table=DisplayTable(
            columns, rows, legend=_regression_legend(first, cmp), keys=2, pivot="measure"
        ),
        records=_regression_records(reports, cmp),
        columns=REGRESSION_COLUMNS,
        key="records",
        document={"provenance": provenance},
    )


def _regression_legend(first: RegressionReport, cmp: ModelComparison | None) -> str:
    prov = first.provenance
    conf = round(100 * float(prov["confidence"]))
    notes = [
        f"[{conf}% intervals: bootstrap ({prov['ci_method']}, {prov['n_resamples']} "
        "resamples) for MAE/MSE/RMSE, Fisher z for the correlations]"
    ]
    if cmp is not None:
        notes.append(
            f"p: paired {cmp.test} test of per-item {cmp.loss} errors against {cmp.baseline}, "
            f"{cmp.correction} correction; ▲/▼ significantly smaller/larger errors at "
            f"alpha={cmp.alpha}"
        )
    return "; ".join(notes)


def _regression_records(
    reports: Mapping[str, RegressionReport], cmp: ModelComparison | None
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
    return [{k: r.get(k) for k in REGRESSION_COLUMNS} for r in rows]
