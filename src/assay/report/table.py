"""The display table: one model of a table for people, rendered to Markdown, LaTeX, a rich
table (the terminal) or plain text.

A :class:`DisplayTable` holds columns, rows of :class:`Cell` (text plus what a format may
show of it: emphasis for a best value, significance marks, a secondary note such as a
confidence interval), an optional title, a caption (shown under the terminal table) and a
legend (shown by every format: a paragraph after the Markdown table, a ``%`` comment after
the LaTeX one). Renderers escape every piece of text from the data for their format
(:mod:`assay.report.escape`) and add their own decoration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from . import escape

__all__ = [
    "Align",
    "Cell",
    "Column",
    "DisplayTable",
    "to_latex",
    "to_markdown",
    "to_rich",
    "to_text",
]

Align = Literal["left", "right"]


@dataclass(frozen=True)
class Column:
    """A column: header, alignment, LaTeX header (default: the header) and terminal hints
    (``style``, ``no_wrap``, ``min_width``, ``fold``: fold long text instead of cropping)."""

    name: str
    align: Align = "left"
    latex: str | None = None
    style: str | None = None
    no_wrap: bool = True
    min_width: int | None = None
    fold: bool = False


@dataclass(frozen=True)
class Cell:
    """A cell: its ``text``; ``strong`` for emphasis (the best value of a column); ``marks``
    (significance markers, shown as a superscript); ``note`` (secondary text, e.g. a
    confidence interval, shown on the terminal and in plain text only)."""

    text: str
    strong: bool = False
    marks: str = ""
    note: str = ""


@dataclass(frozen=True)
class DisplayTable:
    """Columns, rows of cells (a ``str`` is a plain cell), title, caption and legend.
    ``sections`` are the indices of rows followed by a rule on the terminal."""

    columns: Sequence[Column]
    rows: Sequence[Sequence[Cell | str]]
    title: str = ""
    caption: str = ""
    legend: str = ""
    sections: frozenset[int] = field(default_factory=frozenset)

    def cells(self) -> list[list[Cell]]:
        """The rows with every cell as a :class:`Cell`."""
        return [[c if isinstance(c, Cell) else Cell(c) for c in row] for row in self.rows]


# ---------------------------------------------------------------- Markdown


def to_markdown(table: DisplayTable) -> str:
    """A pipe table; ``**strong**`` cells, ``<sup>marks</sup>``; the legend as a paragraph."""
    lines = [f"**{escape.markdown(table.title)}**", ""] if table.title else []
    lines.append(_md_row(escape.markdown(c.name) for c in table.columns))
    lines.append(
        "|" + "|".join("---:" if c.align == "right" else "---" for c in table.columns) + "|"
    )
    lines += [_md_row(_md_cell(cell) for cell in row) for row in table.cells()]
    text = "\n".join(lines) + "\n"
    return text + f"\n{table.legend}\n" if table.legend else text


def _md_row(cells: Any) -> str:
    return "| " + " | ".join(cells) + " |"


def _md_cell(cell: Cell) -> str:
    text = escape.markdown(cell.text)
    if cell.strong:
        text = f"**{text}**"
    return text + (f"<sup>{escape.markdown(cell.marks)}</sup>" if cell.marks else "")


# ---------------------------------------------------------------- LaTeX


def to_latex(table: DisplayTable) -> str:
    """A booktabs ``tabular``; ``\\textbf`` cells, marks as ``$^{...}$``; the title and the
    legend as ``%`` comments."""
    spec = "".join("r" if c.align == "right" else "l" for c in table.columns)
    lines = [f"% {table.title}"] if table.title else []
    lines += [f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
    lines.append(_tex_row(escape.latex(c.latex or c.name) for c in table.columns))
    lines.append("\\midrule")
    lines += [_tex_row(_tex_cell(cell) for cell in row) for row in table.cells()]
    lines += ["\\bottomrule", "\\end{tabular}"]
    if table.legend:
        lines.append(f"% {table.legend}")
    return "\n".join(lines) + "\n"


def _tex_row(cells: Any) -> str:
    return " & ".join(cells) + " \\\\"


def _tex_cell(cell: Cell) -> str:
    text = escape.latex(cell.text)
    if cell.strong:
        text = f"\\textbf{{{text}}}"
    return text + (f"$^{{{escape.latex_marks(cell.marks)}}}$" if cell.marks else "")


# ---------------------------------------------------------------- terminal


def to_rich(table: DisplayTable) -> Any:
    """A ``rich.table.Table``: strong cells bold green, notes dim, marks bold (red for ▼)."""
    from rich.table import Table

    out = Table(
        title=escape.rich(table.title) if table.title else None,
        caption=escape.rich(table.caption or table.legend) or None,
        caption_justify="left",
    )
    for c in table.columns:
        out.add_column(
            escape.rich(c.name),
            justify=c.align,
            style=c.style,
            no_wrap=c.no_wrap,
            min_width=c.min_width,
            overflow="fold" if c.fold else "ellipsis",
        )
    for i, row in enumerate(table.cells()):
        out.add_row(*(_rich_cell(cell) for cell in row), end_section=i in table.sections)
    return out


def _rich_cell(cell: Cell) -> str:
    text = escape.rich(cell.text)
    if cell.strong:
        text = f"[bold green]{text}[/]"
    if cell.note:
        text += f" [dim]{escape.rich(cell.note)}[/]"
    if cell.marks:
        color = "red" if "▼" in cell.marks else "green"
        text += f" [bold {color}]{escape.rich(cell.marks)}[/]"
    return text


def to_text(table: DisplayTable) -> str:
    """Plain text: columns padded to their widest cell, separated by two spaces, a dashed
    rule under the header; notes after the text, marks right after it; then the caption
    and the legend."""
    header = [c.name for c in table.columns]
    body = [[_text_cell(cell) for cell in row] for row in table.cells()]
    widths = [max(len(r[j]) for r in [header, *body]) for j in range(len(header))]

    def line(cells: list[str]) -> str:
        padded = (
            cell.rjust(w) if col.align == "right" else cell.ljust(w)
            for cell, w, col in zip(cells, widths, table.columns, strict=True)
        )
        return "  ".join(padded).rstrip()

    lines = [table.title] if table.title else []
    lines += [line(header), "  ".join("-" * w for w in widths)]
    lines += [line(r) for r in body]
    lines += [text for text in (table.caption, table.legend) if text]
    return "\n".join(lines) + "\n"


def _text_cell(cell: Cell) -> str:
    return cell.text + cell.marks + (f" {cell.note}" if cell.note else "")
