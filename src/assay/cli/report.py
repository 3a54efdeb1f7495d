"""``assay report RESULT.json...``: saved results (``--save``) as one self-contained HTML page,
or their tables as Markdown, LaTeX or text, without recomputing anything."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .._options import ReportFormat
from ._common import OutputOption, emit, errors
from ._outputs import extension_format

__all__ = ["load_saved", "register", "report"]

SavedArg = Annotated[
    list[Path],
    typer.Argument(help="Saved results: files written with --save (FILE.json or FILE.parquet)."),
]


def load_saved(paths: list[Path]) -> list[Any]:
    """The documents of every saved file, each checked by rendering its tables (a malformed
    file is one line naming it)."""
    from ..report.document import load, malformed, tables

    docs = []
    for path in paths:
        for doc in load(path):
            with malformed("table", source=str(path)):
                tables(doc)
            docs.append(doc)
    return docs


def report(
    results: SavedArg,
    output: OutputOption = None,
    fmt: Annotated[
        ReportFormat | None,
        typer.Option(
            "-f",
            "--format",
            help="html: the page with tables and plots (default; needs assay[plot]); "
            "markdown, latex, table: the tables only.",
        ),
    ] = None,
    title: Annotated[str, typer.Option(help="Title of the HTML page.")] = "assay report",
) -> None:
    """Report saved results: one self-contained HTML page (inline SVG plots, no network), or
    their tables as Markdown, LaTeX (booktabs) or text."""
    with errors():
        from .._options import choice
        from ..report import to_latex, to_markdown, to_text
        from ..report.document import tables

        named = fmt if output is None else extension_format("report", "output", str(output), fmt)
        chosen = choice(named or "html", ReportFormat, "format")
        if chosen == "html":
            from .._optional import require

            require("matplotlib")
        docs = load_saved(results)
        if chosen != "html":
            render = {"markdown": to_markdown, "latex": to_latex, "table": to_text}[chosen]
            emit("\n".join(render(t) for d in docs for t in tables(d)), output)
            return
        from ..report.document import malformed, plots
        from ..report.html import to_html
        from ..report.saved import drawing_budget

        drawing_budget((p for d in docs for p in plots(d)), " ".join(map(str, results)))
        with malformed("plot", source=" ".join(map(str, results))):
            page = to_html(docs, title=title)
        emit(page, output)


def register(app: typer.Typer) -> None:
    """Add ``assay report`` to ``app``."""
    app.command("report")(report)
