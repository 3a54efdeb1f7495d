"""The option types of the classification family (``Literal``\\ s: the CLI imports this module
at start-up, so it imports nothing but ``typing``). Their validators are
:mod:`assay._options`'; ``average`` and ``zero_division`` are shared with the other label
families and defined there (re-exported here)."""

from __future__ import annotations

from typing import Literal

from .._options import Average, McNemarMethod, ZeroDivision

__all__ = [
    "Average",
    "ClassificationTest",
    "Degenerate",
    "McNemarMethod",
    "Normalize",
    "SBAAbsent",
    "ZeroDivision",
]

#: The paired test of :func:`assay.classification.compare`: McNemar's on per-item correctness
#: (accuracy), the per-item tests of :func:`assay.stats.paired_pvalues` (accuracy), and the
#: two that resample items for any measure (``randomization``, ``bootstrap``).
ClassificationTest = Literal["mcnemar", "randomization", "bootstrap", "t", "wilcoxon", "sign"]

#: MCC with a zero denominator: ``zero`` (scikit-learn), ``limit`` (Chicco & Jurman), ``nan``.
Degenerate = Literal["zero", "limit", "nan"]
#: What a confusion matrix is normalised over: true labels (rows), predicted ones, all items.
Normalize = Literal["true", "pred", "all"]
#: SBA of a class absent from both labellings: Gösgens et al.'s convention, or NaN.
SBAAbsent = Literal["gosgens", "nan"]
