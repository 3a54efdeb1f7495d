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
    """A result's records and display table.

    ``columns`` are the TSV/CSV columns (``tsv_header``: TSV starts with them too); JSON
    writes ``{key: records, **document}``.
    """

    table: DisplayTable
    records: Sequence[Mapping[str, Any]]
    columns: Sequence[str]
    key: str = "results"
    document: Mapping[str, Any] = field(default_factory=dict)
    tsv_header: bool = False

    def render(self, fmt: OutputFormat) -> str:
        """The text of ``fmt``; ``"table"`` is the plain-text table."""
        fmt = choice(fmt, OutputFormat, "format")
        if fmt == "table":
            return to_text(self.table)
        if fmt == "markdown":
            return to_markdown(self.table)
        if fmt == "latex":
            return to_latex(self.table)
        return render_records(
            self.records,
            fmt,
            columns=self.columns,
            tsv_header=self.tsv_header,
            key=self.key,
            document=self.document,
        )

    def rich(self) -> Any:
        """The display table as a ``rich.table.Table`` (for a terminal)."""
        return to_rich(self.table)
