"""assay.stats.aso: oracle cases from the definition (Dror et al. 2019; del Barrio et al.
2018), its properties, reproducibility and bad inputs; seed_distribution and welch_ttest."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as st

from assay.errors import InputError, OptionError
from assay.stats import aso, seed_distribution, welch_ttest


def test_stochastic_dominance_gives_zero() -> None:
    # every score of A above every score of B: F⁻¹ > G⁻¹ everywhere, no violation at all
    rng = np.random.default_rng(0)
    res = aso(rng.uniform(0.8, 0.9, 10), rng.uniform(0.1, 0.7, 7), num_bootstrap_iterations=100)
    assert res.statistic == 0.0
    assert res.details["violation_ratio"] == 0.0
    assert res.details["sigma_hat"] == 0.0


def test_dominated_gives_the_grid_share_of_the_violation() -> None:
    # B a constant above A's constant: the violation is total, but deepsig's numerator skips
    # t = dt, so the ratio is (T - 1) / T on the T = 199 grid points of dt = 0.005; every
    # bootstrap sample is the same (σ̂ = 0)
    res = aso([0.1, 0.1, 0.1], [0.5, 0.5], num_bootstrap_iterations=50)
    assert res.details["violation_ratio"] == pytest.approx(198 / 199, abs=1e-12)
    assert res.statistic == pytest.approx(198 / 199, abs=1e-12)
    t = len(np.arange(0.01, 1, 0.01))
    assert aso([0.0], [1.0], dt=0.01).statistic == pytest.approx((t - 1) / t, abs=1e-12)
    # not constant: 1 - (the first grid point's share of the squared distance)
    ratio = aso([0.1, 0.2, 0.3], [0.5, 0.6], num_bootstrap_iterations=50).details["violation_ratio"]
    grid = np.arange(0.005, 1, 0.005)
    f = np.array([0.1, 0.2, 0.3])[np.clip(np.ceil(3 * grid).astype(int) - 1, 0, 2)]
    g = np.array([0.5, 0.6])[np.clip(np.ceil(2 * grid).astype(int) - 1, 0, 1)]
    assert ratio == pytest.approx(1 - (g[0] - f[0]) ** 2 / np.sum((g - f) ** 2), abs=1e-12)


def test_equal_constant_scores_give_one_half() -> None:
    # zero Wasserstein distance: the ratio is defined as 0.5 (deepsig), every bootstrap too
    res = aso([0.4] * 5, [0.4] * 8, num_bootstrap_iterations=50)
    assert (res.statistic, res.details["violation_ratio"], res.details["sigma_hat"]) == (
        0.5,
        0.5,
        0.0,
    )


def test_identical_samples_claim_nothing() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(size=30)
    res = aso(a, a.copy(), num_bootstrap_iterations=200)
    assert res.details["violation_ratio"] == 0.5
    assert res.statistic > 0.5  # the bootstrap spread only raises the bound


def test_a_hair_above_is_almost_total_violation() -> None:
    # deepsig's own oracle: A against A + 1e-8 is ε_min ≈ 1
    a = np.random.default_rng(2).normal(size=200)
    assert aso(a, a + 1e-8, num_bootstrap_iterations=200).statistic == pytest.approx(1, abs=1e-3)


def test_the_clear_winner_is_below_one_half_and_the_loser_above() -> None:
    rng = np.random.default_rng(3)
    good, bad = rng.normal(0.75, 0.02, 20), rng.normal(0.70, 0.02, 20)
    assert aso(good, bad).statistic < 0.2
    assert aso(bad, good).statistic > 0.8


def test_the_bound_grows_with_the_confidence_and_the_comparisons() -> None:
    rng = np.random.default_rng(4)
    a, b = rng.normal(0.51, 0.05, 15), rng.normal(0.5, 0.05, 12)
    levels = [aso(a, b, confidence_level=c, seed=1).statistic for c in (0.8, 0.9, 0.95, 0.99)]
    assert levels == sorted(levels) and levels[0] < levels[-1]
    comps = [aso(a, b, num_comparisons=m, seed=1) for m in (1, 2, 5)]
    assert [r.statistic for r in comps] == sorted(r.statistic for r in comps)
    assert comps[2].details["confidence_level"] == pytest.approx(1 - 0.05 / 5)
    assert comps[2].details["confidence_level_asked"] == 0.95


def test_the_bound_is_the_formula_of_its_details() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.5, 0.1, 9), rng.normal(0.52, 0.1, 14)
    res = aso(a, b, confidence_level=0.9, num_comparisons=2, seed=3)
    d = res.details
    const = math.sqrt(9 * 14 / 23)
    z = st.norm.ppf(1 - d["confidence_level"])
    expected = min(1, max(0, d["violation_ratio"] - d["sigma_hat"] * z / const))
    assert res.statistic == pytest.approx(expected, abs=1e-15)
    assert (d["n_a"], d["n_b"], d["seed"], d["num_bootstrap_iterations"]) == (9, 14, 3, 1000)
    assert math.isnan(res.pvalue) and float(res) == res.statistic and res.method == "ASO"


def test_seeded_and_leaves_the_global_state_alone() -> None:
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=12), rng.normal(0.1, 1, 12)
    # the legacy global generator is the one deepsig reseeds: assay must leave it alone
    np.random.seed(123)  # noqa: NPY002
    before = np.random.get_state()[1].copy()  # noqa: NPY002
    first = aso(a, b, seed=7, num_bootstrap_iterations=100)
    assert np.array_equal(np.random.get_state()[1], before)  # noqa: NPY002
    assert aso(a, b, seed=7, num_bootstrap_iterations=100).statistic == first.statistic
    other = aso(a, b, seed=8, num_bootstrap_iterations=100)
    assert other.details["sigma_hat"] != first.details["sigma_hat"]


def test_num_samples_is_ignored_as_in_deepsig() -> None:
    a, b = [0.3, 0.5, 0.4, 0.45], [0.35, 0.5, 0.42]
    one = aso(a, b, num_bootstrap_iterations=100)
    other = aso(a, b, num_samples=7, num_bootstrap_iterations=100)
    assert one.statistic == other.statistic and other.details["num_samples"] == 7


@pytest.mark.parametrize(
    ("a", "b", "match"),
    [
        ([], [0.1], "scores_a"),
        ([0.1], [], "scores_b"),
        ([0.1, math.nan], [0.2], "scores_a"),
        ([0.1], [0.2, math.inf], "scores_b"),
        ([[0.1, 0.2]], [0.2], "scores_a"),
        (["x"], [0.2], "scores_a"),
    ],
)
def test_bad_scores(a: list, b: list, match: str) -> None:
    with pytest.raises(InputError, match=match):
        aso(a, b)


def test_seed_past_the_mersenne_twister() -> None:
    with pytest.raises(OptionError, match="seed"):
        aso([0.1, 0.2], [0.3], seed=2**32 - 5, num_bootstrap_iterations=10)
    aso([0.1, 0.2], [0.3], seed=2**32 - 11, num_bootstrap_iterations=10)


# ----------------------------------------------------------------------------- distributions


def test_seed_distribution_against_numpy() -> None:
    rng = np.random.default_rng(9)
    for n in (1, 2, 5, 30):
        x = rng.normal(size=n)
        d = seed_distribution(x, system="s")
        assert (d.system, d.n, d.min, d.max) == ("s", n, x.min(), x.max())
        assert d.mean == pytest.approx(x.mean(), rel=1e-15)
        if n > 1:
            assert d.sd == pytest.approx(np.std(x, ddof=1), rel=1e-15)
        else:
            assert math.isnan(d.sd)
        q = np.quantile(x, [0.25, 0.5, 0.75])
        assert (d.q25, d.median, d.q75) == tuple(q.tolist())
        assert d.details == {"ddof": 1, "quantile_method": "linear"}
    with pytest.raises(InputError):
        seed_distribution([])


@pytest.mark.parametrize("case", range(12))
def test_welch_against_scipy(case: int) -> None:
    rng = np.random.default_rng(case)
    a = rng.normal(0.5, rng.uniform(0.01, 0.2), int(rng.integers(2, 15)))
    b = rng.normal(0.52, rng.uniform(0.01, 0.2), int(rng.integers(2, 15)))
    for alternative in ("two-sided", "greater", "less"):
        ours = welch_ttest(a, b, alternative=alternative, confidence=0.9)
        theirs = st.ttest_ind(a, b, equal_var=False, alternative=alternative)
        assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-10, abs=1e-300)
        assert ours.details["df"] == pytest.approx(theirs.df, rel=1e-12)
    two = st.ttest_ind(a, b, equal_var=False).confidence_interval(0.9)
    ci = welch_ttest(a, b, confidence=0.9).ci
    assert ci is not None
    assert ci == pytest.approx((two.low, two.high), rel=1e-10)


def test_welch_without_spread() -> None:
    assert welch_ttest([0.5, 0.5], [0.4, 0.4]).pvalue == 0.0
    assert welch_ttest([0.5, 0.5], [0.4, 0.4], alternative="less").pvalue == 1.0
    assert math.isnan(welch_ttest([0.5, 0.5], [0.5, 0.5]).pvalue)
    with pytest.raises(InputError, match="at least 2"):
        welch_ttest([0.5], [0.4, 0.3])
