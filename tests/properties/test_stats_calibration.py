"""Statistical properties checked by simulation: paired tests calibrated under a true null and
powerful under a shift, Tukey HSD's uniform shuffles and family-wise error, Fisher interval
coverage, and Spearman's rho of a monotone relation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from assay import stats as S
from assay.stats import kendall, pearson, spearman
from assay.stats import tukey as TK


def test_calibration_under_the_null() -> None:
    """a, b i.i.d.: the rejection rate at α = 0.05 is within 3 binomial standard errors."""
    rng = np.random.default_rng(2024)
    reps, n = 1000, 30
    d = rng.normal(size=(reps, n)) - rng.normal(size=(reps, n))
    band = 3 * math.sqrt(0.05 * 0.95 / reps)
    for test in ("randomization", "t"):
        rate = float(np.mean(S.paired_pvalues(d, test=test, seed=1) <= 0.05))
        assert abs(rate - 0.05) <= band, (test, rate)
    for test in ("wilcoxon", "sign"):  # discrete null distributions: at most α
        rate = float(np.mean(S.paired_pvalues(d, test=test) <= 0.05))
        assert rate <= 0.05 + band, (test, rate)
    # skewed scores (a metric in [0, 1] with many zeros) do not break the randomization test
    a = np.where(rng.uniform(size=(reps, n)) < 0.4, 0.0, rng.beta(0.5, 2, (reps, n)))
    b = np.where(rng.uniform(size=(reps, n)) < 0.4, 0.0, rng.beta(0.5, 2, (reps, n)))
    rate = float(np.mean(S.paired_pvalues(a - b, seed=2) <= 0.05))
    assert abs(rate - 0.05) <= band, rate


def test_power_under_a_shift() -> None:
    rng = np.random.default_rng(7)
    reps, n = 400, 30
    d = rng.normal(0.5, 1, size=(reps, n))  # true power of the t test ≈ 0.75
    rates = {
        t: float(np.mean(S.paired_pvalues(d, test=t, n_resamples=2000) <= 0.05))
        for t in ("randomization", "t", "wilcoxon", "sign", "bootstrap")
    }
    assert 0.62 < rates["t"] < 0.88, rates
    assert abs(rates["randomization"] - rates["t"]) < 0.05, rates
    assert rates["sign"] < rates["t"] and rates["sign"] > 0.3, rates
    assert rates["wilcoxon"] > 0.55 and rates["bootstrap"] > 0.6, rates


def test_spearman_perfectly_monotone_is_exactly_one() -> None:
    rng = np.random.default_rng(9)
    for _ in range(200):
        n = int(rng.integers(3, 40))
        x = rng.integers(0, 6, size=n).astype(float)
        if len(np.unique(x)) == 1:
            continue
        assert spearman(x, np.exp(x), confidence=None).statistic == 1.0
        res = spearman(x, -3 * x, confidence=None)
        assert res.statistic == -1.0 and res.pvalue == 0.0


def test_fisher_interval_coverage_bivariate_normal() -> None:
    """95% intervals for rho = 0.5 bivariate normal data, n = 50, 1500 seeded repetitions:
    coverage of the population Pearson r, Spearman rho = 6/pi asin(rho/2) and Kendall tau =
    2/pi asin(rho) within 0.95 ± 0.02 (binomial sd about 0.006)."""
    rho, n, reps = 0.5, 50, 1500
    truth = {
        "pearson": rho,
        "spearman": 6 / math.pi * math.asin(rho / 2),
        "kendall": 2 / math.pi * math.asin(rho),
    }
    rng = np.random.default_rng(2024)
    cov = np.array([[1.0, rho], [rho, 1.0]])
    hits = dict.fromkeys(truth, 0)
    funcs = {"pearson": pearson, "spearman": spearman, "kendall": kendall}
    for _ in range(reps):
        xy = rng.multivariate_normal([0.0, 0.0], cov, size=n)
        for name, f in funcs.items():
            lo, hi = f(xy[:, 0], xy[:, 1]).ci
            hits[name] += lo <= truth[name] <= hi
    for name, h in hits.items():
        assert 0.93 <= h / reps <= 0.97, (name, h / reps)


@pytest.mark.parametrize("k", [3, 25])
def test_tukey_shuffles_are_uniform(k: int) -> None:
    """Each row's permutation is uniform: one item, values 0..k-1, column sums = permutation
    (k = 25 needs two random draws per item: 25! > 2**62)."""
    reps = 30000
    x = np.arange(k, dtype=float)[None, :]
    perms = np.concatenate(list(TK._permuted_column_sums(x, reps, seed=5))).astype(int)
    assert (np.sort(perms, axis=1) == np.arange(k)).all()
    if k == 3:
        counts = {p: 0 for p in itertools.permutations(range(3))}
        for row in map(tuple, perms):
            counts[row] += 1
        expected, sd = reps / 6, math.sqrt(reps * (1 / 6) * (5 / 6))
        assert all(abs(c - expected) < 4.5 * sd for c in counts.values()), counts
    else:
        where_last = np.argmax(perms == k - 1, axis=1)
        freq = np.bincount(where_last, minlength=k)
        expected, sd = reps / k, math.sqrt(reps * (1 / k) * (1 - 1 / k))
        assert np.all(np.abs(freq - expected) < 4.5 * sd), freq
        first = np.bincount(perms[:, 0], minlength=k)
        assert np.all(np.abs(first - expected) < 4.5 * sd), first


def test_tukey_family_wise_error_under_the_null() -> None:
    rng = np.random.default_rng(31)
    reps, band = 200, 3 * math.sqrt(0.05 * 0.95 / 200)
    rejected = 0
    for rep in range(reps):
        x = rng.normal(size=(20, 5))
        rejected += bool((S.tukey_hsd(x, n_resamples=400, seed=rep).pvalues <= 0.05).any())
    assert rejected / reps <= 0.05 + band
