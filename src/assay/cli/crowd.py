"""``assay aggregate-labels LABELS``: crowd labels ``(task, worker, label)`` aggregated into one
label per task with its posterior, each worker's skill and, with ``--gold``, the workers' and
the aggregate's accuracy on known answers. Read, one library call
(:func:`assay.judgments.aggregate_labels`), present; ``--out`` writes the aggregated labels."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from ..judgments.options import (
    CrowdMethod,
    DawidSkeneInit,
    Duplicates,
    LabelTies,
    MaceMethod,
    TableFormat,
)
from ._common import (
    FormatOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    busy,
    check_report,
    errors,
    present,
    write_documents,
)

__all__ = ["aggregate_labels", "register"]

#: The title of the ``--report`` page.
TITLE = "assay aggregate-labels"


def _value(text: str) -> Any:  # Any: a number, None or the text itself
    """A ``--option`` value: an integer, a number, ``none``, else the text."""
    if text.lower() in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        if kind is float and not math.isfinite(value):
            return text
        return value
    return text


def _more_options(pairs: list[str] | None) -> dict[str, Any]:  # Any: option values
    from ..errors import OptionError

    out: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--option takes NAME=VALUE, got {pair!r}", option="option")
        out[name.strip().replace("-", "_")] = _value(text.strip())
    return out


def _check_out(out: Path | None) -> None:
    """``--out``'s extension names a format of the aggregated labels, before any work (the
    command group's guard has refused an ``--out`` that is an input or another output)."""
    if out is not None:
        from ..judgments.crowd_result import labels_format

        labels_format(os.fspath(out), None)


def aggregate_labels(
    labels: Annotated[
        Path,
        typer.Argument(
            help="Crowd labels: CSV, TSV, Parquet or JSON Lines with task, worker and label "
            "columns (crowd-kit's names).",
        ),
    ],
    method: Annotated[CrowdMethod, typer.Option(help="Aggregation method.")] = "dawid_skene",
    task: Annotated[str, typer.Option("--task", "--task-column", help="Task id column.")] = "task",
    worker: Annotated[
        str, typer.Option("--worker", "--worker-column", help="Worker id column.")
    ] = "worker",
    label: Annotated[
        str, typer.Option("--label", "--label-column", help="Label column.")
    ] = "label",
    declared: Annotated[
        list[str] | None,
        typer.Option(
            "--labels",
            metavar="LABEL",
            help="The label set, repeatable, in the order ties are broken (default: the labels "
            "found, numerically when all are integers); a label outside it is an error.",
            show_default=False,
        ),
    ] = None,
    duplicates: Annotated[
        Duplicates,
        typer.Option(help="A worker labelling a task twice: error, or keep both votes."),
    ] = "error",
    gold: Annotated[
        Path | None,
        typer.Option(
            help="Known true labels (task and label or true_label columns): each worker's and "
            "the aggregate's accuracy on them.",
            show_default=False,
        ),
    ] = None,
    fit_gold: Annotated[
        bool,
        typer.Option(
            "--fit-gold",
            help="Also fix the --gold tasks' labels while fitting (dawid_skene, "
            "one_coin_dawid_skene; crowd-kit's true_labels).",
        ),
    ] = False,
    input_format: Annotated[
        TableFormat | None,
        typer.Option("--input-format", help="Format of LABELS (default: from its extension)."),
    ] = None,
    max_iter: Annotated[
        int | None,
        typer.Option(
            help="Most EM (ZBS: update) steps; MACE: steps of each restart (default: the "
            "method's own).",
            show_default=False,
        ),
    ] = None,
    tolerance: Annotated[
        float | None,
        typer.Option(help="Convergence threshold (default: the method's own).", show_default=False),
    ] = None,
    ties: Annotated[
        LabelTies | None,
        typer.Option(
            help="Label among equal largest posteriors: first_seen, lowest, random (default: "
            "the method's own, crowd-kit's).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of --ties random and of MACE's restarts (default: the method's own).",
            show_default=False,
        ),
    ] = None,
    init: Annotated[
        DawidSkeneInit | None,
        typer.Option(help="Dawid–Skene's starting posteriors.", show_default=False),
    ] = None,
    n_restarts: Annotated[
        int | None,
        typer.Option(help="MACE's random starts (default: 10).", show_default=False),
    ] = None,
    inference: Annotated[
        MaceMethod | None,
        typer.Option(help="MACE's fit: vb (default) or em.", show_default=False),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="Any other option of the method, NAME=VALUE, repeatable (`assay metrics "
            "--family judgments` lists them): --option learning_rate=0.5.",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Also write the aggregated labels (task, label, posterior, n_labels, p_<class>) "
            "to this file: .csv, .tsv, .jsonl or .parquet.",
            show_default=False,
        ),
    ] = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Aggregate crowd labels into one label per task (majority vote, Wawa, ZBS, Dawid–Skene,
    one-coin Dawid–Skene, GLAD, MACE), with each task's posterior and each worker's skill."""
    with errors():
        from ..judgments import aggregate_labels as aggregate
        from ..judgments import read_crowd_labels

        check_report(report)
        _check_out(out)
        options = _more_options(option)
        given = {
            "tolerance": tolerance,
            "ties": ties,
            "seed": seed,
            "init": init,
            "n_restarts": n_restarts,
            "inference": inference,
            ("n_iter" if method == "mace" else "max_iter"): max_iter,
        }
        options.update({k: v for k, v in given.items() if v is not None})
        crowd = read_crowd_labels(
            labels,
            format=input_format,
            task=task,
            worker=worker,
            label=label,
            labels=declared,
            duplicates=duplicates,
        )
        with busy(f"aggregating {len(crowd):,} labels ({method})", quiet):
            result = aggregate(crowd, method=method, gold=gold, fit_gold=fit_gold, **options)
        if out is not None:
            result.write_labels(out)
        present(result.report(), fmt, output)
        if report is not None or save is not None:
            write_documents([result.document()], report=report, save=save, title=TITLE, quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay aggregate-labels`` to ``app``."""
    app.command("aggregate-labels")(aggregate_labels)
