"""assay.stats paired tests against scipy.stats (ttest_rel, wilcoxon, binomtest, permutation_test
with exact enumeration) and statsmodels' multipletests."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st

from assay import stats as S

ALTS = ("two-sided", "greater", "less")


def mean_diff(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


@pytest.mark.usefixtures("gc_collect_skipped")  # multipletests' gc.collect() per Holm call
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
            np.testing.assert_allclose(
                S.correct(p, correction=method), expected, rtol=1e-12, atol=0
            )


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
                    a, b, zero_method=zero_method, continuity=correction, alternative=alt
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
