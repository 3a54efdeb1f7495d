"""A :class:`Report`: one result ready for every output format.

A report pairs the two views of a result: its records (machine formats: TSV, CSV, JSON
Lines, JSON) and its display table (people: terminal table, plain text, Markdown, LaTeX).
:meth:`Report.render` gives the text of any format; :meth:`Report.rich` the terminal table.
Nothing here prints: the CLI's presenter decides where the text goes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .._options import OutputFormat, choice
from .records import render_records
from .table import DisplayTable, to_latex, to_markdown, to_rich, to_text

if TYPE_CHECKING:
    from rich.console import Group

__all__ = ["Report"]


@dataclass(frozen=True)
class Report:
    """A result's records and display tables, ready for every output format.

    Parameters
    ----------
    table : DisplayTable
        The main table.
    records : sequence of mappings
        The machine view: flat rows of plain values (:func:`render_records`).
    columns : sequence of str
        The TSV and CSV columns (both start with a header line).
    key : str
        The JSON key of the records: JSON writes ``{key: records, **document}``.
    document : mapping
        More JSON data written next to the records (provenance, settings).
    more : sequence of DisplayTable
        Further tables (a comparison's pairwise differences), shown after ``table`` by every
        display format.

    Examples
    --------
    >>> from assay.report import Column, DisplayTable, Report
    >>> table = DisplayTable([Column("metric"), Column("value", align="right")], [["nmi", "0.5000"]])
    >>> report = Report(table, [{"metric": "nmi", "value": 0.5}], ["metric", "value"])
    >>> print(report.render("table"), end="")
    metric   value
    ------  ------
    nmi     0.5000
    >>> print(report.render("json"), end="")
    {
      "results": [
        {
          "metric": "nmi",
          "value": 0.5
        }
      ]
    }
    """

    table: DisplayTable
    records: Sequence[Mapping[str, object]]
    columns: Sequence[str]
    key: str = "results"
    document: Mapping[str, object] = field(default_factory=dict)
    more: Sequence[DisplayTable] = ()

    @property
    def tables(self) -> list[DisplayTable]:
        """The main table, then the others (``more``)."""
        return [self.table, *self.more]

    def render(self, fmt: OutputFormat, *, width: int | None = None) -> str:
        """The text of one output format.

        Parameters
        ----------
        fmt : {"table", "markdown", "latex", "tsv", "csv", "jsonl", "json"}
            The format: ``"table"`` is the plain-text table; the last four are the records'.
        width : int, optional
            The width in columns the plain-text table is laid out for.

        Returns
        -------
        str
            The text, ending with a newline.
        """
        fmt = choice(fmt, OutputFormat, "format")
        if fmt == "table":
            return "\n".join(to_text(t, width) for t in self.tables)
        if fmt == "markdown":
            return "\n".join(to_markdown(t) for t in self.tables)
        if fmt == "latex":
            return "\n".join(to_latex(t) for t in self.tables)
        return render_records(
            self.records, fmt, columns=self.columns, key=self.key, document=self.document
        )

    def rich(self, width: int | None = None) -> Group:
        """The display tables as one rich renderable laid out for ``width`` columns.

        Parameters
        ----------
        width : int, optional
            The terminal's width in columns.

        Returns
        -------
        rich.console.Group
            The tables (:func:`~assay.report.to_rich`), one after the other.
        """
        from rich.console import Group

        return Group(*(to_rich(t, width) for t in self.tables))
