"""The tables and plots of a label aggregation (:class:`~assay.judgments.LabelAggregation`):
a summary (method, sizes, convergence, gold accuracy), the least certain tasks and the least
skilled workers (:func:`aggregation_report`: what ``assay aggregate-labels`` prints; the
machine formats carry every task, and JSON every worker too), and the ``--report`` page's
plots (:func:`aggregation_document`: worker skills, the classes' prior and aggregated shares,
and the confusion matrices of the least and most reliable workers)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..report.document import Document, section
from ..report.output import Report
from ..report.table import Column, DisplayTable
from ..report.values import short

if TYPE_CHECKING:
    from .crowd_result import LabelAggregation

__all__ = ["SHOWN_ROWS", "aggregation_document", "aggregation_report", "summary"]

#: Tasks and workers the display tables show (the machine formats show every one).
SHOWN_ROWS = 20
#: Most workers drawn one bar each; more are drawn as a sorted curve.
_MAX_BARS = 40
#: Most classes a confusion matrix is drawn for.
_MAX_CLASSES = 20

_TITLES = {
    "majority_vote": "majority vote",
    "wawa": "Wawa",
    "zbs": "ZBS",
    "dawid_skene": "Dawid–Skene",
    "one_coin_dawid_skene": "one-coin Dawid–Skene",
    "glad": "GLAD",
    "mace": "MACE",
}


def title(result: LabelAggregation) -> str:
    """``Label aggregation (Dawid–Skene)``."""
    return f"Label aggregation ({_TITLES.get(result.method, result.method)})"


def summary(result: LabelAggregation) -> dict[str, Any]:
    """The headline numbers, by name (plain values)."""
    out: dict[str, Any] = {
        "method": result.method,
        "tasks": len(result.tasks),
        "workers": len(result.workers),
        "labels": int(result.n_task_labels.sum()),
        "classes": len(result.classes),
        "mean_posterior": float(np.mean(result.confidence)) if len(result.tasks) else math.nan,
        "iterations": result.iterations,
        "converged": result.converged,
        "change": result.change,
        "log_likelihood": result.log_likelihood,
    }
    if result.gold is not None:
        out["gold_tasks"] = result.n_gold
        out["gold_accuracy"] = result.aggregate_gold_accuracy
    return out


def _summary_table(result: LabelAggregation) -> DisplayTable:
    values = summary(result)
    rows = [
        [name.replace("_", " "), short(value, ".3g" if name == "change" else ".4f")]
        for name, value in values.items()
    ]
    counts = np.bincount(result.label, minlength=len(result.classes)).tolist()
    shares = ", ".join(f"{c}: {n}" for c, n in zip(result.classes, counts, strict=True))
    return DisplayTable(
        [Column("", style="bold"), Column("value", align="right")],
        rows,
        title=title(result),
        caption=f"aggregated labels: {shares}",
        keys=1,
    )


def _least(values: np.ndarray[Any, Any], n: int) -> list[int]:
    """Indices of the ``n`` smallest values (NaN last), ties in input order."""
    key = np.where(np.isnan(values), np.inf, values)
    return [int(i) for i in np.argsort(key, kind="stable")[:n]]


def _tasks_table(result: LabelAggregation) -> DisplayTable:
    conf = result.confidence
    shown = _least(conf, SHOWN_ROWS)
    gold = result.gold
    columns = [Column("task"), Column("label"), Column("posterior", align="right")]
    columns.append(Column("labels", align="right"))
    if gold is not None:
        columns.append(Column("gold"))
    rows = []
    for i in shown:
        row = [
            result.tasks[i],
            result.classes[int(result.label[i])],
            short(float(conf[i])),
            str(int(result.n_task_labels[i])),
        ]
        if gold is not None:
            row.append(result.classes[int(gold[i])] if gold[i] >= 0 else "")
        rows.append(row)
    n = len(result.tasks)
    which = f"the {len(shown)} least certain of {n} tasks" if n > len(shown) else f"all {n} tasks"
    return DisplayTable(
        columns,
        rows,
        title="Tasks",
        caption=f"{which} (lowest posterior first); every task: -f csv/tsv/jsonl/json or --out",
        keys=1,
    )


def _workers_table(result: LabelAggregation) -> DisplayTable:
    shown = _least(result.skill, SHOWN_ROWS)
    columns = [Column("worker"), Column("labels", align="right"), Column("skill", align="right")]
    with_gold = result.gold_accuracy is not None and result.n_worker_gold is not None
    if with_gold:
        columns += [Column("gold accuracy", align="right"), Column("gold labels", align="right")]
    rows = []
    for i in shown:
        row = [
            result.workers[i],
            str(int(result.n_worker_labels[i])),
            short(float(result.skill[i])),
        ]
        if result.gold_accuracy is not None and result.n_worker_gold is not None:
            row += [short(float(result.gold_accuracy[i])), str(int(result.n_worker_gold[i]))]
        rows.append(row)
    n = len(result.workers)
    which = (
        f"the {len(shown)} least skilled of {n} workers" if n > len(shown) else f"all {n} workers"
    )
    return DisplayTable(
        columns,
        rows,
        title="Workers",
        caption=f"{which} (lowest skill first); every worker: -f json",
        keys=1,
    )


def aggregation_report(result: LabelAggregation) -> Report:
    """The summary, the least certain tasks and the least skilled workers; records: every
    task (:meth:`~assay.judgments.LabelAggregation.records`); JSON adds every worker, the
    summary and the provenance."""
    return Report(
        table=_summary_table(result),
        more=[_tasks_table(result), _workers_table(result)],
        records=result.records(),
        columns=result.task_columns,
        key="tasks",
        document={
            "summary": summary(result),
            "workers": result.worker_records(),
            "provenance": dict(result.provenance),
        },
    )


# ---------------------------------------------------------------- the page's plots


def _skill_plot(result: LabelAggregation) -> dict[str, Any] | None:
    skill = result.skill
    rated = np.flatnonzero(~np.isnan(skill))
    if not len(rated):
        return None
    order = rated[np.argsort(-skill[rated], kind="stable")]
    caption = "each worker's skill as the method defines it (higher is better)"
    if len(order) <= _MAX_BARS:
        return {
            "kind": "hbar",
            "title": "Worker skill",
            "caption": caption,
            "panels": [
                {
                    "labels": [result.workers[i] for i in order],
                    "values": skill[order].tolist(),
                    "xlabel": "skill",
                }
            ],
            "columns": 1,
        }
    return {
        "kind": "line",
        "title": "Worker skill",
        "caption": caption + f"; {len(order)} workers, sorted",
        "panels": [
            {
                "series": [
                    {"name": "", "x": list(range(1, len(order) + 1)), "y": skill[order].tolist()}
                ],
                "xlabel": "worker (by skill)",
                "ylabel": "skill",
            }
        ],
        "columns": 1,
    }


def _classes_plot(result: LabelAggregation) -> dict[str, Any] | None:
    k = len(result.classes)
    if k > _MAX_BARS or not len(result.tasks):
        return None
    shares = np.bincount(result.label, minlength=k) / max(len(result.tasks), 1)
    series = [{"name": "aggregated labels", "values": shares.tolist()}]
    if result.prior is not None:
        series.append({"name": "class prior", "values": np.asarray(result.prior).tolist()})
    else:
        series.append({"name": "mean posterior", "values": result.posterior.mean(0).tolist()})
    return {
        "kind": "bars",
        "title": "Classes",
        "caption": "share of tasks given each class, and the fitted prior (or mean posterior)",
        "panels": [
            {
                "categories": list(result.classes),
                "series": series,
                "ylabel": "share",
                "ylim": [0, 1],
            }
        ],
        "columns": 1,
    }


def _confusion_plot(result: LabelAggregation) -> dict[str, Any] | None:
    conf = result.confusion
    k = len(result.classes)
    rated = np.flatnonzero(~np.isnan(result.skill))
    if conf is None or k > _MAX_CLASSES or not len(rated):
        return None
    order = rated[np.argsort(result.skill[rated], kind="stable")]
    picked = [int(order[0])] if len(order) == 1 else [int(order[0]), int(order[-1])]
    names = ["least reliable", "most reliable"]
    panels = [
        {
            "title": f"{names[j]}: {result.workers[w]}",
            "rows": list(result.classes),
            "cols": list(result.classes),
            "matrix": np.round(np.asarray(conf[w], dtype=np.float64), 4).tolist(),
            "xlabel": "label given",
            "ylabel": "true class",
        }
        for j, w in enumerate(picked)
    ]
    size = max(3.0, min(6.0, 0.45 * k + 2.0))
    return {
        "kind": "heatmap",
        "title": "Confusion matrices",
        "caption": "P(label given | true class) of the least and the most reliable worker",
        "panels": panels,
        "columns": len(panels),
        "width": (size + 1.5) * len(panels),
        "panel_height": size,
    }


def aggregation_document(result: LabelAggregation) -> Document:
    """The report's tables, then the plots: worker skill, classes, confusion matrices."""
    from ..report.sections_tasks import tables_document

    plots = section(
        "Workers and classes",
        _skill_plot(result),
        _classes_plot(result),
        _confusion_plot(result),
    )
    return tables_document(title(result), result.family, result.report(), sections=[plots])
