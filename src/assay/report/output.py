"""A :class:`Report`: one result ready for every output format.

A report pairs the two views of a result: its records (machine formats: TSV, CSV, JSON
Lines, JSON) and its display table (people: terminal table, plain text, Markdown, LaTeX).
:meth:`Report.render` gives the text of any format; :meth:`Report.rich` the terminal table.
Nothing here prints: the CLI's presenter decides where the text goes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._options import OutputFormat, choice
from .records import render_records
from .table import DisplayTable, to_latex, to_markdown, to_rich, to_text

__all__ = ["Report"]


@dataclass(frozen=True)
class Report:
    """A result's records and display tables.

    ``table`` is the main table; ``more`` holds further ones (a comparison's pairwise
    differences), shown after it by every display format. ``columns`` are the TSV/CSV
    columns (both start with a header line); JSON writes ``{key: records, **document}``.
    """

    table: DisplayTable
    records: Sequence[Mapping[str, Any]]
    columns: Sequence[str]
    key: str = "results"
    document: Mapping[str, Any] = field(default_factory=dict)
    more: Sequence[DisplayTable] = ()

    @property
    def tables(self) -> list[DisplayTable]:
        return [self.table, *self.more]

    def render(self, fmt: OutputFormat, *, width: int | None = None) -> str:
        """The text of ``fmt``; ``"table"`` is the plain-text table, laid out for ``width``
        columns when given."""
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

    def rich(self, width: int | None = None) -> Any:
        """The display tables as one rich renderable laid out for ``width`` columns."""
        from rich.console import Group

        return Group(*(to_rich(t, width) for t in self.tables))
