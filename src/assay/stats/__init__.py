"""Statistics for comparing systems: paired tests, bootstrap confidence intervals, multiple
comparison corrections and correlations. Every random procedure takes a ``seed`` and gives the
same result for the same seed whatever the number of threads."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ._result import TestResult

_LAZY = {
    # paired tests, bootstrap, corrections (module _tests)
    "randomization_test": "_tests",
    "ttest": "_tests",
    "wilcoxon": "_tests",
    "sign_test": "_tests",
    "paired_bootstrap_test": "_tests",
    "bootstrap_ci": "_tests",
    "tukey_hsd": "_tests",
    "stratified_shuffling_test": "_tests",
    "paired_pvalues": "_tests",
    "bootstrap_mean_ci": "_tests",
    "correct": "_tests",
    "cohens_d_paired": "_tests",
    # correlations (module _correlation)
    "pearson": "_correlation",
    "spearman": "_correlation",
    "kendall": "_correlation",
    "tau_ap": "_correlation",
    "system_rank_correlation": "_correlation",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'assay.stats' has no attribute {name!r}")


__all__ = ["TestResult", *_LAZY]
