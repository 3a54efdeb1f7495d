"""Confidence analyses: the error-vs-reject curve (a hand-checked example, ties, against a
brute-force expectation over every order of tied confidences), threshold curves, the rank
correlation of uncertainties (against scipy) and HPD intervals (by hand and brute force)."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import CoverageWarning, InputError, OptionError
from assay.embeddings import (
    error_reject_curve,
    hpd_interval,
    neighbour_metrics,
    threshold_curve,
    uncertainty_correlation,
)


def test_error_reject_hand_example() -> None:
    # Sorted by confidence: q1 (0.1, value 0), q3 (0.5, 0.5), q2 (0.8, 1), q0 (0.9, 1).
    # Keep all: mean 2.5/4 -> error 0.375; reject q1: 2.5/3 -> 1/6; reject q3 too: 0; then 0.
    curve = error_reject_curve([1.0, 0.0, 1.0, 0.5], [0.9, 0.1, 0.8, 0.5])
    np.testing.assert_allclose(curve.rejected, [0, 0.25, 0.5, 0.75])
    np.testing.assert_allclose(curve.error, [0.375, 1 / 6, 0.0, 0.0])
    assert curve.area == pytest.approx((0.375 + 1 / 6) / 4)  # 0.135416...
    assert curve.oracle_area == pytest.approx(curve.area)  # this confidence is perfect
    assert curve.random_area == pytest.approx(0.375)
    assert curve.excess_area == pytest.approx(0.0)
    assert curve.records()[1] == {
        "metric": "value", "rejected": 0.25, "error": pytest.approx(1 / 6), "oracle_error": pytest.approx(1 / 6)
    }  # fmt: skip


def test_reversed_confidence_is_worse_than_chance() -> None:
    values = np.array([1.0, 0.0, 1.0, 0.5])
    curve = error_reject_curve(values, [0.1, 0.9, 0.2, 0.5])
    np.testing.assert_allclose(curve.error, [0.375, 0.5, 0.75, 1.0])  # rejects q0, q2, q3
    assert curve.area > curve.random_area > curve.oracle_area


def test_equal_confidences_give_the_expected_curve() -> None:
    # One run of ties: rejecting j of them at random keeps the mean in expectation.
    curve = error_reject_curve([1.0, 0.0, 1.0, 0.0], [0.5] * 4)
    np.testing.assert_allclose(curve.error, [0.5] * 4)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.integers(0, 3)), min_size=1, max_size=6)
)
def test_ties_are_the_mean_over_every_order(pairs) -> None:
    values = np.array([v for v, _ in pairs])
    conf = np.array([c for _, c in pairs], dtype=float)
    curve = error_reject_curve(values, conf)
    n = len(values)
    orders = [
        p
        for p in itertools.permutations(range(n))
        if all(conf[p[i]] <= conf[p[i + 1]] for i in range(n - 1))
    ]
    expected = np.mean([[1 - values[list(p[j:])].mean() for j in range(n)] for p in orders], axis=0)
    np.testing.assert_allclose(curve.error, expected, atol=1e-12)
    # Input order does not matter.
    perm = np.random.default_rng(n).permutation(n)
    np.testing.assert_allclose(
        error_reject_curve(values[perm], conf[perm]).error, curve.error, atol=1e-12
    )


def test_curve_from_a_result_leaves_lone_queries_out() -> None:
    knn = [[0, 1], [1, 1], [0, 0]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CoverageWarning)
        res = neighbour_metrics(knn, [0, 1, 5], {0: 2, 1: 2}, metrics=["precision@1", "map@r"])
    curve = error_reject_curve(res, [0.2, 0.9, 0.5], metric="precision@1")
    assert curve.n == 2 and curve.n_excluded == 1
    np.testing.assert_allclose(curve.error, [0.0, 0.0])
    with pytest.raises(OptionError, match="name the metric"):
        error_reject_curve(res, [0.2, 0.9, 0.5])
    with pytest.raises(InputError, match="paired one to one"):
        error_reject_curve(res, [0.2, 0.9], metric="map@r")
    with pytest.raises(InputError, match="values"):
        error_reject_curve([1.0, math.nan], [0.1, 0.2])


def test_threshold_curve() -> None:
    curve = threshold_curve(
        [1.0, 0.0, 1.0, 0.5], [0.9, 0.1, 0.8, 0.5], thresholds=[0, 0.5, 0.85, 1]
    )
    np.testing.assert_allclose(curve.value, [0.625, 2.5 / 3, 1.0, math.nan])
    assert curve.n_kept.tolist() == [4, 3, 1, 0]
    np.testing.assert_allclose(curve.coverage, [1, 0.75, 0.25, 0])
    assert threshold_curve([1.0], [0.3]).thresholds.size == 101
    with pytest.raises(InputError, match=r"confidence\[1\] is 1.5"):
        threshold_curve([1.0, 0.0], [0.5, 1.5])
    with pytest.raises(OptionError, match="thresholds"):
        threshold_curve([1.0], [0.5], thresholds=[2.0])


def test_uncertainty_correlation_matches_scipy() -> None:
    rng = np.random.default_rng(4)
    predicted = rng.normal(size=40)
    reference = predicted + rng.normal(scale=0.7, size=40)
    res = uncertainty_correlation(predicted, reference)
    assert res.spearman.statistic == pytest.approx(scipy.stats.spearmanr(predicted, reference)[0])
    assert res.kendall.statistic == pytest.approx(scipy.stats.kendalltau(predicted, reference)[0])
    low, high = res.spearman.ci
    assert low < res.spearman.statistic < high
    rows = res.records()
    assert [r["coefficient"] for r in rows] == ["spearman", "kendall"] and rows[0]["n"] == 40
    boot = uncertainty_correlation(
        predicted, reference, ci_method="bootstrap", n_resamples=200, seed=1
    )
    assert boot.kendall.ci != res.kendall.ci
    assert boot.provenance["seed"] == 1
    with pytest.raises(OptionError, match="ci_method"):
        uncertainty_correlation(predicted, reference, ci_method="fisher")


def test_hpd_by_hand() -> None:
    # 10 draws, 50%: intervals of floor(5)+1 = 6 draws; [0..5] is the first of the narrowest.
    res = hpd_interval(np.arange(10.0), confidence=0.5)
    assert (res.low[0], res.high[0]) == (0.0, 5.0)
    skewed = np.array([0.0, 0.1, 0.2, 0.3, 5.0, 9.0])
    res = hpd_interval(skewed, confidence=0.5)  # 3+1 = 4 draws: [0, 0.3] is the narrowest
    assert (res.low[0], res.high[0]) == (0.0, 0.3)
    assert res.records() == [{"parameter": 0, "low": 0.0, "high": 0.3, "width": 0.3}]
    with pytest.raises(InputError, match="finite"):
        hpd_interval([1.0, math.inf])
    with pytest.raises(OptionError, match="confidence"):
        hpd_interval([1.0], confidence=1.0)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(1, 3), st.floats(0.05, 0.99), st.integers(0, 10**6))
def test_hpd_is_the_narrowest_interval(n, params, conf, seed) -> None:
    draws = np.random.default_rng(seed).gamma(2.0, size=(n, params)).round(2)
    res = hpd_interval(draws, confidence=conf)
    need = math.floor(conf * n) + 1
    for j in range(params):
        s = np.sort(draws[:, j])
        best = min((s[i + need - 1] - s[i], i) for i in range(n - need + 1))
        assert (res.low[j], res.high[j]) == (s[best[1]], s[best[1] + need - 1])
        assert np.count_nonzero((draws[:, j] >= res.low[j]) & (draws[:, j] <= res.high[j])) >= need
