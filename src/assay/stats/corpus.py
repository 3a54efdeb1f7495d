"""One system against the baseline on a corpus-level statistic (span F1, macro F1, MCC, ARI,
...): the paired bootstrap's interval of the difference and the p-value of the test asked
for, the paired bootstrap or approximate randomisation — the comparison the tagging,
classification and clustering families share."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .. import _options as opt
from .._options import ResamplingTest
from . import _checks as check
from .paired import paired_bootstrap_test
from .result import StatResult
from .shuffling import stratified_shuffling_test

__all__ = ["corpus_pair_test"]

_WHERE = "corpus_pair_test"


def corpus_pair_test(
    outputs_a: NDArray[np.generic],
    outputs_b: NDArray[np.generic],
    statistic: Callable[..., ArrayLike],
    *,
    test: ResamplingTest = "bootstrap",
    n_resamples: int = 1000,
    ci_resamples: int | None = None,
    seed: int = 0,
    confidence: float = 0.95,
) -> StatResult:
    """θ = S(a) − S(b) for a corpus-level statistic S of per-unit records, with the paired
    bootstrap's percentile interval of θ and the p-value of ``test``.

    ``test="bootstrap"``: :func:`paired_bootstrap_test` with ``statistic`` (Koehn 2004;
    Berg-Kirkpatrick et al. 2012), p = (#{|θ* − θ| ≥ |θ|} + 1) / (B + 1), its interval from
    the same B = ``n_resamples`` resamples. ``test="randomization"``:
    :func:`stratified_shuffling_test` (Noreen 1989; Yeh 2000) with ``n_resamples`` swaps, the
    interval from a paired bootstrap of ``ci_resamples`` resamples (default
    ``n_resamples``). One ``seed`` for both.

    Parameters
    ----------
    outputs_a, outputs_b : numpy.ndarray
        The system's and the baseline's per-unit records (numeric arrays of one shape, units
        along the first axis): per-sentence counts, per-item codes, ...
    statistic : callable
        S of one system's records (with an ``axis`` parameter it is called once per block
        of resamples).
    test : {"bootstrap", "randomization"}
        The test of θ = 0.
    n_resamples : int
        Resamples of the test.
    ci_resamples : int, optional
        Bootstrap resamples of the interval under ``test="randomization"`` (default
        ``n_resamples``).
    seed : int
        Seed of the resamples.
    confidence : float
        Level of the interval.

    Returns
    -------
    StatResult
        ``statistic`` θ, ``pvalue`` (two-sided), ``ci`` the percentile interval of θ;
        ``details``: test, n_resamples, ci_resamples, seed.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.stats import corpus_pair_test
    >>> def f1(counts, axis=0):  # counts per sentence: true positives, predicted, gold
    ...     tp, pred, gold = np.moveaxis(np.sum(counts, axis=axis), -1, 0)
    ...     return 2 * tp / (pred + gold)
    >>> a = np.array([[3, 4, 3], [2, 2, 3], [4, 5, 5], [1, 1, 3], [5, 5, 5], [2, 4, 3]])
    >>> b = np.array([[2, 3, 3], [2, 3, 3], [3, 5, 5], [1, 2, 3], [4, 5, 5], [1, 3, 3]])
    >>> res = corpus_pair_test(a, b, f1, n_resamples=1000, seed=0)
    >>> round(res.statistic, 4), res.pvalue < 0.05, res.ci[0] > 0
    (0.186, True, True)
    """
    test = check.option(test, ResamplingTest, "test", _WHERE)
    n_resamples, seed = check.resampling(n_resamples, seed, _WHERE)
    confidence = check.confidence(confidence, _WHERE)
    checked_ci = (
        None
        if ci_resamples is None
        else opt.n_resamples(ci_resamples, name="ci_resamples", where=_WHERE)
    )
    interval_resamples = n_resamples
    if checked_ci is not None and test == "randomization":
        interval_resamples = checked_ci
    boot = paired_bootstrap_test(
        outputs_a,
        outputs_b,
        statistic,
        n_resamples=interval_resamples,
        seed=seed,
        confidence=confidence,
    )
    pvalue = boot.pvalue
    if test == "randomization":
        pvalue = stratified_shuffling_test(
            outputs_a, outputs_b, statistic, n_resamples=n_resamples, seed=seed
        ).pvalue
    details = {
        "test": test,
        "n_resamples": n_resamples,
        "ci_resamples": interval_resamples,
        "seed": seed,
    }
    return StatResult.of(boot.statistic, float(pvalue), boot.ci, "corpus pair test", details)
