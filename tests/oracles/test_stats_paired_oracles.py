"""assay.stats paired tests and corrections on oracle and hand-worked cases (closed forms,
counted by hand)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as st

from assay import stats as S


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
