"""``assay classify GOLD PRED``: classification measures from label files (the layouts of
:func:`assay.classification.read_labels`), computed by :func:`assay.classification.evaluate`.
Only typer and the standard library are imported at module level; NumPy and
:mod:`assay.classification` load inside the command."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .._options import Average
from ..classification.options import Degenerate
from ._common import (
    FormatOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    check_report,
    errors,
    present,
    warn,
    write_documents,
)

__all__ = ["classify", "register"]


def classify(
    gold: Annotated[
        str,
        typer.Argument(help="True labels: one per line, or .csv/.tsv with a header; - for stdin."),
    ],
    pred: Annotated[
        str, typer.Argument(help="Predicted labels, aligned with GOLD item by item (same formats).")
    ],
    scores: Annotated[
        str | None,
        typer.Option(
            "--scores",
            help="Scores of the --pos-label class, one number per item (same formats): "
            "adds ROC AUC, average precision, interpolated precision.",
        ),
    ] = None,
    positive: Annotated[
        str | None,
        typer.Option(
            "--pos-label",
            "--positive",
            help="The positive class: binary measures (specificity, NPV, rates, ...) "
            "and the class the scores are for (--positive is its old name).",
        ),
    ] = None,
    average: Annotated[
        Average | None,
        typer.Option(
            "--average",
            help="Print only this average (binary: only the --pos-label class's rows); "
            "default: per-class rows and micro, macro and weighted averages.",
        ),
    ] = None,
    fmt: FormatOption = None,
    column: Annotated[
        str | None,
        typer.Option("--column", "-c", help="Column to read from every .csv/.tsv input."),
    ] = None,
    gold_column: Annotated[
        str | None, typer.Option("--gold-column", help="Column of GOLD (overrides --column).")
    ] = None,
    pred_column: Annotated[
        str | None, typer.Option("--pred-column", help="Column of PRED (overrides --column).")
    ] = None,
    scores_column: Annotated[
        str | None, typer.Option("--scores-column", help="Column of --scores (overrides --column).")
    ] = None,
    beta: Annotated[float, typer.Option(help="β of the F-score.")] = 1.0,
    zero_division: Annotated[
        str,
        typer.Option(
            help="Value of an undefined ratio (nothing predicted / no true item): 0, 1 or nan."
        ),
    ] = "0",
    degenerate: Annotated[
        Degenerate,
        typer.Option(
            help="MCC with a zero denominator: zero (scikit-learn), limit (Chicco & Jurman), nan."
        ),
    ] = "zero",
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Classification measures: per-class precision/recall/F, averages, accuracy, kappa, MCC,
    SBA; ROC AUC, AP and interpolated precision with --scores."""
    with errors():
        from ..classification import evaluate

        check_report(report)
        zd = _zero_division(zero_division)
        if average == "binary" and positive is None:
            raise _option_error("--average binary needs --pos-label", "average")
        y_true, y_pred, s = _read(
            gold, pred, scores, column, gold_column, pred_column, scores_column
        )
        if s is not None and positive is None:
            raise _option_error(
                "--scores needs --pos-label (the class the scores are for)", "pos_label"
            )
        if positive is not None and positive not in set(y_true) | set(y_pred):
            raise _unknown_positive(positive, set(y_true) | set(y_pred))
        result = evaluate(
            y_true,
            y_pred,
            s,
            pos_label=positive,
            average=average,
            beta=beta,
            zero_division=zd,
            degenerate=degenerate,
        )
        for note in result.notes:
            warn(note)
        present(result.report(), fmt, output)
        if report is not None or save is not None:
            write_documents(
                [result.document()], report=report, save=save, title="assay classify", quiet=quiet
            )


#: Labels a message lists before it only counts the rest.
_LABELS_LISTED = 20


def _unknown_positive(positive: str, labels: set[str]) -> Exception:
    """``--pos-label`` names no label: the labels there are, and the one meant when only the
    case differs."""
    ordered = sorted(labels)
    listed = ", ".join(repr(label) for label in ordered[:_LABELS_LISTED])
    if len(ordered) > _LABELS_LISTED:
        listed += f", ... ({len(ordered)} labels)"
    same = [label for label in ordered if label.casefold() == positive.casefold()]
    hint = f"; labels are case-sensitive: did you mean --pos-label {same[0]!r}?" if same else ""
    return _option_error(
        f"--pos-label {positive!r} is not one of the labels ({listed}){hint}", "pos_label"
    )


def _option_error(message: str, option: str) -> Exception:
    from ..errors import MetricError

    return MetricError(message, option=option)


def _zero_division(text: str) -> Any:
    """``--zero-division``: 0, 1 or nan (validated again by classification_report)."""
    if text in ("0", "1"):
        return int(text)
    if text == "nan":
        return "nan"
    raise _option_error(f"--zero-division must be 0, 1 or nan, got {text!r}", "zero_division")


def _read(
    gold: str,
    pred: str,
    scores: str | None,
    column: str | None,
    gold_column: str | None,
    pred_column: str | None,
    scores_column: str | None,
) -> tuple[list[str], list[str], list[float] | None]:
    """The two label files and the scores, checked to have one value per item."""
    from ..classification import read_labels, read_scores
    from ..errors import InputError

    y_true = _labels(read_labels, gold, gold_column or column, "gold")
    y_pred = _labels(read_labels, pred, pred_column or column, "pred")
    if len(y_true) != len(y_pred):
        raise InputError(f"{gold} has {len(y_true)} labels but {pred} has {len(y_pred)}")
    if scores is None:
        return y_true, y_pred, None
    s = _labels(read_scores, scores, scores_column or column, "scores")
    if len(s) != len(y_true):
        raise InputError(f"{scores} has {len(s)} scores but {gold} has {len(y_true)} labels")
    return y_true, y_pred, s


def _labels(reader: Any, path: str, column: str | None, role: str) -> Any:
    return reader(path, column=column, name=role, column_hint=f"--{role}-column or --column")


def register(app: typer.Typer) -> None:
    """Add ``assay classify`` to ``app``."""
    app.command("classify")(classify)
