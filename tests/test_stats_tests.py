"""assay.stats paired tests, bootstrap intervals, Tukey HSD, stratified shuffling, corrections.

* oracle and hand-worked cases (closed forms, counted by hand);
* differential tests against scipy.stats (ttest_rel, wilcoxon, binomtest, permutation_test
  with exact enumeration, bootstrap: the same resample stream for the same seed, so equal to
  rounding, and independent streams within Monte Carlo error) and statsmodels'
  multipletests when installed;
* calibration under a true null and power under a shift, through ``paired_pvalues``;
* the batch forms equal the single-pair functions; same seed, same bits, whatever the number
  of BLAS threads (checked in subprocesses).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.stats as st

from assay import AssayError, ConventionError, InputError
from assay import stats as S
from assay.stats import _tests as T

ALTS = ("two-sided", "greater", "less")
SRC = Path(__file__).resolve().parents[1] / "src"


def mean_diff(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


# ----------------------------------------------------------------------------- oracle, hand cases


def test_oracle_randomization_exact() -> None:
    a = (1, 2, 1, 2, 2, 2, 0)
    b = (4, 5, 5, 4, 3, 2, 1)
    res = S.randomization_test(a, b)
    assert res.pvalue == 0.03125 == 4 / 128
    assert res.statistic == -2.0
    assert res.details["exact"] is True
    assert res.details["n_evaluated"] == 128
    assert res.details["alternative"] == "two-sided"
    assert float(res) == res.pvalue
    # the same through the batch form and a user statistic
    assert S.paired_pvalues([np.subtract(a, b)])[0] == 0.03125
    assert S.randomization_test(a, b, statistic=np.mean).pvalue == 0.03125


def test_randomization_hand_cases() -> None:
    # d = (1, 2, 3): sums over the 8 sign vectors are ±6, ±4, ±2, ±0: |T| ≥ 6 twice.
    assert S.randomization_test([1, 2, 3]).pvalue == 2 / 8
    assert S.randomization_test([1, 2, 3], alternative="greater").pvalue == 1 / 8
    assert S.randomization_test([1, 2, 3], alternative="less").pvalue == 8 / 8
    # one item: the identity and its flip
    assert S.randomization_test([3.0]).pvalue == 1.0
    assert S.randomization_test([3.0], alternative="greater").pvalue == 0.5
    # all differences zero: every resample ties
    assert S.randomization_test([1, 2, 3], [1, 2, 3]).pvalue == 1.0
    assert S.randomization_test(np.zeros(50)).pvalue == 1.0


def test_randomization_ties_are_not_decided_by_rounding() -> None:
    # d = (0.1, 0.2, -0.3) sums to 5.55e-17 in floating point but to 0 mathematically; the
    # signed sums are {0, 0.6, -0.4, 0.2, -0.2, 0.4, -0.6, 0}: five are >= 0.
    d = [0.1, 0.2, -0.3]
    assert sum(d) != 0.0
    assert S.randomization_test(d, alternative="greater").pvalue == 5 / 8
    assert S.randomization_test(d, alternative="less").pvalue == 5 / 8
    assert S.randomization_test(d).pvalue == 1.0
    assert S.randomization_test(d, statistic=np.mean, alternative="greater").pvalue == 5 / 8


def test_sign_test_hand_case() -> None:
    a = [5, 5, 5, 5, 5, 5, 5, 5, 1, 1, 3]
    b = [1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 3]
    res = S.sign_test(a, b)
    # 8 wins, 2 losses: 2 · (1 + 10 + 45) / 1024
    assert res.pvalue == pytest.approx(112 / 1024, rel=1e-12)
    assert res.statistic == 8
    assert res.details == {"wins": 8, "ties": 1, "losses": 2, "alternative": "two-sided"}
    assert S.sign_test(a, b, alternative="greater").pvalue == pytest.approx(56 / 1024)
    assert S.sign_test(a, b, alternative="less").pvalue == pytest.approx(1013 / 1024)
    # all ties: no evidence either way
    assert S.sign_test([1, 2], [1, 2]).pvalue == 1.0


def test_ttest_and_cohens_d_hand_case() -> None:
    a, b = [2, 4, 6, 8], [1, 2, 3, 4]  # d = 1, 2, 3, 4: mean 2.5, sd sqrt(5/3)
    sd = math.sqrt(5 / 3)
    res = S.ttest(a, b)
    assert res.statistic == pytest.approx(2.5 / (sd / 2), rel=1e-12)
    assert res.details["df"] == 3
    assert res.details["mean_difference"] == 2.5
    half = st.t.ppf(0.975, 3) * sd / 2
    assert res.ci == pytest.approx((2.5 - half, 2.5 + half), rel=1e-12)
    assert S.cohens_d_paired(a, b) == pytest.approx(2.5 / sd, rel=1e-12)
    assert math.isnan(S.cohens_d_paired([1, 2, 3], [1, 2, 3]))
    # a constant shift: sd = 0 exactly, NaN
    assert math.isnan(S.cohens_d_paired([2, 3, 4], [1, 2, 3]))
    rows = S.cohens_d_paired([[2, 4, 6, 8], [1, 1, 1, 1]], [[1, 2, 3, 4], [0, 0, 0, 0]])
    assert rows[0] == pytest.approx(2.5 / sd) and math.isnan(rows[1])


def test_correct_hand_cases() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    assert S.correct(p, "bonferroni") == pytest.approx([0.04, 0.16, 0.12, 0.02])
    # Holm: sorted 0.005·4, 0.01·3, 0.03·2, 0.04·1 = 0.02, 0.03, 0.06, 0.04 -> cummax
    assert S.correct(p, "holm") == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert S.correct(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # BH: 0.005·4/1, 0.01·4/2, 0.03·4/3, 0.04·4/4 = 0.02, 0.02, 0.04, 0.04 -> cummin from the end
    assert S.correct(p, "bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert S.correct(p, "fdr_bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert S.correct(p, "none") == pytest.approx(p)
    assert S.correct([0.5, 0.6], "bonferroni").tolist() == [1.0, 1.0]
    assert S.correct([0.5, 0.6], "holm").tolist() == [1.0, 1.0]
    # NaN stays NaN and is not counted
    out = S.correct([0.01, math.nan, 0.02], "holm")
    assert out[0] == pytest.approx(0.02) and math.isnan(out[1]) and out[2] == pytest.approx(0.02)
    # shape and order kept
    grid = np.array([[0.04, 0.01], [0.03, 0.005]])
    assert S.correct(grid, "holm") == pytest.approx(np.array([[0.06, 0.03], [0.06, 0.02]]))
    assert S.correct([], "bh").shape == (0,)
    # ties: the adjusted values do not depend on their order
    assert S.correct([0.02, 0.02, 0.01], "holm") == pytest.approx([0.04, 0.04, 0.03])
    assert S.correct([0.02, 0.02, 0.01], "bh") == pytest.approx([0.02, 0.02, 0.02])


def test_correct_against_statsmodels() -> None:
    multitest = pytest.importorskip(
        "statsmodels.stats.multitest", reason="statsmodels not installed (optional reference)"
    )
    rng = np.random.default_rng(11)
    ours = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}
    for trial in range(40):
        m = int(rng.integers(1, 60))
        p = rng.uniform(size=m) ** 3
        if trial % 3 == 0:  # ties
            p = np.round(p, 2)
        for method, theirs in ours.items():
            expected = multitest.multipletests(p, method=theirs)[1]
            np.testing.assert_allclose(S.correct(p, method), expected, rtol=1e-12, atol=0)


def test_paired_bootstrap_test_by_brute_force() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.3, 1, 25), rng.normal(0, 1, 25)
    d = a - b
    res = S.paired_bootstrap_test(a, b, n_resamples=3000, seed=9)
    idx = np.random.default_rng(9).integers(0, 25, (3000, 25))
    means = d[idx].mean(axis=1)
    dbar = d.mean()
    expected = {
        "two-sided": np.abs(means - dbar) >= abs(dbar),
        "greater": means - dbar >= dbar,
        "less": means - dbar <= dbar,
    }
    assert res.statistic == pytest.approx(dbar, rel=1e-15)
    assert res.ci == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])), rel=1e-12)
    for alt, hits in expected.items():
        p = S.paired_bootstrap_test(a, b, n_resamples=3000, seed=9, alternative=alt).pvalue
        assert p == (hits.sum() + 1) / 3001, alt


# ----------------------------------------------------------------------------- against scipy


@pytest.mark.parametrize("seed", range(8))
def test_ttest_matches_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    a, b = rng.normal(size=n), rng.normal(0.2, 1.5, size=n)
    for alt in ALTS:
        for conf in (0.9, 0.95, 0.99):
            ref = st.ttest_rel(a, b, alternative=alt)
            ci = ref.confidence_interval(confidence_level=conf)
            res = S.ttest(a, b, confidence=conf, alternative=alt)
            assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
            assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
            assert res.ci == pytest.approx((ci.low, ci.high), rel=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_wilcoxon_matches_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 80))
    a = rng.integers(0, 6, size=n).astype(float)  # zeros and ties in the differences
    b = rng.integers(0, 6, size=n).astype(float)
    if seed % 2:
        a, b = rng.normal(size=n), rng.normal(size=n)
    for zero_method in ("wilcox", "pratt", "zsplit"):
        for correction in (False, True):
            for alt in ALTS:
                ref = st.wilcoxon(
                    a, b, zero_method=zero_method, correction=correction, alternative=alt
                )
                res = S.wilcoxon(
                    a, b, zero_method=zero_method, correction=correction, alternative=alt
                )
                assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
                assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_sign_test_matches_binomtest() -> None:
    rng = np.random.default_rng(3)
    for _ in range(30):
        n = int(rng.integers(1, 120))
        a, b = rng.integers(0, 4, n), rng.integers(0, 4, n)
        wins, losses = int((a > b).sum()), int((a < b).sum())
        if wins + losses == 0:
            continue
        for alt in ALTS:
            ref = st.binomtest(wins, wins + losses, 0.5, alternative=alt).pvalue
            assert S.sign_test(a, b, alternative=alt).pvalue == pytest.approx(ref, rel=1e-10)


@pytest.mark.parametrize("n", [2, 3, 5, 8, 11, 13])
def test_randomization_matches_scipy_permutation_test_exactly(n: int) -> None:
    rng = np.random.default_rng(100 + n)
    a, b = rng.normal(size=n), rng.normal(0.3, 1, size=n)
    median_diff = lambda x, y, axis=-1: np.median(x - y, axis=axis)  # noqa: E731
    for alt in ALTS:
        ref = st.permutation_test(
            (a, b),
            mean_diff,
            permutation_type="samples",
            vectorized=True,
            n_resamples=10000,
            alternative=alt,
        )
        assert S.randomization_test(a, b, alternative=alt).pvalue == ref.pvalue
        assert S.randomization_test(a, b, statistic=np.mean, alternative=alt).pvalue == ref.pvalue
        assert S.paired_pvalues([a - b], alternative=alt)[0] == ref.pvalue
        ref_med = st.permutation_test(
            (a, b),
            median_diff,
            permutation_type="samples",
            vectorized=True,
            n_resamples=10000,
            alternative=alt,
        )
        p_med = S.randomization_test(a, b, statistic=np.median, alternative=alt).pvalue
        p_loop = S.randomization_test(
            a, b, statistic=lambda v: float(np.median(v)), alternative=alt
        ).pvalue
        if alt == "two-sided":  # scipy doubles the smaller one-sided p; we compare |T|
            assert p_med == p_loop == pytest.approx(ref_med.pvalue, abs=1 / 2**n)
        else:
            assert p_med == p_loop == ref_med.pvalue


def _scipy_bootstrap(data, statistic, seed, method, n_resamples, paired=False):
    res = st.bootstrap(
        data,
        statistic,
        n_resamples=n_resamples,
        method=method,
        paired=paired,
        rng=np.random.default_rng(seed),
    )
    return res.confidence_interval.low, res.confidence_interval.high


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_bootstrap_reproduces_scipy_stream(method: str) -> None:
    """Same seed, same resample indices as scipy.stats.bootstrap: equal to rounding."""
    rng = np.random.default_rng(21)
    x = rng.gamma(2.0, 1.0, size=40)
    y = 0.5 * x + rng.normal(size=40)
    pearson = lambda u, v, axis=-1: st.pearsonr(u, v, axis=axis)[0]  # noqa: E731
    cases = [
        ((x,), np.mean, x, np.mean),
        ((x,), np.median, x, np.median),
        ((x,), np.std, x, lambda v: float(np.std(v))),  # the row-by-row path
        ((x, y), pearson, (x, y), pearson),
    ]
    for data, ref_stat, ours, our_stat in cases:
        ref = _scipy_bootstrap(data, ref_stat, 5, method, 4000, paired=len(data) == 2)
        res = S.bootstrap_ci(ours, our_stat, n_resamples=4000, seed=5, method=method)
        assert res.ci == pytest.approx(ref, rel=1e-12, abs=1e-14), (ref_stat, method)
        assert math.isnan(res.pvalue)
        assert res.details["method"] == method


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("seed", range(3))
def test_bootstrap_within_monte_carlo_error_of_scipy(method: str, seed: int) -> None:
    """Independent streams (seed vs seed + 1000) with 20000 resamples: endpoints within 5% of
    the interval width (about 7 standard errors of the difference of two estimates)."""
    rng = np.random.default_rng(seed)
    x = rng.exponential(size=60)
    ref = _scipy_bootstrap((x,), np.mean, seed + 1000, method, 20000)
    res = S.bootstrap_ci(x, n_resamples=20000, seed=seed, method=method)
    width = ref[1] - ref[0]
    assert abs(res.ci[0] - ref[0]) < 0.05 * width
    assert abs(res.ci[1] - ref[1]) < 0.05 * width


def test_bootstrap_degenerate_and_standard_error() -> None:
    res = S.bootstrap_ci(np.full(10, 0.3))
    assert res.ci == (0.3, 0.3) and res.statistic == pytest.approx(0.3)
    lo, hi = S.bootstrap_mean_ci(np.zeros((2, 5)))
    assert lo.tolist() == [0.0, 0.0] and hi.tolist() == [0.0, 0.0]
    lo, hi = S.bootstrap_mean_ci(np.ones((3, 1)))  # one item: no interval
    assert np.isnan(lo).all() and np.isnan(hi).all() and lo.shape == (3,)
    x = np.random.default_rng(0).normal(size=100)
    se = S.bootstrap_ci(x, n_resamples=5000).details["standard_error"]
    assert se == pytest.approx(np.std(x) / 10, rel=0.05)


# ----------------------------------------------------------------------------- batch = single


def _rows() -> np.ndarray:
    rng = np.random.default_rng(8)
    d = rng.normal(0.2, 1, size=(7, 24))
    d[1] = np.round(d[1])  # zeros and ties
    d[2, :5] = 0.0
    d[3] = rng.integers(-2, 3, 24) * 0.1  # discrete differences
    return d


@pytest.mark.parametrize("alt", ALTS)
def test_paired_pvalues_equal_single_pair_functions(alt: str) -> None:
    d = _rows()
    zero = np.zeros(d.shape[1])
    kw = {"n_resamples": 3000, "seed": 4}
    single = {
        "randomization": lambda r: S.randomization_test(r, **kw, alternative=alt),
        "t": lambda r: S.ttest(r, zero, alternative=alt),
        "wilcoxon": lambda r: S.wilcoxon(r, zero, alternative=alt),
        "sign": lambda r: S.sign_test(r, zero, alternative=alt),
        "bootstrap": lambda r: S.paired_bootstrap_test(r, zero, **kw, alternative=alt),
    }
    for test, func in single.items():
        batch = S.paired_pvalues(d, test, alternative=alt, **kw)
        assert batch.shape == (d.shape[0],)
        assert batch.tolist() == [func(row).pvalue for row in d], test
    # exact enumeration in the batch too
    small = d[:, :9]
    assert S.paired_pvalues(small, n_resamples=512, alternative=alt).tolist() == [
        S.randomization_test(r, n_resamples=512, alternative=alt).pvalue for r in small
    ]
    assert S.paired_pvalues(np.zeros((0, 5))).shape == (0,)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_bootstrap_mean_ci_equals_bootstrap_ci(method: str) -> None:
    x = _rows()
    lo, hi = S.bootstrap_mean_ci(x, n_resamples=2000, seed=3, method=method, confidence=0.9)
    for j, row in enumerate(x):
        ci = S.bootstrap_ci(row, n_resamples=2000, seed=3, method=method, confidence=0.9).ci
        assert (lo[j], hi[j]) == ci
        assert lo[j] <= row.mean() <= hi[j]


def test_user_statistics_vectorised_or_not_agree() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=40), rng.normal(0.4, 1, size=40)
    kw = {"n_resamples": 1500, "seed": 8}
    p_default = S.randomization_test(a, b, **kw).pvalue
    assert S.randomization_test(a, b, statistic=np.mean, **kw).pvalue == p_default
    assert S.randomization_test(a, b, statistic=lambda v: v.mean(), **kw).pvalue == p_default
    assert S.randomization_test(a, b, **kw).details["exact"] is False
    assert S.randomization_test(a - b, **kw).pvalue == p_default  # b=None: test a alone
    med = S.randomization_test(a, b, statistic=np.median, **kw).pvalue
    assert S.randomization_test(a, b, statistic=lambda v: np.median(v), **kw).pvalue == med


def test_monte_carlo_close_to_exact() -> None:
    rng = np.random.default_rng(12)
    d = rng.normal(0.35, 1, size=14)
    exact = S.randomization_test(d, n_resamples=2**14)
    assert exact.details["exact"] is True
    mc = S.randomization_test(d, n_resamples=2**14 - 1, seed=1)
    assert mc.details["exact"] is False
    se = math.sqrt(exact.pvalue * (1 - exact.pvalue) / 2**14)
    assert abs(mc.pvalue - exact.pvalue) < 4 * se + 1e-4


# ----------------------------------------------------------------------------- calibration, power


def test_calibration_under_the_null() -> None:
    """a, b i.i.d.: the rejection rate at α = 0.05 is within 3 binomial standard errors."""
    rng = np.random.default_rng(2024)
    reps, n = 1000, 30
    d = rng.normal(size=(reps, n)) - rng.normal(size=(reps, n))
    band = 3 * math.sqrt(0.05 * 0.95 / reps)
    for test in ("randomization", "t"):
        rate = float(np.mean(S.paired_pvalues(d, test, seed=1) <= 0.05))
        assert abs(rate - 0.05) <= band, (test, rate)
    for test in ("wilcoxon", "sign"):  # discrete null distributions: at most α
        rate = float(np.mean(S.paired_pvalues(d, test) <= 0.05))
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
        t: float(np.mean(S.paired_pvalues(d, t, n_resamples=2000) <= 0.05))
        for t in ("randomization", "t", "wilcoxon", "sign", "bootstrap")
    }
    assert 0.62 < rates["t"] < 0.88, rates
    assert abs(rates["randomization"] - rates["t"]) < 0.05, rates
    assert rates["sign"] < rates["t"] and rates["sign"] > 0.3, rates
    assert rates["wilcoxon"] > 0.55 and rates["bootstrap"] > 0.6, rates


# ----------------------------------------------------------------------------- Tukey HSD


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


@pytest.mark.parametrize("k", [3, 25])
def test_tukey_shuffles_are_uniform(k: int) -> None:
    """Each row's permutation is uniform: one item, values 0..k-1, column sums = permutation
    (k = 25 needs two random draws per item: 25! > 2**62)."""
    reps = 30000
    x = np.arange(k, dtype=float)[None, :]
    perms = np.concatenate(list(T._permuted_column_sums(x, reps, seed=5))).astype(int)
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


def test_tukey_result_shape_names_and_monotonicity() -> None:
    rng = np.random.default_rng(9)
    scores = {f"s{i}": rng.normal(0.1 * i, 1, size=40) for i in range(5)}
    res = S.tukey_hsd(scores, n_resamples=3000, seed=2)
    assert res.names == ("s0", "s1", "s2", "s3", "s4")
    assert res.pvalues.shape == (5, 5)
    assert (res.pvalues == res.pvalues.T).all() and (np.diag(res.pvalues) == 1).all()
    assert len(res.pairs) == 10
    for i, j, diff, p in res.pairs:
        assert i < j and diff == pytest.approx(res.means[i] - res.means[j])
        assert p == res.pvalues[i, j] == res.pvalue(res.names[i], res.names[j])
    # the larger the difference, the smaller (or equal) the p-value
    by_diff = sorted(res.pairs, key=lambda r: abs(r[2]))
    assert all(x[3] >= y[3] for x, y in itertools.pairwise(by_diff))
    # HSD is more conservative than the unadjusted pairwise test of the same pair
    i, j = 0, 4
    raw = S.randomization_test(scores["s0"], scores["s4"], n_resamples=3000, seed=2).pvalue
    assert res.pvalues[i, j] >= raw - 0.01
    arr = np.column_stack(list(scores.values()))
    again = S.tukey_hsd(arr, n_resamples=3000, seed=2, names=list(scores))
    assert (again.pvalues == res.pvalues).all() and again.names == res.names
    assert res.details == {"n_resamples": 3000, "seed": 2, "n_items": 40}


def test_tukey_family_wise_error_under_the_null() -> None:
    rng = np.random.default_rng(31)
    reps, band = 200, 3 * math.sqrt(0.05 * 0.95 / 200)
    rejected = 0
    for rep in range(reps):
        x = rng.normal(size=(20, 5))
        rejected += bool((S.tukey_hsd(x, n_resamples=400, seed=rep).pvalues <= 0.05).any())
    assert rejected / reps <= 0.05 + band


# ----------------------------------------------------------------------------- stratified shuffling


def _f1(records):
    tp, fp, fn = np.sum(np.asarray(records, dtype=float), axis=0)
    return 2 * tp / (2 * tp + fp + fn)


def _f1_axis(counts, axis=0):
    tp, fp, fn = np.moveaxis(np.sum(counts, axis=axis), -1, 0)
    return 2 * tp / (2 * tp + fp + fn)


def test_stratified_shuffling() -> None:
    rng = np.random.default_rng(6)
    n = 30
    a, b = rng.uniform(size=n), rng.uniform(size=n) + 0.15
    kw = {"n_resamples": 2000, "seed": 3}
    # mean of per-item values: the same swaps as the randomization test's sign flips
    res = S.stratified_shuffling_test(a, b, np.mean, **kw)
    assert res.pvalue == S.randomization_test(a, b, **kw).pvalue
    assert res.statistic == pytest.approx(a.mean() - b.mean())
    assert res.details["statistic_a"] == pytest.approx(a.mean())
    # corpus F1 from per-item (tp, fp, fn): list-of-records path, row loop, vectorised path
    ca = rng.integers(0, 5, size=(n, 3))
    cb = rng.integers(0, 5, size=(n, 3)) + np.array([1, 0, 0])
    p_list = S.stratified_shuffling_test([tuple(r) for r in ca], [tuple(r) for r in cb], _f1, **kw)
    p_loop = S.stratified_shuffling_test(ca, cb, _f1, **kw)
    p_vec = S.stratified_shuffling_test(ca, cb, _f1_axis, **kw)
    assert p_list.pvalue == p_loop.pvalue == p_vec.pvalue
    assert p_vec.statistic == pytest.approx(_f1(ca) - _f1(cb))
    # identical outputs: every swap gives 0, p = 1; one item: |Δ*| = |Δ| always
    assert S.stratified_shuffling_test(ca, ca.copy(), _f1_axis, **kw).pvalue == 1.0
    assert S.stratified_shuffling_test(["x"], ["yy"], lambda r: len(r[0]), **kw).pvalue == 1.0


# ----------------------------------------------------------------------------- determinism


def test_same_seed_same_result_other_seed_other_result() -> None:
    rng = np.random.default_rng(1)
    d = rng.normal(0.1, 1, size=(5, 50))
    for test in ("randomization", "bootstrap"):
        first = S.paired_pvalues(d, test, n_resamples=999, seed=42)
        assert (first == S.paired_pvalues(d, test, n_resamples=999, seed=42)).all()
        assert (first != S.paired_pvalues(d, test, n_resamples=999, seed=43)).any()
    ci = S.bootstrap_ci(d[0], seed=5).ci
    assert ci == S.bootstrap_ci(d[0], seed=5).ci != S.bootstrap_ci(d[0], seed=6).ci


_THREAD_SCRIPT = textwrap.dedent(
    """
    import json
    import numpy as np
    from assay import stats as S

    rng = np.random.default_rng(0)
    d = rng.normal(0.02, 1, size=(48, 700))
    d[::3] = np.round(d[::3], 1)        # discrete rows: many mathematically tied resamples
    out = {}
    for test in ("randomization", "bootstrap"):
        out[test] = S.paired_pvalues(d, test, n_resamples=4000, seed=7).tolist()
    lo, hi = S.bootstrap_mean_ci(d, n_resamples=3000, seed=7)
    out["bca"] = lo.tolist() + hi.tolist()
    lo, hi = S.bootstrap_mean_ci(d, n_resamples=3000, seed=7, method="basic")
    out["basic"] = lo.tolist() + hi.tolist()
    res = S.randomization_test(d[0], n_resamples=5000, seed=3)
    out["single"] = [res.pvalue]
    out["tukey"] = S.tukey_hsd(d[:6].T, n_resamples=500, seed=1).pvalues.ravel().tolist()
    print(json.dumps({k: [float(v).hex() for v in vals] for k, vals in out.items()}))
    """
)


def _run_with_threads(threads: int) -> dict[str, list[str]]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = str(threads)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", _THREAD_SCRIPT], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, list[str]] = json.loads(proc.stdout)
    return result


def test_identical_results_whatever_the_number_of_threads() -> None:
    one, two = _run_with_threads(1), _run_with_threads(2)
    assert one.keys() == two.keys()
    for key in one:
        assert one[key] == two[key], key


def test_exact_slices_give_exact_products() -> None:
    """The bootstrap sums are exact before one final rounding: compare with rational sums."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 300)) * np.array([[1.0], [1e-7], [1e9]])
    x[1, :10] = 0.1
    idx = next(T._index_blocks(0, 300, 20))
    counts = T._resample_counts(idx, 300)
    slices = T._exact_slices(x)
    total = counts @ slices[-1]
    for part in slices[-2::-1]:
        total += counts @ part
    for b in range(20):
        for j in range(3):
            exact = float(sum(int(c) * Fraction(v) for c, v in zip(counts[b], x[j], strict=True)))
            assert total[b, j] == pytest.approx(exact, rel=2.3e-16, abs=0)


# ----------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("call", "error", "needle"),
    [
        (lambda: S.randomization_test([1, 2], [1, 2, 3]), InputError, "same length"),
        (lambda: S.randomization_test([1, math.nan]), InputError, "non-finite"),
        (lambda: S.randomization_test([]), InputError, "at least 1"),
        (lambda: S.randomization_test([1, 2], n_resamples=0), InputError, "n_resamples"),
        (lambda: S.randomization_test([1, 2], n_resamples=2.5), InputError, "integer"),
        (lambda: S.randomization_test([1, 2], seed=-1), InputError, "seed"),
        (lambda: S.randomization_test([1, 2], alternative="both"), ConventionError, "alternative"),
        (lambda: S.randomization_test([[1, 2]]), InputError, "one-dimensional"),
        (
            lambda: S.randomization_test(
                [1, 2, 3, 4, 5, 6], n_resamples=10, statistic=lambda v, axis=-1: np.mean(v)
            ),
            InputError,
            "expected",
        ),
        (lambda: S.ttest([1], [2]), InputError, "at least 2"),
        (lambda: S.ttest([1, 2], [2, 3], confidence=1.5), InputError, "confidence"),
        (lambda: S.wilcoxon([1, 2], [2, 3], zero_method="drop"), ConventionError, "zero_method"),
        (lambda: S.wilcoxon([1, 2], [2, 3], method="perm"), ConventionError, "method"),
        (lambda: S.sign_test(["a"], [1]), InputError, "numeric"),
        (lambda: S.paired_pvalues([1, 2, 3]), InputError, "two-dimensional"),
        (lambda: S.paired_pvalues([[1, 2]], test="z"), ConventionError, "test"),
        (lambda: S.paired_pvalues([[1]], test="t"), InputError, "at least 2"),
        (lambda: S.paired_pvalues([[1, math.inf]]), InputError, "non-finite value at [0, 1]"),
        (lambda: S.bootstrap_ci([1, 2, 3], method="bc"), ConventionError, "method"),
        (lambda: S.bootstrap_ci(([1, 2, 3], [1, 2])), InputError, "same length"),
        (lambda: S.bootstrap_ci([1]), InputError, "at least 2"),
        (lambda: S.bootstrap_ci([1, 2], statistic="mean"), InputError, "callable"),
        (lambda: S.bootstrap_mean_ci([1, 2, 3]), InputError, "two-dimensional"),
        (lambda: S.paired_bootstrap_test([1, 2], [1, 2], n_resamples=-5), InputError, "at least 1"),
        (lambda: S.tukey_hsd([[1, 2, 3]], names=["a", "b"]), InputError, "names"),
        (lambda: S.tukey_hsd([[1], [2]]), InputError, "at least 2 systems"),
        (lambda: S.tukey_hsd({"a": [1, 2], "b": [1]}), InputError, "one score per item"),
        (lambda: S.tukey_hsd([[1, 2]], names=["a", "a"]), InputError, "distinct"),
        (lambda: S.tukey_hsd([[1, 2]], n_resamples=5).pvalue("0", "x"), InputError, "unknown"),
        (lambda: S.bootstrap_ci((1.0, 2.0, 3.0)), InputError, "paired samples"),
        (lambda: S.stratified_shuffling_test([1, 2], [1], len), InputError, "one record"),
        (lambda: S.stratified_shuffling_test([1, 2], [1, 2], None), InputError, "callable"),
        (lambda: S.correct([0.1, 1.2]), InputError, "[0, 1]"),
        (lambda: S.correct([0.1], method="fdr_by"), ConventionError, "method"),
        (lambda: S.cohens_d_paired([1, 2], [1, 2, 3]), InputError, "same length"),
        (lambda: S.cohens_d_paired([1], [2]), InputError, "at least 2"),
    ],
)
def test_bad_arguments_raise_typed_errors(call, error, needle) -> None:
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, AssayError)
    assert needle in str(info.value), str(info.value)
