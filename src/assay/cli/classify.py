"""``assay classify GOLD PRED [PRED...]``: classification measures from label files (the
layouts of :func:`assay.classification.read_labels`), computed by
:func:`assay.classification.evaluate`; with several PRED, every one against a baseline by
:func:`assay.classification.compare` (McNemar's test, randomisation, bootstrap, ...).
Only typer and the standard library are imported at module level; NumPy and
:mod:`assay.classification` load inside the command."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .._options import Average, McNemarMethod
from ..classification.options import ClassificationTest, Degenerate
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
    warn,
    write_documents,
)

__all__ = ["classify", "register"]


def classify(
    gold: Annotated[
        str,
        typer.Argument(help="True labels: one per line, or .csv/.tsv with a header; - for stdin."),
    ],
    preds: Annotated[
        list[str],
        typer.Argument(
            help="Predicted labels, aligned with GOLD item by item (same formats). Several: "
            "each one against --baseline."
        ),
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
    baseline: Annotated[
        str | None,
        typer.Option(
            help="With several PRED: the one every other is tested against (default: the first)."
        ),
    ] = None,
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "-m",
            "--metric",
            help="With several PRED: a measure to compare, repeatable (default accuracy): "
            "f1(average='macro'), mcc, balanced_accuracy ... (`assay metrics --family "
            "classification`).",
        ),
    ] = None,
    test: Annotated[
        ClassificationTest,
        typer.Option(
            help="With several PRED: the paired test; mcnemar, t, wilcoxon, sign: accuracy "
            "only; randomization, bootstrap: any measure."
        ),
    ] = "mcnemar",
    mcnemar: Annotated[
        McNemarMethod,
        typer.Option(help="McNemar's p-value: exact, mid-p, chi2 (continuity-corrected)."),
    ] = "exact",
    n_resamples: Annotated[
        int, typer.Option(help="Resamples of the tests and the bootstrap intervals.")
    ] = 10000,
    seed: SeedOption = 0,
    confidence: ConfidenceOption = 0.95,
    correction: CorrectionOption = "holm",
    alpha: AlphaOption = 0.05,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Classification measures: per-class precision/recall/F, averages, accuracy, kappa, MCC,
    SBA; ROC AUC, AP and interpolated precision with --scores. With several PRED: each
    against a baseline (McNemar's test, randomization, bootstrap; Cochran's Q over three or
    more)."""
    with errors():
        from ..classification import evaluate

        check_report(report)
        zd = _zero_division(zero_division)
        _check_test_options(n_resamples, seed, confidence, alpha)
        if len(preds) > 1 or baseline is not None:
            _refuse_single_options(scores, average, beta, degenerate)
            comparison = _Comparison(
                baseline, metric, test, mcnemar, n_resamples, seed, confidence, correction, alpha
            )
            paths = list(preds)
            check_baseline(baseline, paths, "prediction")
            if baseline is not None and baseline not in paths:
                paths = [baseline, *paths]
            _compare(
                gold,
                paths,
                positive,
                zd,
                (column, gold_column, pred_column),
                comparison,
                (fmt, output, report, save, quiet),
            )
            return
        y_true, y_pred, s = _read(
            gold, preds[0], scores, column, gold_column, pred_column, scores_column
        )
        if average == "binary" and positive is None:
            raise _option_error("--average binary needs --pos-label", "average")
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


def _check_test_options(n_resamples: int, seed: int, confidence: float, alpha: float) -> None:
    """The comparison's numeric options, checked with one PRED too: a bad value is an error
    whether or not it is used."""
    from .. import _options as opt

    opt.n_resamples(n_resamples)
    opt.seed(seed)
    opt.confidence(confidence)
    opt.alpha(alpha)


class _Comparison:
    """The test options of a comparison (several PRED), as given."""

    def __init__(self, baseline: str | None, metric: list[str] | None, *rest: Any) -> None:
        self.baseline, self.metrics = baseline, metric or ["accuracy"]
        (
            self.test,
            self.mcnemar,
            self.n_resamples,
            self.seed,
            self.confidence,
            self.correction,
            self.alpha,
        ) = rest


def _refuse_single_options(
    scores: str | None, average: str | None, beta: float, degenerate: str
) -> None:
    """Options of one PRED's report that a comparison has no use for: said, not ignored."""
    given = [
        flag
        for flag, used in (
            ("--scores", scores is not None),
            ("--average", average is not None),
            ("--beta", beta != 1.0),
            ("--degenerate", degenerate != "zero"),
        )
        if used
    ]
    if given:
        raise _option_error(
            f"{', '.join(given)} apply to one PRED's report; with several PRED, name the "
            "measures to compare with --metric (e.g. -m \"f_score(beta=2.0, average='macro')\", "
            "-m \"mcc(degenerate='limit')\")",
            given[0].lstrip("-").replace("-", "_"),
        )


def _compare(
    gold: str,
    paths: list[str],
    positive: str | None,
    zero_division: Any,
    columns: tuple[str | None, str | None, str | None],
    c: _Comparison,
    out: tuple[Any, Any, Any, Any, bool],
) -> None:
    """Several PRED against the baseline: read, compare, present."""
    from ..classification import compare
    from ..errors import InputError

    column, gold_column, pred_column = columns
    fmt, output, report, save, quiet = out
    distinct_inputs(paths, "prediction")
    y_true = _labels(_reader(), gold, gold_column or column, "gold")
    named: dict[str, Any] = {}
    for name, path in zip(unique_names(paths), paths, strict=True):
        labels = _labels(_reader(), path, pred_column or column, "pred")
        if len(labels) != len(y_true):
            raise InputError(f"{gold} has {len(y_true)} labels but {path} has {len(labels)}")
        named[name] = labels
    if positive is not None:
        seen = set(y_true).union(*(set(v) for v in named.values()))
        if positive not in seen:
            raise _unknown_positive(positive, seen)
    base = None if c.baseline is None else list(named)[paths.index(c.baseline)]
    with busy(f"comparing classifiers ({c.test}, {c.n_resamples} resamples)", quiet):
        result = compare(
            y_true,
            named,
            baseline=base,
            metrics=c.metrics,
            test=c.test,
            mcnemar=c.mcnemar,
            n_resamples=c.n_resamples,
            seed=c.seed,
            correction=c.correction,
            alpha=c.alpha,
            confidence=c.confidence,
            pos_label=positive,
            zero_division=zero_division,
        )
    for note in result.notes:
        warn(note)
    present(result.report(), fmt, output)
    if report is not None or save is not None:
        write_documents(
            [result.document()], report=report, save=save, title="assay classify", quiet=quiet
        )


def _reader() -> Any:
    from ..classification import read_labels

    return read_labels


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
