"""Pure renderers of results: text formats, Markdown, LaTeX and the terminal.

Nothing here prints or exits; functions return strings (or a ``rich`` renderable for the
terminal), and the CLI decides where they go. Two views of a result:

- **records** — flat rows of plain values, rendered by :func:`render_records` as TSV, CSV,
  JSON Lines or JSON (values by :mod:`~assay.report.values`: full precision, counts as
  integers, NaN as ``nan`` / ``null``);
- **display table** — a :class:`DisplayTable` of :class:`Column` and :class:`Cell` (title,
  caption, legend, emphasis, significance marks, notes) rendered by :func:`to_markdown`,
  :func:`to_latex`, :func:`to_rich` or :func:`to_text`, each escaping text from the data for
  its format (:mod:`~assay.report.escape`).

A :class:`Report` pairs both for one result and renders any of the output formats
(:data:`OutputFormat`); :func:`results_report`, :func:`comparison_report`,
:func:`values_report`, :func:`labelled_report`, :func:`consensus_report`,
:func:`generation_report`, :func:`regression_report`, :func:`experiment_report`,
:func:`stats_report` and :func:`analysis_report` build the reports of assay's results. rich is imported only by :func:`to_rich` (and :func:`escape.rich`).

>>> from assay.report import Column, DisplayTable, to_markdown
>>> print(to_markdown(DisplayTable([Column("run"), Column("P@5", align="right")],
...                                [["a|b", "0.5000"]])), end="")
| run | P@5 |
|---|---:|
| a\\|b | 0.5000 |
"""

from .._options import OutputFormat
from . import escape
from .catalog import catalog_table
from .ltr import analysis_report, experiment_report, stats_report
from .nlp import generation_report, regression_report
from .output import Report
from .ranking import comparison_legend, comparison_report, results_report
from .records import RecordFormat, render_records
from .table import Align, Cell, Column, DisplayTable, to_latex, to_markdown, to_rich, to_text
from .tasks import consensus_report, labelled_report, values_report
from .values import count, json_value, plain, short

__all__ = [
    "Align",
    "Cell",
    "Column",
    "DisplayTable",
    "OutputFormat",
    "RecordFormat",
    "Report",
    "analysis_report",
    "catalog_table",
    "comparison_legend",
    "comparison_report",
    "consensus_report",
    "count",
    "escape",
    "experiment_report",
    "generation_report",
    "json_value",
    "labelled_report",
    "plain",
    "regression_report",
    "render_records",
    "results_report",
    "short",
    "stats_report",
    "to_latex",
    "to_markdown",
    "to_rich",
    "to_text",
    "values_report",
]
