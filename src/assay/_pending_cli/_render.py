"""Simple renderers for the pending commands (the lead switches them to the shared ones):
a display table (strings) for table/markdown/latex, machine rows for tsv/csv/jsonl/json."""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer


def fail(exc: Exception) -> typer.Exit:
    """One line on stderr; the exit to raise (code 2, as the rest of the CLI)."""
    typer.echo(f"assay: error: {exc}", err=True)
    return typer.Exit(2)


def plain(value: Any) -> Any:
    """A JSON-safe value: NaN becomes None, NumPy scalars Python values."""
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def number(value: float | None, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "nan"
    return f"{value:.{digits}f}"


def _machine(rows: list[dict[str, Any]], fmt: str, settings: Mapping[str, Any]) -> str:
    if fmt == "jsonl":
        return "".join(json.dumps(plain(r), ensure_ascii=False) + "\n" for r in rows)
    if fmt == "json":
        doc = {"records": plain(rows), "settings": plain(dict(settings))}
        return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
    keys = list(rows[0]) if rows else []
    writer.writerow(keys)
    for r in rows:
        writer.writerow(["nan" if plain(r[k]) is None else r[k] for k in keys])
    return out.getvalue()


def _text_table(header: Sequence[str], cells: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *cells, strict=True)]

    def line(row: Sequence[str]) -> str:
        first = f"{row[0]:<{widths[0]}}"
        rest = [f"{c:>{w}}" for c, w in zip(row[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in cells)]) + "\n"


def _markdown(header: Sequence[str], cells: Sequence[Sequence[str]]) -> str:
    def esc(c: str) -> str:
        return c.replace("|", "\\|")

    lines = [
        "| " + " | ".join(esc(h) for h in header) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|",
    ]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in cells]
    return "\n".join(lines) + "\n"


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\^{}",
    "▲": r"$\blacktriangle$",
    "▼": r"$\blacktriangledown$",
    "±": r"$\pm$",
}


def _latex_cell(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def _latex(header: Sequence[str], cells: Sequence[Sequence[str]]) -> str:
    lines = [
        r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
        r"\toprule",
        " & ".join(_latex_cell(h) for h in header) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(_latex_cell(c) for c in row) + r" \\" for row in cells]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def render(
    fmt: str,
    rows: list[dict[str, Any]],
    settings: Mapping[str, Any],
    header: Sequence[str],
    cells: Sequence[Sequence[str]],
    notes: Sequence[str] = (),
) -> str:
    """``rows`` (machine formats) or the display table ``header`` + ``cells`` with ``notes``
    (table, markdown, latex)."""
    if fmt in ("tsv", "csv", "jsonl", "json"):
        return _machine(rows, fmt, settings)
    if fmt == "markdown":
        return _markdown(header, cells) + "".join(f"\n{n}\n" for n in notes)
    if fmt == "latex":
        return _latex(header, cells) + "".join(f"% {n}\n" for n in notes)
    return _text_table(header, cells) + "".join(f"{n}\n" for n in notes)


def emit(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        output.write_text(text, encoding="utf-8")


def unique_names(paths: Sequence[str]) -> list[str]:
    """File names without directories when those are unique, else the paths as given."""
    import os

    names = [os.path.basename(p[:-3] if p.endswith(".gz") else p) or p for p in paths]
    return names if len(set(names)) == len(names) else list(paths)
