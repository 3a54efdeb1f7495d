"""The rendering engine of assay's results: text formats, Markdown, LaTeX, the terminal and HTML.

Nothing here prints or exits; functions return strings (or a ``rich`` renderable for the
terminal), and the CLI decides where they go. The engine knows no family: each result builds
its own report by subclassing :class:`Reported` and defining ``report()`` (the ranking core's
:class:`~assay.Results` and :class:`~assay.Comparison`, and every family's results, in their
own packages: :mod:`assay.ranking`, :mod:`assay.classification`, :mod:`assay.fusion`, ...).
Three views of a result:

- **records** — flat rows of plain values, rendered by :func:`render_records` as TSV, CSV,
  JSON Lines or JSON (values by :func:`plain`, :func:`short`, :func:`json_value` and
  :func:`count`: full precision, counts as integers, NaN as ``nan`` / ``null``);
- **display table** — a :class:`DisplayTable` of :class:`Column` and :class:`Cell` (title,
  caption, legend, emphasis, significance marks, notes) rendered by :func:`to_markdown`,
  :func:`to_latex`, :func:`to_rich` or :func:`to_text`, each escaping text from the data for
  its format (:mod:`~assay.report.escape`);
- **report document** — plain JSON data (:mod:`~assay.report.document`: tables and plot
  specifications, with the records and provenance): a result's ``document()``, or
  :func:`any_document` for any result, :func:`tables_document` for a report's tables; saved
  (``--save``) and rendered by :func:`to_html` as one self-contained HTML page with inline
  SVG plots (:mod:`~assay.report.plots`, matplotlib).

A :class:`Report` pairs the records and the tables of one result and renders any of the
output formats (:data:`OutputFormat`). Shared builders: :func:`values_report` (named values)
and the metric catalogue (:func:`catalog_report`, :func:`catalog_table`). rich is imported
only by :func:`to_rich` (and :func:`escape.rich`).

The family reports that used to live here (``results_report``, ``comparison_report``,
``consensus_report``, the tagging, regression, learning-to-rank and meta-evaluation reports,
...) moved to their families' packages; their old names still resolve from
``assay.report``, with a :class:`DeprecationWarning` naming the new home.

>>> from assay.report import Column, DisplayTable, to_markdown
>>> print(to_markdown(DisplayTable([Column("run"), Column("P@5", align="right")],
...                                [["a|b", "0.5000"]])), end="")
| run | P@5 |
|---|---:|
| a\\|b | 0.5000 |
"""

from typing import TYPE_CHECKING

from .._lazy import LazyNames
from . import escape as escape

#: Public names, by the submodule that defines them (loaded on first use: the ranking core
#: imports :class:`Reported`, and importing it should not load every renderer).
_LAZY = {
    "Align": "table",
    "Cell": "table",
    "Column": "table",
    "DisplayTable": "table",
    "to_latex": "table",
    "to_markdown": "table",
    "to_rich": "table",
    "to_text": "table",
    "RecordFormat": "records",
    "render_records": "records",
    "Report": "output",
    "Reported": "reported",
    "any_document": "sections_tasks",
    "tables_document": "sections_tasks",
    "catalog_report": "catalog",
    "catalog_table": "catalog",
    "values_report": "tasks",
    "PairedComparison": "paired",
    "PAIRED_COMPARISON_FIELDS": "paired",
    "count": "values",
    "json_value": "values",
    "plain": "values",
    "short": "values",
    "to_html": "html",
}

if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from assay._options import OutputFormat as OutputFormat

    from .catalog import catalog_report as catalog_report
    from .catalog import catalog_table as catalog_table
    from .html import to_html as to_html
    from .output import Report as Report
    from .paired import PAIRED_COMPARISON_FIELDS as PAIRED_COMPARISON_FIELDS
    from .paired import PairedComparison as PairedComparison
    from .records import RecordFormat as RecordFormat
    from .records import render_records as render_records
    from .reported import Reported as Reported
    from .sections_tasks import any_document as any_document
    from .sections_tasks import tables_document as tables_document
    from .table import Align as Align
    from .table import Cell as Cell
    from .table import Column as Column
    from .table import DisplayTable as DisplayTable
    from .table import to_latex as to_latex
    from .table import to_markdown as to_markdown
    from .table import to_rich as to_rich
    from .table import to_text as to_text
    from .tasks import values_report as values_report
    from .values import count as count
    from .values import json_value as json_value
    from .values import plain as plain
    from .values import short as short

#: Public names that moved to their family's package (``"module:name"`` when renamed there):
#: still resolved here, with a DeprecationWarning naming the new home.
_MOVED = {
    "analysis_report": "assay.ltr.report",
    "assessors_report": "assay.meta.report",
    "classification_document": "assay.classification",
    "comparison_document": "assay.ranking",
    "comparison_legend": "assay.ranking",
    "comparison_report": "assay.ranking",
    "confusion_table": "assay.classification",
    "conlleval_text": "assay.tagging",
    "consensus_report": "assay.fusion.report",
    "discpower_report": "assay.meta.report",
    "experiment_document": "assay.ltr.document",
    "experiment_report": "assay.ltr.report",
    "generation_report": "assay.generation",
    "labelled_report": "assay.classification",
    "rbo_report": "assay.meta.report",
    "regression_report": "assay.regression.render:models_report",
    "repro_report": "assay.meta.report",
    "results_document": "assay.ranking",
    "results_report": "assay.ranking",
    "stats_report": "assay.ltr.report",
    "tagging_report": "assay.tagging.tables:report_of",
    "topicsize_report": "assay.meta.report",
}

_NAMES = LazyNames(
    __name__,
    globals(),
    _LAZY,
    elsewhere={"OutputFormat": "assay._options"},
    moved=_MOVED,
)

__all__ = sorted([*_LAZY, "OutputFormat", "escape"])

__getattr__ = _NAMES.get
__dir__ = _NAMES.listing
