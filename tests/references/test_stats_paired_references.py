"""assay.stats paired tests against slow or single-pair forms: the paired bootstrap by brute
force, batch p-values against the single-pair functions, vectorised against per-row user
statistics, Monte Carlo against exact enumeration, stratified shuffling against the
randomization test."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay import stats as S

ALTS = ("two-sided", "greater", "less")


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
        batch = S.paired_pvalues(d, test=test, alternative=alt, **kw)
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
    lo, hi = S.bootstrap_mean_ci(x, n_resamples=2000, seed=3, ci_method=method, confidence=0.9)
    for j, row in enumerate(x):
        ci = S.bootstrap_ci(row, n_resamples=2000, seed=3, ci_method=method, confidence=0.9).ci
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
