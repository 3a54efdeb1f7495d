"""Correlations as an API: tau_AP's ties, perfect and constant input, one-sided and bootstrap
intervals, standard errors, input and option errors, system rank correlations."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats as sps

from assay.errors import AssayError, EmptyInputError, InputError, OptionError
from assay.stats import kendall, pearson, spearman, system_rank_correlation, tau_ap
from references.slow_stats import naive_tau_ap
from strategies.stats import correlated_pairs


def test_tau_ap_ties_error_and_constant() -> None:
    with pytest.raises(InputError, match="y hold tied values"):
        tau_ap([1, 2, 3, 4], [1, 1, 2, 3])
    with pytest.raises(InputError, match="x and y hold tied values"):
        tau_ap([1, 1, 3, 4], [1, 1, 2, 3])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for ties in ("error", "average"):
            res = tau_ap([1, 2, 3, 4], [5, 5, 5, 5], ties=ties)
            assert math.isnan(res.statistic) and res.details["constant_input"]
    with pytest.raises(OptionError):
        tau_ap([1, 2, 3], [1, 2, 3], ties="first")
    with pytest.raises(OptionError):
        tau_ap([1, 2, 3], [1, 2, 3], symmetric="yes")


def test_perfect_correlation_no_warnings() -> None:
    x = np.arange(10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in (pearson, spearman, kendall):
            res = f(x, 3 * x + 1)
            assert res.statistic == pytest.approx(1.0)
            assert res.pvalue < 1e-5
            assert res.ci == pytest.approx((1.0, 1.0))
            res = f(x, -x)
            assert res.statistic == pytest.approx(-1.0)
            assert res.ci == pytest.approx((-1.0, -1.0))


def test_one_sided_fisher_intervals() -> None:
    x, y = correlated_pairs(11, 40, ties=False)
    for f in (spearman, kendall):
        two = f(x, y, confidence=0.9)
        less = f(x, y, confidence=0.95, alternative="less")
        greater = f(x, y, confidence=0.95, alternative="greater")
        assert less.ci == pytest.approx((-1.0, two.ci[1]), abs=1e-12)
        assert greater.ci == pytest.approx((two.ci[0], 1.0), abs=1e-12)


def test_bonett_wright_and_fieller_standard_errors() -> None:
    x, y = correlated_pairs(12, 25, ties=False)
    rho = spearman(x, y)
    se = math.sqrt((1 + rho.statistic**2 / 2) / 22)
    assert rho.details["se"] == pytest.approx(se, abs=1e-15)
    z = math.atanh(rho.statistic)
    h = sps.norm.ppf(0.975)
    assert rho.ci == pytest.approx((math.tanh(z - h * se), math.tanh(z + h * se)), abs=1e-12)
    tau = kendall(x, y)
    se = math.sqrt(0.437 / 21)
    assert tau.details["se"] == pytest.approx(se, abs=1e-15)
    z = math.atanh(tau.statistic)
    assert tau.ci == pytest.approx((math.tanh(z - h * se), math.tanh(z + h * se)), abs=1e-12)


def test_bootstrap_reproducible_with_seed() -> None:
    x, y = correlated_pairs(31, 40, ties=False)
    for f in (spearman, kendall):
        a = f(x, y, ci_method="bootstrap", n_resamples=500, seed=3)
        b = f(x, y, ci_method="bootstrap", n_resamples=500, seed=3)
        c = f(x, y, ci_method="bootstrap", n_resamples=500, seed=4)
        assert a.ci == b.ci
        assert a.ci != c.ci
        assert a.ci[0] < a.statistic < a.ci[1]
        assert a.details["seed"] == 3 and a.details["n_resamples"] == 500
        assert a.details["ci_method"] == "bootstrap" and a.details["n_degenerate"] == 0
        one = f(x, y, ci_method="bootstrap", n_resamples=500, seed=3, alternative="greater")
        assert one.ci[1] == 1.0 and one.ci[0] < a.statistic


def test_bootstrap_degenerate_resamples_are_counted() -> None:
    # With n = 3, about 1/9 of resamples draw a single pair three times (constant).
    res = kendall([1, 2, 3], [1, 3, 2], ci_method="bootstrap", n_resamples=900, seed=0)
    assert 0 < res.details["n_degenerate"] < 900
    assert res.ci is not None and -1 <= res.ci[0] <= res.ci[1] <= 1


def test_constant_input_gives_nan_without_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f in (pearson, spearman, kendall):
            res = f([1, 2, 3, 4, 5], [2, 2, 2, 2, 2])
            assert math.isnan(res.statistic) and math.isnan(res.pvalue)
            assert res.ci is not None and all(math.isnan(v) for v in res.ci)
            assert res.details["constant_input"] is True
        for f in (spearman, kendall):
            res = f([3, 3, 3, 3, 3], [1, 2, 3, 4, 5], ci_method="bootstrap", n_resamples=50)
            assert res.ci is not None
            assert math.isnan(res.statistic) and all(math.isnan(v) for v in res.ci)


def test_input_errors() -> None:
    for f in (pearson, spearman, kendall, tau_ap):
        with pytest.raises(InputError, match="differ in length"):
            f([1, 2, 3], [1, 2, 3, 4])
        with pytest.raises(InputError, match=r"y\[1\] is nan"):
            f([1, 2, 3], [1, float("nan"), 3])
        with pytest.raises(InputError, match=r"x\[0\] is inf"):
            f([float("inf"), 2, 3], [1, 2, 3])
        with pytest.raises(InputError, match="at least 3 pairs"):
            f([1, 2], [2, 1])
        with pytest.raises(EmptyInputError):
            f([], [])
        with pytest.raises(InputError, match="one-dimensional"):
            f([[1, 2, 3]], [[1, 2, 3]])
        with pytest.raises(InputError, match="real numbers"):
            f(["a", "b", "c"], [1, 2, 3])


def test_small_samples_need_confidence_none_for_fisher() -> None:
    with pytest.raises(InputError, match="at least 4 pairs"):
        pearson([1, 2, 3], [1, 3, 2])
    with pytest.raises(InputError, match="at least 4 pairs"):
        spearman([1, 2, 3], [1, 3, 2])
    with pytest.raises(InputError, match="at least 5 pairs"):
        kendall([1, 2, 3, 4], [1, 3, 2, 4])
    assert pearson([1, 2, 3], [1, 3, 2], confidence=None).ci is None
    assert spearman([1, 2, 3], [1, 3, 2], confidence=None).statistic == pytest.approx(0.5)
    assert (
        kendall([1, 2, 3, 4], [1, 3, 2, 4], ci_method="bootstrap", n_resamples=100).ci is not None
    )


def test_option_errors() -> None:
    x, y = [1, 2, 3, 4, 5], [2, 1, 4, 3, 5]
    bad = [
        lambda: pearson(x, y, alternative="two_sided"),
        lambda: pearson(x, y, confidence=1.0),
        lambda: pearson(x, y, confidence=0),
        lambda: spearman(x, y, ci_method="bca"),
        lambda: spearman(x, y, ci_method="bootstrap", n_resamples=0),
        lambda: spearman(x, y, ci_method="bootstrap", seed=-1),
        lambda: kendall(x, y, variant="a"),
        lambda: kendall(x, y, ci_method="fisher"),
        lambda: kendall(x, y, pvalue_method="permutation"),
        lambda: system_rank_correlation(x, y, method="pearson"),
    ]
    for call in bad:
        with pytest.raises(OptionError):
            call()
    assert issubclass(OptionError, AssayError) and issubclass(InputError, AssayError)


def test_system_rank_correlation_mappings_and_arrays() -> None:
    a = {"bm25": 0.21, "dense": 0.30, "splade": 0.33, "rm3": 0.24, "qld": 0.19, "colbert": 0.35}
    b = {"dense": 0.41, "bm25": 0.37, "qld": 0.30, "colbert": 0.52, "splade": 0.50, "rm3": 0.36}
    names = list(a)
    va = np.array([a[k] for k in names])
    vb = np.array([b[k] for k in names])
    res = system_rank_correlation(a, b)
    ref = kendall(va, vb)
    assert (res.statistic, res.pvalue, res.ci) == (ref.statistic, ref.pvalue, ref.ci)
    assert res.details["runs"] == names and res.details["system_method"] == "kendall"
    assert system_rank_correlation(va, vb).statistic == ref.statistic
    assert system_rank_correlation(va, vb).details["runs"] is None
    sp = system_rank_correlation(a, b, method="spearman")
    assert sp.statistic == pytest.approx(sps.spearmanr(va, vb).statistic, abs=1e-12)
    ap = system_rank_correlation(a, b, method="tau_ap")
    assert math.isnan(ap.pvalue)
    assert ap.statistic == pytest.approx(naive_tau_ap(va, vb), abs=1e-12)
    # options are passed on
    few = system_rank_correlation(
        {"r1": 1.0, "r2": 2.0, "r3": 3.0, "r4": 0.5},
        {"r1": 1.0, "r2": 3.0, "r3": 2.0, "r4": 0.1},
        confidence=None,
    )
    assert few.ci is None and few.statistic == pytest.approx(2 / 3)
    tied = system_rank_correlation(a, {**b, "rm3": 0.41}, method="tau_ap", ties="average")
    assert tied.details["ties"] == "average"


def test_system_rank_correlation_errors() -> None:
    with pytest.raises(InputError, match=r"missing from scores_b: c; missing from scores_a: d"):
        system_rank_correlation({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 2, "d": 3})
    with pytest.raises(InputError, match="both be mappings"):
        system_rank_correlation({"a": 1, "b": 2, "c": 3}, [1, 2, 3])
    with pytest.raises(InputError, match=r"scores_b\['b'\] is nan"):
        system_rank_correlation({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": float("nan"), "c": 3})
    with pytest.raises(InputError, match="not a number"):
        system_rank_correlation({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": "x", "c": 3})
    with pytest.raises(InputError, match="tied values"):
        system_rank_correlation({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 1, "c": 3}, method="tau_ap")
