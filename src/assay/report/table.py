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
from typing import TYPE_CHECKING, Any, Literal

from . import escape

if TYPE_CHECKING:
    from rich.table import Table as RichTable

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
        # the omnibus table of a PairedComparison (Cochran's Q, ...)
        "Test",
        "$p$",
    }
)


@dataclass(frozen=True)
class Column:
    """A column of a :class:`DisplayTable`: header, alignment, LaTeX header, terminal style.

    Parameters
    ----------
    name : str
        The header (escaped for every format).
    align : {"left", "right"}
        How the column's cells are aligned (numbers: ``"right"``).
    latex : str, optional
        The LaTeX header: one of assay's own headers (:data:`LATEX_HEADERS`, such as
        ``$\\Delta$``), used as it is; any other value, or none, shows the escaped ``name``.
    style : str, optional
        A rich style for the column on the terminal (``"bold"``).

    Examples
    --------
    >>> from assay.report import Column
    >>> Column("P@5", align="right")
    Column(name='P@5', align='right', latex=None, style=None)
    """

    name: str
    align: Align = "left"
    latex: str | None = None
    style: str | None = None


@dataclass(frozen=True)
class Cell:
    """A cell of a :class:`DisplayTable`: its text and what a format may show of it.

    Parameters
    ----------
    text : str
        The cell's text (escaped for every format).
    strong : bool
        Emphasis (the best value of a column): bold in Markdown, LaTeX and on the terminal.
    marks : str
        Significance markers, shown as a superscript.
    note : str
        Secondary text, e.g. a confidence interval: dim on the terminal, after the value in
        text and Markdown, in small type in LaTeX.

    Examples
    --------
    >>> from assay.report import Cell, Column, DisplayTable, to_markdown
    >>> cell = Cell("0.5000", strong=True, marks="*", note="[0.40, 0.60]")
    >>> print(to_markdown(DisplayTable([Column("P@5")], [[cell]])), end="")
    | P@5 |
    |---|
    | **0.5000**<sup>\\*</sup> \\[0.40, 0.60\\] |
    """

    text: str
    strong: bool = False
    marks: str = ""
    note: str = ""


@dataclass(frozen=True)
class DisplayTable:
    """A table for people: columns, rows of cells, title, caption and legend.

    One model rendered by :func:`to_markdown`, :func:`to_latex`, :func:`to_rich` and
    :func:`to_text` (and the HTML report). Nothing is cropped: on a narrow terminal the table
    is transposed or put in long form (:func:`fit`).

    Parameters
    ----------
    columns : sequence of Column
        The columns, in order.
    rows : sequence of sequences of Cell or str
        One sequence of cells per row, one cell per column (a ``str`` is a plain cell).
    title : str
        Shown above the table.
    caption, legend : str
        Shown after the table by every format (a paragraph after the Markdown table, ``%``
        comment lines after the LaTeX one).
    sections : frozenset of int
        Indices of the rows followed by a rule on the terminal.
    keys : int
        How many first columns label a row (a run; a run and a query); the others hold values.
    pivot : str
        What the value columns are (``"metric"``): a table with one key column and a pivot can
        be transposed to fit a narrow terminal.
    wrap : bool
        A table of prose columns (the metric catalogue): on a terminal its cells wrap, and
        when its columns cannot all wrap within the width it is shown in long form (one
        field per line, the prose wrapped), never cropped.

    Examples
    --------
    >>> from assay.report import Cell, Column, DisplayTable, to_text
    >>> table = DisplayTable(
    ...     [Column("run"), Column("P@5", align="right")],
    ...     [["bm25", Cell("0.5000", strong=True)], ["dense", "0.4000"]],
    ...     title="Runs",
    ... )
    >>> print(to_text(table), end="")
    Runs
    run       P@5
    -----  ------
    bm25   0.5000
    dense  0.4000
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


def _boxed(widths: list[int]) -> int:
    """Terminal columns of a boxed table whose columns hold ``widths`` characters: each
    column's padding and rule ("| x "), and the closing rule."""
    return sum(widths) + 3 * len(widths) + 1


def natural_width(table: DisplayTable) -> int:
    """Columns needed to show ``table`` unwrapped as a boxed terminal table."""
    body = table.cells()
    widths = [
        max([len(escape.terminal(c.name)), *(len(_shown(row[j])) for row in body)])
        for j, c in enumerate(table.columns)
    ]
    return _boxed(widths)


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
    each group), the value column's name, the value. A table of prose (``wrap``) keeps its
    values left-aligned and leaves out its empty cells."""
    keys = list(table.columns[: table.keys])
    align: Align = "left" if table.wrap else "right"
    columns = [*keys, Column(table.pivot or "column"), Column("value", align=align)]
    rows: list[list[Cell | str]] = []
    sections = set()
    values = [(j, c) for j, c in enumerate(table.columns) if j >= table.keys]
    for row in table.cells():
        shown = [(j, c) for j, c in values if not (table.wrap and not row[j].text.strip())]
        for n, (j, c) in enumerate(shown):
            label = row[: table.keys] if n == 0 else [Cell("")] * table.keys
            rows.append([*label, Cell(c.name), row[j]])
        sections.add(len(rows) - 1)
    return replace(table, columns=columns, rows=rows, sections=frozenset(sections), pivot="")


#: The narrowest a prose column of a ``wrap`` table may be wrapped to and stay readable.
PROSE_WIDTH = 30


def wrapped_width(table: DisplayTable) -> int:
    """Columns needed to show a ``wrap`` table boxed with its cells wrapped: the key columns
    whole, the others as wide as their longest word (at most :data:`PROSE_WIDTH`), the last
    (the prose) at least :data:`PROSE_WIDTH`."""
    body = table.cells()
    widths = []
    for j, c in enumerate(table.columns):
        cells = [_shown(row[j]) for row in body]
        if j < table.keys:
            widths.append(max([len(escape.terminal(c.name)), *map(len, cells)]))
            continue
        words = [len(w) for cell in cells for w in cell.split()]
        widest = min(max([len(escape.terminal(c.name)), *words]), PROSE_WIDTH)
        widths.append(max(widest, PROSE_WIDTH) if j == len(table.columns) - 1 else widest)
    return _boxed(widths)


def fit(table: DisplayTable, width: int | None) -> DisplayTable:
    """``table`` laid out to fit ``width`` columns: as it is, transposed, or in long form. A
    ``wrap`` table keeps its layout while its cells can wrap within ``width``, else it is
    shown in long form (its prose wraps in the value column)."""
    if width is None or len(table.columns) <= table.keys + 1:
        return table
    if table.wrap:
        return table if wrapped_width(table) <= width else long_form(table)
    if natural_width(table) <= width:
        return table
    if table.pivot and table.keys == 1:
        flipped = transpose(table)
        if natural_width(flipped) <= width:
            return flipped
    return long_form(table)


# ---------------------------------------------------------------- Markdown


def to_markdown(table: DisplayTable) -> str:
    """A table as a Markdown pipe table.

    Strong cells are ``**bold**``, marks ``<sup>superscripts</sup>``; the title is a bold line
    above, the caption and legend paragraphs after. Text from the data is escaped
    (:func:`assay.report.escape.markdown`).

    Parameters
    ----------
    table : DisplayTable
        The table.

    Returns
    -------
    str
        The Markdown text, ending with a newline.

    Examples
    --------
    >>> from assay.report import Column, DisplayTable, to_markdown
    >>> table = DisplayTable([Column("run"), Column("P@5", align="right")], [["bm25", "0.5"]])
    >>> print(to_markdown(table), end="")
    | run | P@5 |
    |---|---:|
    | bm25 | 0.5 |
    """
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
    """A table as a LaTeX booktabs ``tabular``.

    Strong cells are ``\\textbf``, marks ``$^{...}$``; the title, caption and legend are
    ``%`` comment lines (escaped, so nothing in them can end the comment). Headers are the
    columns' ``latex`` when it is one of :data:`LATEX_HEADERS`, else the escaped name.

    Parameters
    ----------
    table : DisplayTable
        The table.

    Returns
    -------
    str
        The LaTeX source (needs ``\\usepackage{booktabs}``), ending with a newline.

    Examples
    --------
    >>> from assay.report import Cell, Column, DisplayTable, to_latex
    >>> table = DisplayTable(
    ...     [Column("run", latex="Run"), Column("P@5", align="right")],
    ...     [["bm_25", Cell("0.5", strong=True)]],
    ... )
    >>> print(to_latex(table), end="")
    \\begin{tabular}{lr}
    \\toprule
    Run & P@5 \\\\
    \\midrule
    bm\\_25 & \\textbf{0.5} \\\\
    \\bottomrule
    \\end{tabular}
    """
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


def to_rich(table: DisplayTable, width: int | None = None) -> RichTable:
    """A table as a ``rich`` table for the terminal.

    Laid out for ``width`` columns (:func:`fit`: as it is, transposed or in long form):
    strong cells bold green, notes dim, marks bold (red for ▼); long text wraps, nothing is
    cropped. Imports rich.

    Parameters
    ----------
    table : DisplayTable
        The table.
    width : int, optional
        The terminal's width in columns (``None``: the table's own layout).

    Returns
    -------
    rich.table.Table
        The renderable (``rich.console.Console().print(...)`` shows it).

    Examples
    --------
    >>> from assay.report import Column, DisplayTable, to_rich
    >>> table = DisplayTable([Column("run"), Column("P@5", align="right")], [["bm25", "0.5"]])
    >>> rendered = to_rich(table, width=80)
    >>> type(rendered).__name__, rendered.row_count
    ('Table', 1)
    """
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
    """A table as plain text.

    Laid out for ``width`` columns (:func:`fit`): columns padded to their widest cell,
    separated by two spaces, a dashed rule under the header; marks right after the text,
    notes after them; then the caption and the legend.

    Parameters
    ----------
    table : DisplayTable
        The table.
    width : int, optional
        The width to fit in columns (``None``: the table's own layout).

    Returns
    -------
    str
        The text, ending with a newline.

    Examples
    --------
    >>> from assay.report import Cell, Column, DisplayTable, to_text
    >>> table = DisplayTable(
    ...     [Column("run"), Column("P@5", align="right")],
    ...     [["bm25", Cell("0.5", marks="*", note="[0.4, 0.6]")]],
    ...     legend="* significant",
    ... )
    >>> print(to_text(table), end="")
    run               P@5
    ----  ---------------
    bm25  0.5* [0.4, 0.6]
    * significant
    """
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
