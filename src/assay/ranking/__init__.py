"""The ranking core's declarations and renderers: the ranking metrics
(:mod:`~assay.ranking.measures`, registered with :mod:`assay.metrics`), the reports of an
evaluation and a comparison (:mod:`~assay.ranking.reports`), their HTML report documents
(:mod:`~assay.ranking.sections`) and reading a test collection from files
(:mod:`~assay.ranking.collection`: :func:`evaluate_files`, :func:`compare_files`), and
several runs per system (:mod:`~assay.ranking.seed_comparison`: :class:`SeedComparison`,
the result of :func:`assay.compare_seeds`; :mod:`~assay.ranking.seed_scores`:
:func:`read_seed_scores`).

The results and the functions that make them are the ranking core's top-level modules:
:func:`assay.evaluate` (:mod:`assay.evaluation`), :func:`assay.compare`
(:mod:`assay.comparison`), :class:`~assay.results.Results` and
:class:`~assay.results.Comparison` (:mod:`assay.results`). Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    # several runs per system (seeds): the result of assay.compare_seeds, and the score table
    "SEED_COLUMNS": "seed_comparison",
    "SeedComparison": "seed_comparison",
    "read_seed_scores": "seed_scores",
}

if TYPE_CHECKING:  # what mypy and editors see; at run time the names load on first use
    from .collection import compare_files as compare_files
    from .collection import evaluate_files as evaluate_files
    from .collection import load_collection as load_collection
    from .collection import read_collection as read_collection
    from .reports import RESULTS_COLUMNS as RESULTS_COLUMNS
    from .reports import comparison_legend as comparison_legend
    from .reports import comparison_report as comparison_report
    from .reports import results_report as results_report
    from .sections import MAX_DIFF_RUNS as MAX_DIFF_RUNS
    from .sections import MAX_PANELS as MAX_PANELS
    from .sections import comparison_document as comparison_document
    from .sections import differences as differences
    from .sections import distributions as distributions
    from .sections import paired_differences as paired_differences
    from .sections import per_query_sections as per_query_sections
    from .sections import pr_curves as pr_curves
    from .sections import results_document as results_document
    from .seed_comparison import SEED_COLUMNS as SEED_COLUMNS
    from .seed_comparison import SeedComparison as SeedComparison
    from .seed_scores import read_seed_scores as read_seed_scores

_NAMES = LazyNames(__name__, globals(), _LAZY)

__getattr__ = _NAMES.get
__dir__ = _NAMES.listing

__all__ = list(_LAZY)
