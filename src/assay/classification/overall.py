"""Classification: the measures of the whole labelling that are not per-class ratios —
balanced accuracy, the Matthews correlation coefficient (Gorodkin's R_K for more than two
classes) and the symmetric balanced accuracy. Conventions: :mod:`assay.classification.measures`.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ..metrics.labels import boolean, counts
from ..metrics.registry import FROM_SIGNATURE, Param, Peer, one_of
from .measures import _labels_measure
from .options import Degenerate, SBAAbsent

__all__ = ["balanced_accuracy", "mcc", "mcc_from_matrix", "sba"]


@_labels_measure(
    params=(Param("adjusted", FROM_SIGNATURE, boolean("adjusted"), "rescale so chance is 0"),),
    bounds=(-1.0, 1.0),
    peers=(Peer("scikit-learn", "sklearn.metrics.balanced_accuracy_score"),),
)
def balanced_accuracy(y_true: ArrayLike, y_pred: ArrayLike, *, adjusted: bool = False) -> float:
    """Balanced accuracy: the mean recall over the classes present in ``y_true``, (1/K) Σ_c
    TP_c / n_c (for two classes (TPR + TNR) / 2), in [0, 1]. Classes that are only predicted
    have no recall and are left out (as scikit-learn). ``adjusted=True`` rescales so that chance
    is 0: (score - 1/K) / (1 - 1/K), in [-1/(K-1), 1]; NaN for a single class.

    Reference: Brodersen, Ong, Stephan & Buhmann (2010), "The balanced accuracy and its
    posterior distribution", ICPR.

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    adjusted
        Rescale so that chance is 0.

    Returns
    -------
    float
        In [0, 1] (adjusted: in [-1/(K-1), 1]).

    Examples
    --------
    >>> from assay.classification import balanced_accuracy
    >>> y_true, y_pred = ["a", "a", "a", "b"], ["a", "a", "b", "b"]
    >>> round(balanced_accuracy(y_true, y_pred), 4)
    0.8333
    >>> round(balanced_accuracy(y_true, y_pred, adjusted=True), 4)
    0.6667
    """
    c = counts(y_true, y_pred)
    t = c.true_sum
    keep = t > 0
    per_class = c.tp[keep] / t[keep]
    score = float(per_class.mean())
    if adjusted:
        k = per_class.shape[0]
        if k == 1:
            return math.nan
        chance = 1.0 / k
        score = (score - chance) / (1 - chance)
    return score


DEGENERATE = Param(
    "degenerate",
    FROM_SIGNATURE,
    one_of("degenerate", Degenerate),
    "MCC with a zero denominator: zero (scikit-learn), limit (Chicco & Jurman), nan",
)


@_labels_measure(
    params=(DEGENERATE,),
    bounds=(-1.0, 1.0),
    aliases=("matthews_corrcoef",),
    peers=(
        Peer(
            "scikit-learn",
            "sklearn.metrics.matthews_corrcoef",
            "Only degenerate='zero' (assay's default); no 'limit' or 'nan'.",
        ),
    ),
)
def mcc(y_true: ArrayLike, y_pred: ArrayLike, *, degenerate: Degenerate = "zero") -> float:
    """Matthews correlation coefficient; for more than two classes Gorodkin's (2004) R_K,
    (n·c - t·p) / √((n² - t·t)(n² - p·p)) with c the number correct, t and p the true and
    predicted class sizes. For two classes R_K is the binary MCC
    (TP·TN - FP·FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN)), whichever class is positive.

    The denominator is 0 when all true or all predicted labels are one class. ``degenerate``:

    - ``"zero"`` (default): 0, as scikit-learn.
    - ``"limit"``: the values of Chicco & Jurman (2020, BMC Genomics 21:6; 2023, BioData
      Mining 16:4): +1 when the matrix has a single non-zero cell on the diagonal (every item
      correct and of one class), -1 when its single non-zero cell is off the diagonal (every
      item wrong, one class predicted for another), else 0, the limit of MCC when the empty
      row or column is filled with ε → 0.
    - ``"nan"``: NaN.

    Reference: Matthews (1975), Biochimica et Biophysica Acta 405(2); Gorodkin (2004),
    "Comparing two K-category assignments by a K-category correlation coefficient",
    Computational Biology and Chemistry 28(5).

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    degenerate
        The value when the denominator is 0 (see above).

    Returns
    -------
    float
        In [-1, 1].

    Examples
    --------
    >>> from assay.classification import mcc
    >>> round(mcc([1, 0, 1, 1, 0], [1, 0, 0, 1, 0]), 4)
    0.6667
    """
    return mcc_from_matrix(counts(y_true, y_pred).cm, degenerate)


def mcc_from_matrix(cm: np.ndarray, degenerate: Degenerate = "zero") -> float:
    """R_K of a K × K confusion matrix (rows true), ``degenerate`` as in :func:`mcc`."""
    m = cm.astype(np.float64)
    t = m.sum(axis=1)
    p = m.sum(axis=0)
    n = m.sum()
    cov_tp = np.trace(m) * n - t @ p
    cov_tt = n * n - t @ t
    cov_pp = n * n - p @ p
    den = cov_tt * cov_pp
    if den == 0:
        if degenerate == "nan":
            return math.nan
        if degenerate == "limit":
            nz = np.argwhere(cm)
            if nz.shape[0] == 1:
                return 1.0 if nz[0, 0] == nz[0, 1] else -1.0
        return 0.0
    return float(cov_tp / np.sqrt(den))


@_labels_measure(
    params=(
        Param(
            "absent",
            FROM_SIGNATURE,
            one_of("absent", SBAAbsent),
            "a class absent from one side: gosgens (the authors' rule) or nan",
        ),
    )
)
def sba(y_true: ArrayLike, y_pred: ArrayLike, *, absent: SBAAbsent = "gosgens") -> float:
    """Symmetric Balanced Accuracy (Gösgens, Zhiyanov, Tikhonov & Prokhorenkova 2021, "Good
    classification measures and how to find them", NeurIPS): the mean of balanced accuracy and
    its version with true and predicted labels swapped,

        SBA = 1/(2m) · Σ_i (c_ii / a_i + c_ii / b_i)

    over the m classes that occur in ``y_true`` or ``y_pred`` (a_i true, b_i predicted class
    sizes; c_ii correct items of class i). A class absent from one side makes a term 0/0;
    ``absent="gosgens"`` (default) applies the authors' rule (their reference code,
    yandex-research/classification-measures): c_ii/a_i is replaced by b_i/n when a_i = 0 and
    c_ii/b_i by a_i/n when b_i = 0, and SBA is 0 when no item is correct (minimal agreement).
    ``absent="nan"`` returns NaN instead whenever a class is absent from one side. Classes
    absent from both sides do not count.

    Reference: Gösgens, Zhiyanov, Tikhonov & Prokhorenkova (2021), "Good classification measures
    and how to find them", NeurIPS.

    Parameters
    ----------
    y_true, y_pred
        The true and the predicted label of each item (aligned).
    absent
        A class absent from one side: ``"gosgens"`` (the authors' rule) or ``"nan"``.

    Returns
    -------
    float
        In [0, 1], or NaN.

    Examples
    --------
    >>> from assay.classification import sba
    >>> round(sba(["a", "a", "a", "b"], ["a", "a", "b", "b"]), 4)
    0.7917
    >>> sba(["a", "a", "b"], ["a", "a", "c"], absent="nan")
    nan
    """
    c = counts(y_true, y_pred)
    a = c.true_sum.astype(np.float64)
    b = c.pred_sum.astype(np.float64)
    d = c.tp.astype(np.float64)
    n = float(c.n)
    if (a == 0).any() or (b == 0).any():
        if absent == "nan":
            return math.nan
        if not d.any():
            return 0.0
    m = a.shape[0]
    term_a = np.where(a > 0, d / np.where(a > 0, a, 1), b / n)
    term_b = np.where(b > 0, d / np.where(b > 0, b, 1), a / n)
    return float((term_a.sum() + term_b.sum()) / (2 * m))
