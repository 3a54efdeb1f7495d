"""assay.stats paired tests (assay.stats.paired), stratified shuffling, corrections.

* oracle and hand-worked cases (closed forms, counted by hand);
* differential tests against scipy.stats (ttest_rel, wilcoxon, binomtest, permutation_test
  with exact enumeration) and statsmodels' multipletests when installed;
* calibration under a true null and power under a shift, through ``paired_pvalues``;
* the batch forms equal the single-pair functions.

Bootstrap intervals, Tukey HSD and bit-reproducibility: test_stats_resampling.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as st

from assay import AssayError, InputError, OptionError
from assay import stats as S

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
    assert S.correct(p, correction="bonferroni") == pytest.approx([0.04, 0.16, 0.12, 0.02])
    # Holm: sorted 0.005·4, 0.01·3, 0.03·2, 0.04·1 = 0.02, 0.03, 0.06, 0.04 -> cummax
    assert S.correct(p, correction="holm") == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert S.correct(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # BH: 0.005·4/1, 0.01·4/2, 0.03·4/3, 0.04·4/4 = 0.02, 0.02, 0.04, 0.04 -> cummin from the end
    assert S.correct(p, correction="bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert S.correct(p, correction="fdr_bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert S.correct(p, correction="none") == pytest.approx(p)
    assert S.correct([0.5, 0.6], correction="bonferroni").tolist() == [1.0, 1.0]
    assert S.correct([0.5, 0.6], correction="holm").tolist() == [1.0, 1.0]
    # NaN stays NaN and is not counted
    out = S.correct([0.01, math.nan, 0.02], correction="holm")
    assert out[0] == pytest.approx(0.02) and math.isnan(out[1]) and out[2] == pytest.approx(0.02)
    # shape and order kept
    grid = np.array([[0.04, 0.01], [0.03, 0.005]])
    assert S.correct(grid, correction="holm") == pytest.approx(
        np.array([[0.06, 0.03], [0.06, 0.02]])
    )
    assert S.correct([], correction="bh").shape == (0,)
    # ties: the adjusted values do not depend on their order
    assert S.correct([0.02, 0.02, 0.01], correction="holm") == pytest.approx([0.04, 0.04, 0.03])
    assert S.correct([0.02, 0.02, 0.01], correction="bh") == pytest.approx([0.02, 0.02, 0.02])


# ----------------------------------------------------------------------------- against scipy


# ----------------------------------------------------------------------------- batch = single


# ----------------------------------------------------------------------------- calibration, power


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


# ----------------------------------------------------------------------------- stratified shuffling


# ----------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("call", "error", "needle"),
    [
        (lambda: S.randomization_test([1, 2], [1, 2, 3]), InputError, "same length"),
        (lambda: S.randomization_test([1, math.nan]), InputError, "non-finite"),
        (lambda: S.randomization_test([]), InputError, "at least 1"),
        (lambda: S.randomization_test([1, 2], n_resamples=0), OptionError, "n_resamples"),
        (lambda: S.randomization_test([1, 2], n_resamples=2.5), OptionError, "integer"),
        (lambda: S.randomization_test([1, 2], seed=-1), OptionError, "seed"),
        (lambda: S.randomization_test([1, 2], alternative="both"), OptionError, "alternative"),
        (lambda: S.randomization_test([[1, 2]]), InputError, "one-dimensional"),
        (
            lambda: S.randomization_test(
                [1, 2, 3, 4, 5, 6], n_resamples=10, statistic=lambda v, axis=-1: np.mean(v)
            ),
            InputError,
            "expected",
        ),
        (lambda: S.ttest([1], [2]), InputError, "at least 2"),
        (lambda: S.ttest([1, 2], [2, 3], confidence=1.5), OptionError, "confidence"),
        (lambda: S.wilcoxon([1, 2], [2, 3], zero_method="drop"), OptionError, "zero_method"),
        (lambda: S.wilcoxon([1, 2], [2, 3], pvalue_method="perm"), OptionError, "pvalue_method"),
        (lambda: S.sign_test(["a"], [1]), InputError, "real numbers"),
        (lambda: S.paired_pvalues([1, 2, 3]), InputError, "two-dimensional"),
        (lambda: S.paired_pvalues([[1, 2]], test="z"), OptionError, "test"),
        (lambda: S.paired_pvalues([[1]], test="t"), InputError, "at least 2"),
        (lambda: S.paired_pvalues([[1, math.inf]]), InputError, "[0, 1] is inf"),
        (lambda: S.bootstrap_ci([1, 2, 3], ci_method="bc"), OptionError, "ci_method"),
        (lambda: S.bootstrap_ci(([1, 2, 3], [1, 2])), InputError, "same length"),
        (lambda: S.bootstrap_ci([1]), InputError, "at least 2"),
        (lambda: S.bootstrap_ci([1, 2], statistic="mean"), InputError, "callable"),
        (lambda: S.bootstrap_mean_ci([1, 2, 3]), InputError, "two-dimensional"),
        (lambda: S.paired_bootstrap_test([1, 2], [1, 2], n_resamples=-5), OptionError, "positive"),
        (lambda: S.tukey_hsd([[1, 2, 3]], names=["a", "b"]), InputError, "names"),
        (lambda: S.tukey_hsd([[1], [2]]), InputError, "at least 2 systems"),
        (lambda: S.tukey_hsd({"a": [1, 2], "b": [1]}), InputError, "one score per item"),
        (lambda: S.tukey_hsd([[1, 2]], names=["a", "a"]), InputError, "distinct"),
        (lambda: S.tukey_hsd([[1, 2]], n_resamples=5).pvalue("0", "x"), InputError, "unknown"),
        (lambda: S.bootstrap_ci((1.0, 2.0, 3.0)), InputError, "paired samples"),
        (lambda: S.stratified_shuffling_test([1, 2], [1], len), InputError, "one record"),
        (lambda: S.stratified_shuffling_test([1, 2], [1, 2], None), InputError, "callable"),
        (lambda: S.correct([0.1, 1.2]), InputError, "[0, 1]"),
        (lambda: S.correct([0.1], correction="fdr_by"), OptionError, "correction"),
        (lambda: S.cohens_d_paired([1, 2], [1, 2, 3]), InputError, "same length"),
        (lambda: S.cohens_d_paired([1], [2]), InputError, "at least 2"),
    ],
)
def test_bad_arguments_raise_typed_errors(call, error, needle) -> None:
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, AssayError)
    assert needle in str(info.value), str(info.value)
