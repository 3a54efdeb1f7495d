"""Published figures reproduced by assay.meta, and topic-set size design against statsmodels.

- Sakai, *Laboratory Experiments in Information Retrieval* (2018), Table 5.1: per-topic scores
  of systems A, B, C over 20 topics. The book reports the two-way ANOVA without replication
  (residual variance V_E = 0.0219, the within-system variance estimate of topic-set size
  design) and the paired t-test of A and B (t = 2.116, p = 0.048); the figures are also quoted
  by the elinor crate's tests. Sakai's bootstrap test studentises with that same t.
- The paired t-test for a standardised difference of 0.5 at α = 0.05 needs 34 pairs for 80%
  power (Cohen 1988; the textbook value every power tool gives): topic-set size design with
  σ̂_t² = 2σ̂² = 1 and min_diff 0.5 is that case.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from assay.meta import (
    anova_power,
    discriminative_power,
    residual_variance,
    topic_set_size,
    ttest_power,
)

A = [0.70, 0.30, 0.20, 0.60, 0.40, 0.40, 0.00, 0.70, 0.10, 0.30,
     0.50, 0.40, 0.00, 0.60, 0.50, 0.30, 0.10, 0.50, 0.20, 0.10]  # fmt: skip
B = [0.50, 0.10, 0.00, 0.20, 0.40, 0.30, 0.00, 0.50, 0.30, 0.30,
     0.40, 0.40, 0.10, 0.40, 0.20, 0.10, 0.10, 0.60, 0.30, 0.20]  # fmt: skip
C = [0.00, 0.00, 0.20, 0.10, 0.30, 0.30, 0.10, 0.20, 0.40, 0.40,
     0.40, 0.30, 0.30, 0.20, 0.20, 0.20, 0.10, 0.50, 0.40, 0.30]  # fmt: skip
TABLE_5_1 = np.column_stack([A, B, C])


def test_residual_variance_of_sakais_table_5_1():
    assert round(residual_variance(TABLE_5_1), 4) == 0.0219


def test_the_bootstrap_studentises_with_the_paired_t_of_table_5_1():
    res = discriminative_power({"score": TABLE_5_1[:, :2]}, test="bootstrap", n_resamples=1000)
    assert round(float(res.t_statistic["score"][0]), 3) == 2.116
    assert round(float(stats.ttest_rel(A, B).pvalue), 3) == 0.048


def test_34_topics_for_a_standardised_difference_of_one_half():
    res = topic_set_size(0.5, min_diff=0.5)  # σ̂_t² = 2 · 0.5 = 1, Δ_t = 0.5
    row = res.row("", 0.5)
    assert row["n_ttest"] == 34
    assert ttest_power(33, 0.5, 0.5) < 0.8 <= ttest_power(34, 0.5, 0.5)


def test_topic_set_size_of_table_5_1():
    """V_E = 0.021886 from Table 5.1; min_diff 0.1: Δ_t = 0.1/√(2·0.021886) = 0.478."""
    res = topic_set_size({"score": TABLE_5_1}, min_diff=0.1)
    row = res.row("score", 0.1)
    assert row["effect_t"] == pytest.approx(0.1 / np.sqrt(2 * residual_variance(TABLE_5_1)))
    n = row["n_ttest"]
    assert ttest_power(n - 1, 0.1, row["variance"]) < 0.8 <= ttest_power(n, 0.1, row["variance"])
    assert row["power_ttest"] == pytest.approx(ttest_power(20, 0.1, row["variance"]))
    m = row["n_anova"]
    assert anova_power(m - 1, 0.1, row["variance"], n_systems=3) < 0.8
    assert anova_power(m, 0.1, row["variance"], n_systems=3) >= 0.8


@pytest.mark.parametrize("n", [5, 20, 50, 120])
@pytest.mark.parametrize("effect", [0.1, 0.3, 0.8])
def test_ttest_power_equals_statsmodels(n, effect):
    power = pytest.importorskip("statsmodels.stats.power")
    expect = power.TTestPower().power(effect_size=effect, nobs=n, alpha=0.05)
    assert ttest_power(n, effect, 0.5) == pytest.approx(expect, rel=1e-9)


@pytest.mark.parametrize(("n", "m"), [(5, 2), (20, 3), (50, 10), (120, 30)])
@pytest.mark.parametrize("min_diff", [0.05, 0.2])
def test_anova_power_equals_statsmodels(n, m, min_diff):
    power = pytest.importorskip("statsmodels.stats.power")
    variance = 0.04
    delta = min_diff**2 / (2 * variance)  # λ = nΔ; statsmodels: λ = f² · (m n)
    expect = power.FTestAnovaPower().power(
        effect_size=np.sqrt(delta / m), nobs=m * n, alpha=0.05, k_groups=m
    )
    got = anova_power(n, min_diff, variance, n_systems=m)
    assert got == pytest.approx(expect, rel=1e-9)


@pytest.mark.parametrize("n", [10, 40, 150])
def test_the_normal_approximations_are_close_to_the_exact_power(n):
    for d, v, m in [(0.1, 0.05, 2), (0.05, 0.02, 10), (0.2, 0.1, 5)]:
        assert ttest_power(n, d, v, power_method="normal") == pytest.approx(
            ttest_power(n, d, v), abs=0.01
        )
        assert anova_power(n, d, v, n_systems=m, power_method="normal") == pytest.approx(
            anova_power(n, d, v, n_systems=m), abs=0.02
        )
