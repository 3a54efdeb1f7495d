"""Regression: error measures and goodness of fit between true values and predictions.

Every measure takes ``y_true`` and ``y_pred`` (1-D sequences of real numbers of the same
length n ≥ 1) positionally and its options keyword-only, and is declared in the metric
registry (``assay metrics``, ``docs/metrics.md``). The values are scikit-learn's (its
``sklearn.metrics`` functions of the same names, single output) except where stated.

Conventions (documented where they apply; names follow ``docs/parameters.md``):

- **NaN and infinities** in ``y_true`` or ``y_pred`` are an :class:`~assay.errors.InputError`
  naming the array, the position and the count; nothing is dropped. Length mismatches and
  empty input are :class:`~assay.errors.InputError` / :class:`~assay.errors.EmptyInputError`.
- **Constant targets** (``constant_target``, for :func:`r2` and :func:`explained_variance`,
  whose denominator is the variance of ``y_true``): ``"finite"`` (default, scikit-learn's
  ``force_finite=True``) gives 1.0 for a perfect prediction (zero numerator) and 0.0
  otherwise; ``"nan"`` gives NaN; ``"error"`` raises :class:`~assay.errors.InputError`.
  ``y_true`` counts as constant when all its values are equal (checked exactly) or its sum
  of squared deviations is 0 in floating point. scikit-learn only checks the latter, so for
  equal values whose float mean is inexact (``[0.1, 0.1, 0.1]``) it divides by a
  rounding-error variance (R² of -1e30 and the like); assay applies the rule.
- **Zero targets** (``zero_target``, for :func:`mape`, whose terms divide by |y_true|):
  ``"error"`` (default) raises :class:`~assay.errors.InputError` naming the first zero
  target; ``"eps"`` divides every term by max(|y|, ε), ε the float64 machine epsilon
  (scikit-learn's rule: a zero target gives a huge but finite term, and targets smaller
  than ε are clamped too); ``"nan"`` gives NaN; ``"skip"`` averages over the items with a
  non-zero target only (NaN when every target is zero). A term can overflow to infinity
  (a target of 1e-300): the value is then inf, as it is mathematically that large.
- MAPE is a fraction (0.25 is 25 %), as scikit-learn's.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._arrays import finite_array, same_length
from ..errors import InputError
from ..metrics.registry import FROM_SIGNATURE, Param, Peer, measure, one_of
from .options import ConstantTarget, ZeroTarget

__all__ = [
    "explained_variance",
    "mae",
    "mape",
    "max_error",
    "median_absolute_error",
    "mse",
    "r2",
    "rmse",
]

FAMILY = "regression"
FloatArray = NDArray[np.float64]

_error_measure = functools.partial(
    measure, family=FAMILY, input="values", bounds=(0.0, None), higher_is_better=False
)
_fit_measure = functools.partial(measure, family=FAMILY, input="values", bounds=(None, 1.0))

CONSTANT_TARGET = Param(
    "constant_target",
    FROM_SIGNATURE,
    one_of("constant_target", ConstantTarget),
    "value when y_true is constant: finite (1 for a perfect prediction, else 0; "
    "scikit-learn's force_finite), nan, or error",
)
ZERO_TARGET = Param(
    "zero_target",
    FROM_SIGNATURE,
    one_of("zero_target", ZeroTarget),
    "rule for zero targets: error, eps (divide by max(|y|, eps), scikit-learn), nan, "
    "or skip (average over non-zero targets)",
)


# ---------------------------------------------------------------- input checks


def as_values(values: ArrayLike, name: str) -> FloatArray:
    """``values`` as a 1-D float64 array of finite numbers, or an InputError naming ``name``."""
    return finite_array(values, name, purpose="regression measures")


def check_pair(y_true: ArrayLike, y_pred: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Two finite 1-D float arrays of the same length n ≥ 1."""
    t = as_values(y_true, "y_true")
    p = as_values(y_pred, "y_pred")
    same_length(("y_true", t), ("y_pred", p))
    return t, p


def check_squared_errors(t: FloatArray, p: FloatArray, name: str = "y_pred") -> None:
    """An InputError when a squared error (y - ŷ)² overflows float64: the reports resample
    the per-item losses, and an infinite loss has no interval."""
    with np.errstate(over="ignore", invalid="ignore"):
        squares = (t - p) ** 2
    bad = np.flatnonzero(~np.isfinite(squares))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"{name}[{i}]: the squared error of y_true {float(t[i])!r} and {name} {float(p[i])!r} overflows "
            f"float64 ({bad.size} such item(s)); rescale the values"
        )


def is_constant(values: FloatArray) -> bool:
    """All values equal (exactly)."""
    return bool(np.all(values == values[0]))


# ---------------------------------------------------------------- error measures


@_error_measure(
    aliases=("mean_squared_error",),
    peers=(Peer("scikit-learn", "sklearn.metrics.mean_squared_error"),),
)
def mse(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean squared error: (1/n) Σ (y_i - ŷ_i)².

    Reference: Hyndman & Koehler (2006), "Another look at measures of forecast accuracy",
    International Journal of Forecasting 22(4).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.

    Returns
    -------
    float
        The MSE.

    Examples
    --------
    >>> from assay.regression import mse
    >>> round(mse([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    0.375
    """
    t, p = check_pair(y_true, y_pred)
    return float(np.mean((t - p) ** 2))


@_error_measure(
    aliases=("root_mean_squared_error",),
    peers=(Peer("scikit-learn", "sklearn.metrics.root_mean_squared_error"),),
)
def rmse(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Root mean squared error: sqrt((1/n) Σ (y_i - ŷ_i)²), in the unit of y.

    Reference: Hyndman & Koehler (2006), "Another look at measures of forecast accuracy",
    International Journal of Forecasting 22(4).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.

    Returns
    -------
    float
        The RMSE.

    Examples
    --------
    >>> from assay.regression import rmse
    >>> round(rmse([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    0.6124
    """
    return math.sqrt(mse(y_true, y_pred))


@_error_measure(
    aliases=("mean_absolute_error",),
    peers=(Peer("scikit-learn", "sklearn.metrics.mean_absolute_error"),),
)
def mae(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean absolute error: (1/n) Σ abs(y_i - ŷ_i).

    Reference: Hyndman & Koehler (2006), "Another look at measures of forecast accuracy",
    International Journal of Forecasting 22(4).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.

    Returns
    -------
    float
        The MAE.

    Examples
    --------
    >>> from assay.regression import mae
    >>> round(mae([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    0.5
    """
    t, p = check_pair(y_true, y_pred)
    return float(np.mean(np.abs(t - p)))


@_error_measure(
    aliases=("medae",), peers=(Peer("scikit-learn", "sklearn.metrics.median_absolute_error"),)
)
def median_absolute_error(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Median absolute error: median of abs(y_i - ŷ_i) (the mean of the two middle values for
    even n), robust to outliers.

    Reference: Hyndman & Koehler (2006), "Another look at measures of forecast accuracy",
    International Journal of Forecasting 22(4).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.

    Returns
    -------
    float
        The median absolute error.

    Examples
    --------
    >>> from assay.regression import median_absolute_error
    >>> round(median_absolute_error([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    0.5
    """
    t, p = check_pair(y_true, y_pred)
    return float(np.median(np.abs(t - p)))


@_error_measure(peers=(Peer("scikit-learn", "sklearn.metrics.max_error"),))
def max_error(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Maximum absolute error: max abs(y_i - ŷ_i), the worst case.

    Reference: scikit-learn's max_error (sklearn.metrics).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.

    Returns
    -------
    float
        The max error.

    Examples
    --------
    >>> from assay.regression import max_error
    >>> round(max_error([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    1.0
    """
    t, p = check_pair(y_true, y_pred)
    return float(np.max(np.abs(t - p)))


def percentage_errors(t: FloatArray, p: FloatArray, zero_target: str) -> FloatArray:
    """|y - ŷ| / |y| per item under the ``zero_target`` rule ("eps" clamps every |y| to at
    least ε, as scikit-learn; otherwise a zero target's term is NaN, after "error" has had
    its say)."""
    if zero_target == "eps":
        return np.abs(p - t) / np.maximum(np.abs(t), np.finfo(np.float64).eps)
    zero = t == 0
    if zero.any() and zero_target == "error":
        i = int(np.flatnonzero(zero)[0])
        raise InputError(
            f"y_true[{i}] is 0 and MAPE divides by |y_true| ({int(zero.sum())} zero "
            "target(s)); choose a rule with zero_target (--zero-target): 'eps' "
            "(scikit-learn's), 'nan' or 'skip'"
        )
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out = np.abs(p - t) / np.abs(t)
    out[zero] = np.nan
    return out


@_error_measure(
    params=(ZERO_TARGET,),
    aliases=("mean_absolute_percentage_error",),
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.mean_absolute_percentage_error",
            "Always divides by max(|y|, eps): assay's zero_target='eps' (assay's default raises "
            "on a zero target).",
        ),
    ),
)
def mape(y_true: ArrayLike, y_pred: ArrayLike, *, zero_target: ZeroTarget = "error") -> float:
    """Mean absolute percentage error: (1/n) Σ abs(y_i - ŷ_i) / abs(y_i), as a fraction. A zero
    target makes a term undefined: ``zero_target`` says what happens (see the module
    docstring; "eps" is scikit-learn's ``mean_absolute_percentage_error``).

    Reference: Hyndman & Koehler (2006), "Another look at measures of forecast accuracy",
    International Journal of Forecasting 22(4).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.
    zero_target : {"error", "eps", "nan", "skip"}
        What a zero target does (see the module documentation).

    Returns
    -------
    float
        The MAPE (a fraction).

    Examples
    --------
    >>> from assay.regression import mape
    >>> round(mape([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    0.3274
    """
    t, p = check_pair(y_true, y_pred)
    ape = percentage_errors(t, p, zero_target)
    if zero_target == "nan" and np.isnan(ape).any():
        return math.nan
    if zero_target == "skip":
        kept = ape[t != 0]
        return float(np.mean(kept)) if kept.size else math.nan
    return float(np.mean(ape))


# ---------------------------------------------------------------- goodness of fit


def _constant_value(perfect: bool, constant_target: str, what: str) -> float:
    if constant_target == "error":
        raise InputError(
            f"y_true is constant, so {what} is undefined (its denominator, the variance of "
            "y_true, is 0); pass constant_target='finite' or 'nan' to get a value"
        )
    if constant_target == "nan":
        return math.nan
    return 1.0 if perfect else 0.0


@_fit_measure(
    params=(CONSTANT_TARGET,),
    aliases=("r2_score", "r_squared"),
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.r2_score",
            "A constant target whose float mean is inexact ([0.1, 0.1, 0.1]) is divided by a "
            "rounding-error variance there; assay applies constant_target.",
        ),
    ),
)
def r2(
    y_true: ArrayLike, y_pred: ArrayLike, *, constant_target: ConstantTarget = "finite"
) -> float:
    """Coefficient of determination R² = 1 - Σ (y_i - ŷ_i)² / Σ (y_i - ȳ)²: 1 for a perfect
    prediction, 0 for predicting the mean, unbounded below. Constant ``y_true``: see
    ``constant_target``.

    Reference: Kvålseth (1985), "Cautionary note about R²", The American Statistician 39(4).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.
    constant_target : {"finite", "nan", "error"}
        The value for a constant ``y_true`` (see the module documentation).

    Returns
    -------
    float
        The R².

    Examples
    --------
    >>> from assay.regression import r2
    >>> round(r2([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    0.9486
    """
    t, p = check_pair(y_true, y_pred)
    numerator = float(np.sum((t - p) ** 2))
    denominator = float(np.sum((t - np.mean(t)) ** 2))
    if denominator == 0.0 or is_constant(t):
        return _constant_value(numerator == 0.0, constant_target, "R²")
    return 1.0 - numerator / denominator


@_fit_measure(
    params=(CONSTANT_TARGET,),
    aliases=("explained_variance_score",),
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.explained_variance_score",
            "A constant target whose float mean is inexact is divided by a rounding-error "
            "variance there; assay applies constant_target.",
        ),
    ),
)
def explained_variance(
    y_true: ArrayLike, y_pred: ArrayLike, *, constant_target: ConstantTarget = "finite"
) -> float:
    """Explained variance 1 - Var(y - ŷ) / Var(y) (population variances): R² without the
    penalty for a constant bias. Constant ``y_true``: see ``constant_target`` (perfect
    means a constant residual).

    Reference: scikit-learn's explained_variance_score (sklearn.metrics).

    Parameters
    ----------
    y_true : array_like
        The true values (finite real numbers).
    y_pred : array_like
        The predictions, aligned with ``y_true``.
    constant_target : {"finite", "nan", "error"}
        The value for a constant ``y_true`` (see the module documentation).

    Returns
    -------
    float
        The explained variance.

    Examples
    --------
    >>> from assay.regression import explained_variance
    >>> round(explained_variance([3.0, -0.5, 2.0, 7.0], [2.5, 0.0, 2.0, 8.0]), 4)
    0.9572
    """
    t, p = check_pair(y_true, y_pred)
    residual = t - p
    numerator = float(np.mean((residual - np.mean(residual)) ** 2))
    denominator = float(np.mean((t - np.mean(t)) ** 2))
    if denominator == 0.0 or is_constant(t):
        return _constant_value(numerator == 0.0, constant_target, "explained variance")
    return 1.0 - numerator / denominator
