"""``assay plot RESULT.json...``: export a plot of saved results (``--save``) as PNG, SVG or PDF;
without ``-o`` (or with ``--list``), list the plots they hold."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .._options import PlotFormat
from ._common import FormatOption, present
from ._common import errors as handled
from .report import SavedArg

__all__ = ["plot", "register"]


def plot(
    results: SavedArg,
    number: Annotated[
        int | None, typer.Option("-n", "--number", help="Which plot (see the list; default 1).")
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="The file (.png, .svg, .pdf) to draw the plot to."),
    ] = None,
    plot_format: Annotated[
        PlotFormat | None,
        typer.Option("--plot-format", help="png, svg or pdf (default: the file's extension)."),
    ] = None,
    fmt: FormatOption = None,
) -> None:
    """Export one plot of saved results to a PNG (150 dpi), SVG or PDF file; without -o, list
    the plots (number, result, section, title)."""
    with handled():
        from .._options import integer
        from ..errors import InputError
        from ..report.document import malformed
        from ..report.plots import export
        from ..report.saved import drawing_budget
        from .report import load_saved

        chosen = integer(1 if number is None else number, "number", minimum=1)
        found = _plots(load_saved(results))
        if output is None:
            present(_listing(found), fmt)
            return
        if chosen > len(found):
            raise InputError(f"plot {chosen} asked for; the results hold {len(found)}")
        drawing_budget([found[chosen - 1][2]], " ".join(map(str, results)))
        with malformed("plot", source=" ".join(map(str, results))):
            export(found[chosen - 1][2], output, plot_format)


def _plots(docs: list[Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(result title, section title, plot) of every plot, in order."""
    return [
        (str(d.get("title", "")), str(s.get("title", "")), item["plot"])
        for d in docs
        for s in d["sections"]
        for item in s["items"]
        if "plot" in item
    ]


def _listing(found: list[tuple[str, str, dict[str, Any]]]) -> Any:
    from ..report import Report
    from ..report.table import Column, DisplayTable

    rows = [
        {"number": i, "result": doc, "section": sec, "title": str(p.get("title", ""))}
        for i, (doc, sec, p) in enumerate(found, 1)
    ]
    cols = ("number", "result", "section", "title")
    table = DisplayTable(
        [Column("number", align="right"), Column("result"), Column("section"), Column("title")],
        [[str(r[c]) for c in cols] for r in rows],
    )
    return Report(table, rows, cols, key="plots")


def register(app: typer.Typer) -> None:
    """Add ``assay plot`` to ``app``."""
    app.command("plot")(plot)
