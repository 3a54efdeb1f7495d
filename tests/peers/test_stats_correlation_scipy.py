"""Correlations against scipy.stats: pearsonr, spearmanr and kendalltau (variants b and c, exact
and asymptotic p-values), with and without heavy ties."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from assay.errors import OptionError
from assay.stats import kendall, pearson, spearman
from strategies.stats import correlated_pairs

ALTERNATIVES = ("two-sided", "less", "greater")


@pytest.mark.parametrize("ties", [False, True])
def test_pearson_matches_scipy(ties: bool) -> None:
    for seed, n in enumerate((4, 5, 9, 30, 200, 1000)):
        x, y = correlated_pairs(seed, n, ties)
        for alt in ALTERNATIVES:
            ref = sps.pearsonr(x, y, alternative=alt)
            got = pearson(x, y, confidence=0.9, alternative=alt)
            assert got.statistic == pytest.approx(ref.statistic, abs=1e-12)
            assert got.pvalue == pytest.approx(ref.pvalue, abs=1e-9)
            lo, hi = ref.confidence_interval(confidence_level=0.9)
            assert got.ci == pytest.approx((lo, hi), abs=1e-12)


@pytest.mark.parametrize("ties", [False, True])
def test_spearman_matches_scipy(ties: bool) -> None:
    for seed, n in enumerate((3, 5, 9, 30, 200, 1000)):
        x, y = correlated_pairs(100 + seed, n, ties)
        for alt in ALTERNATIVES:
            ref = sps.spearmanr(x, y, alternative=alt)
            got = spearman(x, y, confidence=None, alternative=alt)
            assert got.statistic == pytest.approx(ref.statistic, abs=1e-12)
            assert got.pvalue == pytest.approx(ref.pvalue, abs=1e-9)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("variant", ["b", "c"])
def test_kendall_matches_scipy(ties: bool, variant: str) -> None:
    for seed, n in enumerate((3, 4, 8, 20, 33, 34, 100, 3000)):
        x, y = correlated_pairs(200 + seed, n, ties)
        for alt in ALTERNATIVES:
            ref = sps.kendalltau(x, y, alternative=alt, variant=variant)
            got = kendall(x, y, confidence=None, alternative=alt, variant=variant)
            assert got.statistic == pytest.approx(ref.statistic, abs=1e-12)
            assert got.pvalue == pytest.approx(ref.pvalue, abs=1e-9)
            assert got.details["pvalue_method"] == (
                "exact" if not ties and n <= 33 else "asymptotic"
            )


def test_kendall_exact_pvalue_large_n_near_perfect() -> None:
    # scipy uses the exact distribution for any n when at most one pair is (dis)concordant.
    x = np.arange(50.0)
    for y in (x.copy(), x[::-1].copy(), np.r_[1.0, 0.0, x[2:]], np.r_[x[:-2], x[-1], x[-2]]):
        for alt in ALTERNATIVES:
            ref = sps.kendalltau(x, y, alternative=alt)
            got = kendall(x, y, confidence=None, alternative=alt)
            assert got.details["pvalue_method"] == "exact"
            assert got.pvalue == pytest.approx(ref.pvalue, abs=1e-9)
    for alt in ALTERNATIVES:  # forcing each p-value method
        x, y = correlated_pairs(5, 12, ties=False)
        for method in ("exact", "asymptotic"):
            ref = sps.kendalltau(x, y, alternative=alt, method=method)
            got = kendall(x, y, confidence=None, alternative=alt, pvalue_method=method)
            assert got.pvalue == pytest.approx(ref.pvalue, abs=1e-9)
    with pytest.raises(OptionError, match="without ties"):
        kendall([1, 1, 2, 3], [1, 2, 3, 4], confidence=None, pvalue_method="exact")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(-3, 3)), min_size=3, max_size=40))
def test_kendall_spearman_heavy_ties_match_scipy(pairs: list[tuple[int, int]]) -> None:
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns on constant input; assay does not
        ref_k = sps.kendalltau(x, y)
        ref_s = sps.spearmanr(x, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got_k = kendall(x, y, confidence=None)
        got_s = spearman(x, y, confidence=None)
    if np.isnan(ref_k.statistic):
        assert math.isnan(got_k.statistic) and math.isnan(got_k.pvalue)
        assert math.isnan(got_s.statistic) and math.isnan(got_s.pvalue)
        return
    assert got_k.statistic == pytest.approx(ref_k.statistic, abs=1e-12)
    assert got_k.pvalue == pytest.approx(ref_k.pvalue, abs=1e-9)
    assert got_s.statistic == pytest.approx(ref_s.statistic, abs=1e-12)
    if len(x) == 3 and abs(ref_s.statistic) > 1 - 1e-12:
        # Perfectly monotone, n = 3: assay's rho is exactly ±1 (p = 0); scipy's float sums may
        # give 1 - 2**-52, and sqrt-shaped p-value (t with 1 df) turns that into ~1e-8.
        assert abs(got_s.statistic) == 1.0 and got_s.pvalue == 0.0
        assert ref_s.pvalue < 1e-7
    else:
        assert got_s.pvalue == pytest.approx(ref_s.pvalue, abs=1e-9)
