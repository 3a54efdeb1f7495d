"""``assay classify``: classification measures from label files. Registered by
``assay.cli._register_optional_commands``; only typer and the standard library are imported at
module level (numpy and assay.classification inside the command)."""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer


class ClassifyFormat(StrEnum):
    table = "table"
    tsv = "tsv"
    csv = "csv"
    jsonl = "jsonl"
    json = "json"
    markdown = "markdown"
    latex = "latex"


class ClassifyAverage(StrEnum):
    binary = "binary"
    micro = "micro"
    macro = "macro"
    weighted = "weighted"


class Degenerate(StrEnum):
    zero = "zero"
    limit = "limit"
    nan = "nan"


def _read_column(path: str, column: str | None, what: str) -> tuple[list[str], list[int]]:
    """Values and their 1-based line numbers. ``.csv``/``.tsv`` (optionally ``.gz``): a header
    and a named column (``column``; a one-column file needs none). Other files: one value per
    line. Blank lines are errors; ``-`` reads stdin."""
    from .errors import EmptyInputError, InputError, ParseError

    base = path[:-3] if path.endswith(".gz") else path
    from .io.text import read_text

    text = read_text(path)
    delim = "," if base.endswith(".csv") else "\t" if base.endswith(".tsv") else None
    values: list[str] = []
    lines: list[int] = []
    if delim is None:
        for i, line in enumerate(text.splitlines(), start=1):
            value = line.strip()
            if not value:
                raise ParseError(
                    f"blank line: {what} files hold one value per line", source=path, line=i
                )
            values.append(value)
            lines.append(i)
    else:
        reader = csv.reader(io.StringIO(text), delimiter=delim)
        try:
            header = next(reader)
        except StopIteration:
            raise EmptyInputError("empty file (a header line is expected)", source=path) from None
        if column is None:
            if len(header) != 1:
                raise InputError(
                    f"{len(header)} columns ({', '.join(header)}); name the "
                    f"{what} column with --{what}-column or --column",
                    source=path,
                )
            col = 0
        elif column in header:
            col = header.index(column)
        else:
            raise InputError(f"no column {column!r} (columns: {', '.join(header)})", source=path)
        for row in reader:
            i = reader.line_num
            if not row:
                raise ParseError("blank line", source=path, line=i)
            if len(row) != len(header):
                raise ParseError(
                    f"{len(row)} fields, the header has {len(header)}", source=path, line=i
                )
            values.append(row[col].strip())
            lines.append(i)
    if not values:
        raise EmptyInputError(f"no {what} values", source=path)
    return values, lines


def _read_scores(path: str, column: str | None) -> list[float]:
    from .errors import ParseError

    values, lines = _read_column(path, column, "scores")
    out = []
    for v, i in zip(values, lines, strict=True):
        try:
            x = float(v)
        except ValueError:
            raise ParseError(f"not a number: {v!r}", source=path, line=i) from None
        if not math.isfinite(x):
            raise ParseError(f"not a finite number: {v!r}", source=path, line=i)
        out.append(x)
    return out


def _plain(value: Any) -> str:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)
    return str(value)


def _short(value: Any) -> str:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.4f}"
    return str(value)


def _json_value(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def _tex(text: str) -> str:
    from ._format import _tex as tex

    return tex(text)


def render_records(
    records: list[dict[str, Any]], fmt: str, settings: dict[str, Any] | None = None
) -> str:
    """Machine and document formats of ``{"metric", "value"[, "label"]}`` rows."""
    if fmt == "tsv":
        return "".join(
            f"{r['metric']}\t{r.get('label', '')}\t{_plain(r['value'])}\n" for r in records
        )
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["metric", "label", "value"])
        for r in records:
            w.writerow([r["metric"], r.get("label", ""), _plain(r["value"])])
        return buf.getvalue()
    if fmt == "jsonl":
        return "".join(json.dumps({**r, "value": _json_value(r["value"])}) + "\n" for r in records)
    if fmt == "json":
        doc = {
            "results": [{**r, "value": _json_value(r["value"])} for r in records],
            "settings": settings or {},
        }
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "markdown":
        lines = ["| metric | label | value |", "|---|---|---:|"]
        lines += [
            f"| {str(r['metric']).replace('|', chr(92) + '|')} | "
            f"{str(r.get('label', '')).replace('|', chr(92) + '|')} | {_short(r['value'])} |"
            for r in records
        ]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        out = ["\\begin{tabular}{llr}", "\\toprule", "Metric & Label & Value \\\\", "\\midrule"]
        out += [
            f"{_tex(str(r['metric']))} & {_tex(str(r.get('label', '')))} & "
            f"{_short(r['value'])} \\\\"
            for r in records
        ]
        out += ["\\bottomrule", "\\end{tabular}"]
        return "\n".join(out) + "\n"
    raise ValueError(f"unknown format {fmt!r}")


def _rich_table(records: list[dict[str, Any]], caption: str) -> Any:
    from rich.markup import escape
    from rich.table import Table

    table = Table(caption=caption, caption_justify="left")
    table.add_column("metric", no_wrap=True)
    table.add_column("label", no_wrap=True)
    table.add_column("value", justify="right", no_wrap=True)
    for r in records:
        table.add_row(escape(str(r["metric"])), escape(str(r.get("label", ""))), _short(r["value"]))
    return table


def _filter(
    records: list[dict[str, Any]], average: ClassifyAverage | None, positive: str | None
) -> list[dict[str, Any]]:
    if average is None:
        return records
    suffixes = ("_micro", "_macro", "_weighted")
    keep_avg = f"_{average.value}"
    out = []
    for r in records:
        m = str(r["metric"])
        if m.endswith(suffixes) and not m.endswith(keep_avg):
            continue
        if average == ClassifyAverage.binary and "label" in r and r["label"] != positive:
            continue
        out.append(r)
    return out


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
            help="Scores of the --positive class, one number per item (same formats): "
            "adds ROC AUC, average precision, interpolated precision.",
        ),
    ] = None,
    positive: Annotated[
        str | None,
        typer.Option(
            "--positive",
            help="The positive class: binary measures (specificity, NPV, rates, ...) "
            "and the class the scores are for.",
        ),
    ] = None,
    average: Annotated[
        ClassifyAverage | None,
        typer.Option(
            "--average",
            help="Print only this average (binary: only the --positive class's rows); "
            "default: per-class rows and micro, macro and weighted averages.",
        ),
    ] = None,
    fmt: Annotated[
        ClassifyFormat | None,
        typer.Option(
            "-f", "--format", help="Output format (default: table on a terminal, else tsv)."
        ),
    ] = None,
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
    ] = Degenerate.zero,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file.")] = None,
) -> None:
    """Classification measures: per-class precision/recall/F, averages, accuracy, kappa, MCC,
    SBA; ROC AUC, AP and interpolated precision with --scores."""
    from .cli import _errors

    with _errors():
        from .classification import classification_report
        from .errors import InputError, MetricError

        zd: Any  # validated by classification_report
        if zero_division in ("0", "1"):
            zd = int(zero_division)
        elif zero_division == "nan":
            zd = "nan"
        else:
            raise MetricError(f"--zero-division must be 0, 1 or nan, got {zero_division!r}")
        if average == ClassifyAverage.binary and positive is None:
            raise MetricError("--average binary needs --positive")
        y_true, _ = _read_column(gold, gold_column or column, "gold")
        y_pred, _ = _read_column(pred, pred_column or column, "pred")
        if len(y_true) != len(y_pred):
            raise InputError(f"{gold} has {len(y_true)} labels but {pred} has {len(y_pred)}")
        s = None
        if scores is not None:
            s = _read_scores(scores, scores_column or column)
            if len(s) != len(y_true):
                raise InputError(
                    f"{scores} has {len(s)} scores but {gold} has {len(y_true)} labels"
                )
            if positive is None:
                raise MetricError("--scores needs --positive (the class the scores are for)")
        if positive is not None and positive not in set(y_true) | set(y_pred):
            raise MetricError(f"--positive {positive!r} is not one of the labels")
        report = classification_report(
            y_true,
            y_pred,
            scores=s,
            pos_label=positive,
            beta=beta,
            zero_division=zd,
            degenerate=degenerate.value,
        )
        records = _filter(report.records(), average, positive)
        chosen = (
            fmt.value
            if fmt is not None
            else ("table" if output is None and sys.stdout.isatty() else "tsv")
        )
        if chosen == "table":
            from rich.console import Console

            caption = (
                f"n={report.n}  zero_division={zero_division}  mcc degenerate={degenerate.value}"
            )
            if output is None:
                console = Console()
                if not console.is_terminal:
                    console = Console(width=max(console.width, 160))
                console.print(_rich_table(records, caption))
            else:
                with output.open("w", encoding="utf-8") as fh:
                    Console(file=fh, width=160).print(_rich_table(records, caption))
            return
        text = render_records(records, chosen, dict(report.settings))
        if output is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            output.write_text(text, encoding="utf-8")
