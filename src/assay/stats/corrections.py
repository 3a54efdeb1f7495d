"""Multiple-comparison corrections of p-values."""

from __future__ import annotations

from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from .._options import CORRECTION_ALIASES, Correction
from ..errors import InputError
from . import _checks as check
from ._checks import FloatArray

__all__ = ["correct"]


def correct(pvalues: ArrayLike, *, correction: Correction = "holm") -> FloatArray:
    """Adjust p-values for multiple comparisons; same shape and order as the input.

    With the m p-values sorted increasingly, p_(1) ≤ ... ≤ p_(m), ``correction``:

    - "bonferroni": min(1, m · p_i) (family-wise error rate);
    - "holm" (Holm 1979): p̃_(i) = max_{j ≤ i} min(1, (m - j + 1) · p_(j)) (FWER, uniformly
      more powerful than Bonferroni);
    - "bh" or its alias "fdr_bh" (Benjamini & Hochberg 1995):
      p̃_(i) = min_{j ≥ i} min(1, m / j · p_(j)) (false discovery rate, independent or
      positively dependent tests);
    - "none": unchanged.

    NaN p-values (an undefined test) stay NaN and are not counted in m. Equal to statsmodels'
    ``multipletests``.

    Parameters
    ----------
    pvalues : array_like
        p-values in [0, 1] (NaN allowed), of any shape; values outside [0, 1] raise
        :class:`~assay.errors.InputError`.
    correction : {"holm", "bonferroni", "bh", "fdr_bh", "none"}, default "holm"
        The correction.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values (float64), in the shape and order of ``pvalues``.

    Examples
    --------
    >>> from assay.stats import correct
    >>> print(correct([0.01, 0.04, 0.03, 0.2]).tolist())
    [0.04, 0.09, 0.09, 0.2]
    >>> print(correct([0.01, 0.04, 0.03, 0.2], correction="bh").round(4).tolist())
    [0.04, 0.0533, 0.0533, 0.2]
    """
    where = "correct"
    correction = check.option(correction, Correction, "correction", where, CORRECTION_ALIASES)
    try:
        p = np.array(pvalues, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: p-values must be numeric ({exc})") from None
    valid = ~np.isnan(p)
    if ((p[valid] < 0) | (p[valid] > 1)).any():
        raise InputError(f"{where}: p-values must lie in [0, 1]")
    flat = p.reshape(-1)
    keep = np.flatnonzero(valid.reshape(-1))
    if correction == "none" or keep.shape[0] == 0:
        return p
    flat[keep] = _adjusted(flat[keep], correction)
    return flat.reshape(p.shape)


def _adjusted(values: FloatArray, correction: str) -> FloatArray:
    """The adjusted values of the m valid p-values, in their order."""
    m = values.shape[0]
    if correction == "bonferroni":
        return cast(FloatArray, np.minimum(1.0, values * m))
    order = np.argsort(values, kind="stable")
    ranked = values[order]
    rank = np.arange(1, m + 1, dtype=np.float64)
    if correction == "holm":
        steps = np.maximum.accumulate(np.minimum(1.0, (m - rank + 1.0) * ranked))
    else:  # bh
        steps = np.minimum.accumulate(np.minimum(1.0, m / rank * ranked)[::-1])[::-1]
    adjusted = np.empty(m, dtype=np.float64)
    adjusted[order] = steps
    return adjusted
