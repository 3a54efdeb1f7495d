"""Pure renderers of results: text formats, Markdown, LaTeX and the terminal.

Nothing here prints or exits; functions return strings (or a ``rich`` renderable for the
terminal), and the CLI decides where they go. Three views of a result:

- **records** — flat rows of plain values, rendered by :func:`render_records` as TSV, CSV,
  JSON Lines or JSON (values by :mod:`~assay.report.values`: full precision, counts as
  integers, NaN as ``nan`` / ``null``);
- **report document** — plain JSON data (:mod:`~assay.report.document`: tables and plot
  specifications, with the records and provenance) built by :func:`any_document` (any
  result) or, with more options, :func:`results_document`,
  :func:`comparison_document`, :func:`experiment_document` and :func:`tables_document`,
  saved (``--save``) and rendered by :func:`to_html` as one self-contained HTML page with
  inline SVG plots (:mod:`~assay.report.plots`, matplotlib);
- **display table** — a :class:`DisplayTable` of :class:`Column` and :class:`Cell` (title,
  caption, legend, emphasis, significance marks, notes) rendered by :func:`to_markdown`,
  :func:`to_latex`, :func:`to_rich` or :func:`to_text`, each escaping text from the data for
  its format (:mod:`~assay.report.escape`).

A :class:`Report` pairs both for one result and renders any of the output formats
(:data:`OutputFormat`); :func:`results_report`, :func:`comparison_report`,
:func:`values_report`, :func:`consensus_report`,
:func:`generation_report`, :func:`regression_report`, :func:`tagging_report` (with
:func:`conlleval_text`, conlleval's own layout), the learning-to-rank reports
(:func:`experiment_report`, :func:`stats_report`, :func:`analysis_report`) and the
meta-evaluation reports (:mod:`~assay.report.meta`) build the reports of assay's results.
rich is imported only by :func:`to_rich` (and :func:`escape.rich`).

>>> from assay.report import Column, DisplayTable, to_markdown
>>> print(to_markdown(DisplayTable([Column("run"), Column("P@5", align="right")],
...                                [["a|b", "0.5000"]])), end="")
| run | P@5 |
|---|---:|
| a\\|b | 0.5000 |
"""

from .._options import OutputFormat
from . import escape
from .catalog import catalog_report, catalog_table
from .html import to_html
from .ltr import analysis_report, experiment_report, stats_report
from .meta import (
    assessors_report,
    discpower_report,
    rbo_report,
    repro_report,
    topicsize_report,
)
from .nlp import generation_report, regression_report
from .output import Report
from .ranking import comparison_legend, comparison_report, results_report
from .records import RecordFormat, render_records
from .reported import Reported
from .sections_ranking import comparison_document, experiment_document, results_document
from .sections_tasks import any_document, tables_document
from .table import Align, Cell, Column, DisplayTable, to_latex, to_markdown, to_rich, to_text
from .tagging import conlleval_text, tagging_report
from .tasks import consensus_report, values_report
from .values import count, json_value, plain, short

__all__ = [
    "Align",
    "Cell",
    "Column",
    "DisplayTable",
    "OutputFormat",
    "RecordFormat",
    "Report",
    "Reported",
    "analysis_report",
    "any_document",
    "assessors_report",
    "catalog_report",
    "catalog_table",
    "comparison_document",
    "comparison_legend",
    "comparison_report",
    "conlleval_text",
    "consensus_report",
    "count",
    "discpower_report",
    "escape",
    "experiment_document",
    "experiment_report",
    "generation_report",
    "json_value",
    "plain",
    "rbo_report",
    "regression_report",
    "render_records",
    "repro_report",
    "results_document",
    "results_report",
    "short",
    "stats_report",
    "tables_document",
    "tagging_report",
    "to_html",
    "to_latex",
    "to_markdown",
    "to_rich",
    "to_text",
    "topicsize_report",
    "values_report",
]

#: Names moved to their family's package: still resolved here, with a DeprecationWarning.
_MOVED = {
    "classification_document": "assay.classification",
    "confusion_table": "assay.classification",
    "labelled_report": "assay.classification",
}


def __getattr__(name: str) -> object:
    if name in _MOVED:
        import warnings
        from importlib import import_module

        home = _MOVED[name]
        warnings.warn(
            f"assay.report.{name} moved to {home}.{name}", DeprecationWarning, stacklevel=2
        )
        return getattr(import_module(home), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
