"""The display table: one model of a table for people, rendered to Markdown, LaTeX, a rich
table (the terminal) or plain text.

A :class:`DisplayTable` holds columns, rows of :class:`Cell` (text plus what a format may
show of it: emphasis for a best value, significance marks, a secondary note such as a
confidence interval), an optional title, a caption and a legend (shown by every format: a
paragraph after the Markdown table, ``%`` comment lines after the LaTeX one). Renderers escape
every piece of text from the data for their format (:mod:`assay.report.escape`) and add their
own decoration.

Nothing is ever cropped. On a terminal of a given width, :func:`fit` lays a table out so it
fits: as it is; else transposed (its value columns become rows, when the table says what
they are: ``pivot``); else in long form, one row per value. A cell that still does not fit
is wrapped, never cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from . import escape

__all__ = [
    "LATEX_HEADERS",
    "Align",
    "Cell",
    "Column",
    "DisplayTable",
    "fit",
    "to_latex",
    "to_markdown",
    "to_rich",
    "to_text",
]

Align = Literal["left", "right"]


#: The LaTeX headers assay writes (``Column.latex``), the only LaTeX source a table carries
#: into its output: any other ``latex`` (a saved result read back is untrusted, and may say
#: ``\\input{/etc/passwd}``) is ignored and the escaped column name is shown instead.
LATEX_HEADERS = frozenset(
    {
        "Run",
        "Query",
        "Metric",
        "System",
        "Model",
        "vs.",
        "Value",
        "Label",
        "Rank",
        "Candidate",
        "Score",
        "$\\Delta$ [CI]",
        "$p$ ($p_{adj}$)",
        "$d$",
        "True $\\backslash$ predicted",
    }
)


@dataclass(frozen=True)
class Column:
    """A column: header, alignment, LaTeX header and a terminal style. ``latex`` is one of
    assay's own headers (:data:`LATEX_HEADERS`, such as ``$\\Delta$``), used as it is; any
    other value, or none, shows the escaped ``name``."""

    name: str
    align: Align = "left"
    latex: str | None = None
    style: str | None = None


@dataclass(frozen=True)
class Cell:
    """A cell: its ``text``; ``strong`` for emphasis (the best value of a column); ``marks``
    (significance markers, shown as a superscript); ``note`` (secondary text, e.g. a
    confidence interval: dim on the terminal, after the value in text and Markdown, in small
    type in LaTeX)."""

    text: str
    strong: bool = False
    marks: str = ""
    note: str = ""


@dataclass(frozen=True)
class DisplayTable:
    """Columns, rows of cells (a ``str`` is a plain cell), title, caption and legend.

    The first ``keys`` columns label a row (a run, a run and a query); the others hold values.
    ``pivot`` names what the value columns are ("metric"): a table with one key column and a
    pivot can be transposed to fit a narrow terminal; a ``wrap`` table (prose columns, such as
    the metric catalogue) keeps its layout and wraps its cells instead. ``sections`` are the
    indices of rows followed by a rule on the terminal.
    """

    columns: Sequence[Column]
    rows: Sequence[Sequence[Cell | str]]
    title: str = ""
    caption: str = ""
    legend: str = ""
    sections: frozenset[int] = field(default_factory=frozenset)
    keys: int = 1
    pivot: str = ""
    wrap: bool = False

    def cells(self) -> list[list[Cell]]:
        """The rows with every cell as a :class:`Cell`."""
        return [[c if isinstance(c, Cell) else Cell(c) for c in row] for row in self.rows]


# ---------------------------------------------------------------- layout


def _shown(cell: Cell) -> str:
    """A cell as the terminal and plain text show it."""
    return escape.terminal(cell.text + cell.marks + (f" {cell.note}" if cell.note else ""))


def natural_width(table: DisplayTable) -> int:
    """Columns needed to show ``table`` unwrapped as a boxed terminal table."""
    body = table.cells()
    widths = [
        max([len(escape.terminal(c.name)), *(len(_shown(row[j])) for row in body)])
        for j, c in enumerate(table.columns)
    ]
    return sum(widths) + 3 * len(widths) + 1


def transpose(table: DisplayTable) -> DisplayTable:
    """Value columns as rows: the first column becomes the header row."""
    body = table.cells()
    columns = [Column(table.pivot, style="bold")]
    columns += [Column(row[0].text, align="right") for row in body]
    rows = [
        [Cell(c.name), *(row[j] for row in body)]
        for j, c in enumerate(table.columns)
        if j >= table.keys
    ]
    return replace(table, columns=columns, rows=rows, sections=frozenset(), keys=1, pivot="")


def long_form(table: DisplayTable) -> DisplayTable:
    """One row per value: the key columns (shown on a group's first row only, a rule after
    each group), the value column's name, the value."""
    keys = list(table.columns[: table.keys])
    columns = [*keys, Column(table.pivot or "column"), Column("value", align="right")]
    rows: list[list[Cell | str]] = []
    sections = set()
    values = [(j, c) for j, c in enumerate(table.columns) if j >= table.keys]
    for row in table.cells():
        for n, (j, c) in enumerate(values):
            label = row[: table.keys] if n == 0 else [Cell("")] * table.keys
            rows.append([*label, Cell(c.name), row[j]])
        sections.add(len(rows) - 1)
    return replace(table, columns=columns, rows=rows, sections=frozenset(sections), pivot="")


def fit(table: DisplayTable, width: int | None) -> DisplayTable:
    """``table`` laid out to fit ``width`` columns: as it is, transposed, or in long form."""
    if width is None or table.wrap or len(table.columns) <= table.keys + 1:
        return table
    if natural_width(table) <= width:
        return table
    if table.pivot and table.keys == 1:
        flipped = transpose(table)
        if natural_width(flipped) <= width:
            return flipped
    return long_form(table)


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
    notes = [escape.markdown(t) for t in (table.caption, table.legend) if t]
    return text + "".join(f"\n{n}\n" for n in notes)


def _md_row(cells: Any) -> str:
    return "| " + " | ".join(cells) + " |"


def _md_cell(cell: Cell) -> str:
    text = escape.markdown(cell.text)
    if cell.strong:
        text = f"**{text}**"
    text += f"<sup>{escape.markdown(cell.marks)}</sup>" if cell.marks else ""
    return text + (f" {escape.markdown(cell.note)}" if cell.note else "")


# ---------------------------------------------------------------- LaTeX


def to_latex(table: DisplayTable) -> str:
    """A booktabs ``tabular``; ``\\textbf`` cells, marks as ``$^{...}$``; the title, caption and
    legend as ``%`` comment lines (escaped, so nothing in them can end the comment)."""
    spec = "".join("r" if c.align == "right" else "l" for c in table.columns)
    lines = [f"% {escape.latex(table.title)}"] if table.title else []
    lines += [f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
    lines.append(_tex_row(_tex_header(c) for c in table.columns))
    lines.append("\\midrule")
    lines += [_tex_row(_tex_cell(cell) for cell in row) for row in table.cells()]
    lines += ["\\bottomrule", "\\end{tabular}"]
    lines += [f"% {escape.latex(t)}" for t in (table.caption, table.legend) if t]
    return "\n".join(lines) + "\n"


def _tex_header(column: Column) -> str:
    return column.latex if column.latex in LATEX_HEADERS else escape.latex(column.name)


def _tex_row(cells: Any) -> str:
    """A row; ``{}`` first when it starts with ``[`` or ``*``, which the ``\\\\`` or rule
    before it would take for its optional argument (``[3cm]`` as a 3 cm gap)."""
    text = " & ".join(cells)
    guard = "{}" if text.lstrip().startswith(("[", "*")) else ""
    return guard + text + " \\\\"


def _tex_cell(cell: Cell) -> str:
    text = escape.latex(cell.text)
    if cell.strong:
        text = f"\\textbf{{{text}}}"
    text += f"$^{{{escape.latex_marks(cell.marks)}}}$" if cell.marks else ""
    return text + (f" {{\\scriptsize {escape.latex(cell.note)}}}" if cell.note else "")


# ---------------------------------------------------------------- terminal


def to_rich(table: DisplayTable, width: int | None = None) -> Any:
    """A ``rich.table.Table`` laid out for ``width`` columns (:func:`fit`): strong cells bold
    green, notes dim, marks bold (red for ▼); long text wraps, nothing is cropped."""
    from rich.table import Table

    table = fit(table, width)
    footer = "\n".join(escape.rich(t) for t in (table.caption, table.legend) if t)
    out = Table(
        title=escape.rich(table.title) if table.title else None,
        caption=footer or None,
        caption_justify="left",
    )
    for j, c in enumerate(table.columns):
        out.add_column(
            escape.rich(c.name),
            justify=c.align,
            style=c.style,
            overflow="fold",
            no_wrap=table.wrap and j < table.keys,
            min_width=len(escape.terminal(c.name)) if j >= table.keys else None,
        )
    for i, row in enumerate(table.cells()):
        out.add_row(*(_rich_cell(cell) for cell in row), end_section=i in table.sections)
    return out


def _rich_cell(cell: Cell) -> str:
    text = escape.rich(cell.text)
    if cell.strong:
        text = f"[bold green]{text}[/]"
    if cell.marks:
        color = "red" if "▼" in cell.marks else "green"
        text += f"[bold {color}]{escape.rich(cell.marks)}[/]"
    if cell.note:
        text += f" [dim]{escape.rich(cell.note)}[/]"
    return text


def to_text(table: DisplayTable, width: int | None = None) -> str:
    """Plain text laid out for ``width`` columns (:func:`fit`): columns padded to their widest
    cell, separated by two spaces, a dashed rule under the header; marks right after the
    text, notes after them; then the caption and the legend."""
    table = fit(table, width)
    header = [escape.terminal(c.name) for c in table.columns]
    body = [[_shown(cell) for cell in row] for row in table.cells()]
    widths = [max(len(r[j]) for r in [header, *body]) for j in range(len(header))]

    def line(cells: list[str]) -> str:
        padded = (
            cell.rjust(w) if col.align == "right" else cell.ljust(w)
            for cell, w, col in zip(cells, widths, table.columns, strict=True)
        )
        return "  ".join(padded).rstrip()

    lines = [escape.terminal(table.title)] if table.title else []
    lines += [line(header), "  ".join("-" * w for w in widths)]
    lines += [line(r) for r in body]
    lines += [escape.terminal(text) for text in (table.caption, table.legend) if text]
    return "\n".join(lines) + "\n"
