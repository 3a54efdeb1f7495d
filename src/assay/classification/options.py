"""The option types of the classification family (``Literal``\\ s: the CLI imports this module
at start-up, so it imports nothing but ``typing``). Their validators are
:mod:`assay._options`'; ``average`` and ``zero_division`` are shared with the other label
families and defined there (re-exported here)."""

from __future__ import annotations

from typing import Literal

from .._options import Average, ZeroDivision

__all__ = ["Average", "Degenerate", "Normalize", "SBAAbsent", "ZeroDivision"]

#: MCC with a zero denominator: ``zero`` (scikit-learn), ``limit`` (Chicco & Jurman), ``nan``.
Degenerate = Literal["zero", "limit", "nan"]
#: What a confusion matrix is normalised over: true labels (rows), predicted ones, all items.
Normalize = Literal["true", "pred", "all"]
#: SBA of a class absent from both labellings: Gösgens et al.'s convention, or NaN.
SBAAbsent = Literal["gosgens", "nan"]
