"""The ranking core's declarations and renderers: the ranking metrics
(:mod:`~assay.ranking.measures`, registered with :mod:`assay.metrics`), the reports of an
evaluation and a comparison (:mod:`~assay.ranking.reports`), their HTML report documents
(:mod:`~assay.ranking.sections`) and reading a test collection from files
(:mod:`~assay.ranking.collection`: :func:`evaluate_files`, :func:`compare_files`).

The results and the functions that make them are the ranking core's top-level modules:
:func:`assay.evaluate` (:mod:`assay.evaluation`), :func:`assay.compare`
(:mod:`assay.comparison`), :class:`~assay.results.Results` and
:class:`~assay.results.Comparison` (:mod:`assay.results`). Names load on first use.
"""

from __future__ import annotations

from .._lazy import LazyNames

_LAZY = {
    # reports (every output format)
    "RESULTS_COLUMNS": "reports",
    "comparison_legend": "reports",
    "comparison_report": "reports",
    "results_report": "reports",
    # HTML report documents
    "MAX_DIFF_RUNS": "sections",
    "MAX_PANELS": "sections",
    "comparison_document": "sections",
    "differences": "sections",
    "distributions": "sections",
    "paired_differences": "sections",
    "per_query_sections": "sections",
    "pr_curves": "sections",
    "results_document": "sections",
    # test collections read from files
    "compare_files": "collection",
    "evaluate_files": "collection",
    "load_collection": "collection",
    "read_collection": "collection",
}

_NAMES = LazyNames(__name__, globals(), _LAZY)

__getattr__ = _NAMES.get
__dir__ = _NAMES.listing

__all__ = list(_LAZY)
