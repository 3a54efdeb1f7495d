"""Resampling against its slow equivalents: Tukey HSD for two systems is the randomization
test, and the bootstrap sums equal exact rational sums."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from assay import stats as S
from assay.stats import _resampling as R


def test_tukey_two_systems_is_the_randomization_test() -> None:
    """With k = 2 a within-item permutation is a swap: range* = |mean of sign-flipped d|."""
    rng = np.random.default_rng(4)
    x = rng.normal(size=(30, 2)) + np.array([0.0, 0.4])
    res = S.tukey_hsd(x, n_resamples=20000, seed=1)
    p = S.randomization_test(x[:, 0], x[:, 1], n_resamples=20000, seed=2).pvalue
    assert res.pvalues[0, 1] == pytest.approx(p, abs=4 * math.sqrt(p * (1 - p) / 20000) + 1e-3)
    # hand case: two items each 1 vs 0; swaps agree (range 1) half the time
    half = S.tukey_hsd([[1.0, 0.0], [1.0, 0.0]], n_resamples=20000, seed=3)
    assert half.pvalue(0, 1) == pytest.approx(0.5, abs=0.015)
    assert S.tukey_hsd([[1.0, 0.0]], n_resamples=100).pvalue("0", "1") == 1.0


def test_exact_slices_give_exact_products() -> None:
    """The bootstrap sums are exact before one final rounding: compare with rational sums."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 300)) * np.array([[1.0], [1e-7], [1e9]])
    x[1, :10] = 0.1
    idx = next(R.index_blocks(0, 300, 20))
    counts = R.resample_counts(idx, 300)
    slices = R.exact_slices(x)
    total = counts @ slices[-1]
    for part in slices[-2::-1]:
        total += counts @ part
    for b in range(20):
        for j in range(3):
            exact = float(sum(int(c) * Fraction(v) for c, v in zip(counts[b], x[j], strict=True)))
            assert total[b, j] == pytest.approx(exact, rel=2.3e-16, abs=0)
