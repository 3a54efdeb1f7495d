"""assay.regression against scikit-learn and scipy on random inputs (constant targets and NaN
included)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import assay.regression as R
from assay.errors import InputError
from assay.metrics import load_families
from strategies.regression import pairs, values

load_families()


sk = pytest.importorskip("sklearn.metrics")


scipy_stats = pytest.importorskip("scipy.stats")


#: assay measure -> scikit-learn function
SKLEARN = {
    "mse": "mean_squared_error",
    "rmse": "root_mean_squared_error",
    "mae": "mean_absolute_error",
    "median_absolute_error": "median_absolute_error",
    "max_error": "max_error",
    "r2": "r2_score",
    "explained_variance": "explained_variance_score",
}


def _sk(name: str, y: np.ndarray, p: np.ndarray, **kw: Any) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(getattr(sk, SKLEARN[name])(y, p, **kw))


@settings(max_examples=60, deadline=None)
@given(pairs())
def test_measures_equal_sklearn(data: tuple[np.ndarray, np.ndarray]) -> None:
    y, p = data
    for name in ("mse", "rmse", "mae", "median_absolute_error", "max_error"):
        assert getattr(R, name)(y, p) == pytest.approx(_sk(name, y, p), rel=1e-12, abs=1e-12), name
    assert R.mape(y, p, zero_target="eps") == pytest.approx(
        float(sk.mean_absolute_percentage_error(y, p)), rel=1e-12, abs=1e-12
    )
    exact_mean = float(np.mean(y)) == y[0] or not np.all(y == y[0])
    for name in ("r2", "explained_variance"):
        ours = getattr(R, name)(y, p)
        if len(y) < 2:
            continue  # scikit-learn: R² of one sample is undefined (a warning and NaN)
        if exact_mean:  # scikit-learn sees the constant target as constant too
            assert ours == pytest.approx(_sk(name, y, p), rel=1e-9, abs=1e-9), name


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20), values, st.sampled_from(["exact", "off"]))
def test_constant_targets_follow_the_declared_rule(n: int, c: float, kind: str) -> None:
    y = np.full(n, c)
    p = y.copy() if kind == "exact" else y + np.linspace(1, 2, n)
    perfect = kind == "exact"
    for name in ("r2", "explained_variance"):
        f = getattr(R, name)
        assert f(y, p) == (1.0 if perfect else 0.0)
        assert math.isnan(f(y, p, constant_target="nan"))
        with pytest.raises(InputError, match="constant"):
            f(y, p, constant_target="error")
        if float(np.mean(y)) == c:  # scikit-learn's force_finite rule is the same
            assert f(y, p) == _sk(name, y, p)
            raw = _sk(name, y, p, force_finite=False)
            assert not math.isfinite(raw)


def test_constant_target_with_an_inexact_mean_diverges_from_sklearn_on_purpose() -> None:
    y = np.full(3, 0.1)  # float mean 0.10000000000000002: scikit-learn divides by ~1e-33
    p = np.array([0.1, 0.2, 0.3])
    assert np.mean(y) != 0.1
    assert _sk("r2", y, p) < -1e20
    assert R.r2(y, p) == 0.0


@settings(max_examples=40, deadline=None)
@given(
    pairs(min_n=2),
    st.integers(0, 24),
    st.sampled_from([math.nan, math.inf, -math.inf]),
    st.booleans(),
)
def test_nan_and_infinity_are_errors_like_sklearn(
    data: tuple[np.ndarray, np.ndarray], where: int, bad: float, in_pred: bool
) -> None:
    y, p = (a.copy() for a in data)
    i = where % len(y)
    (p if in_pred else y)[i] = bad
    name = "y_pred" if in_pred else "y_true"
    for measure in (
        "mse",
        "rmse",
        "mae",
        "median_absolute_error",
        "max_error",
        "r2",
        "explained_variance",
        "mape",
    ):
        with pytest.raises(InputError, match=rf"{name}\[{i}\]"):
            getattr(R, measure)(y, p)
    with pytest.raises(ValueError):  # scikit-learn refuses them as well
        sk.mean_squared_error(y, p)
    with pytest.raises(InputError):
        R.regression_report(y, p)


@settings(max_examples=30, deadline=None)
@given(pairs(min_n=5, max_n=30))
def test_report_correlations_equal_scipy(data: tuple[np.ndarray, np.ndarray]) -> None:
    y, p = data
    assume(not np.all(y == y[0]) and not np.all(p == p[0]))
    rep = R.regression_report(y, p, n_resamples=50, zero_target="nan")  # zeros: MAPE NaN
    pr = scipy_stats.pearsonr(y, p)
    assert rep["pearson"] == pytest.approx(pr.statistic, rel=1e-9, abs=1e-12)
    assert rep.correlations["pearson"].pvalue == pytest.approx(pr.pvalue, rel=1e-6, abs=1e-12)
    low, high = pr.confidence_interval(0.95)
    assert rep.correlations["pearson"].ci == pytest.approx((low, high), rel=1e-6, abs=1e-9)
    sr = scipy_stats.spearmanr(y, p)
    assert rep["spearman"] == pytest.approx(sr.statistic, rel=1e-9, abs=1e-12)
    kt = scipy_stats.kendalltau(y, p)
    assert rep["kendall"] == pytest.approx(kt.statistic, rel=1e-9, abs=1e-12)
    assert rep.correlations["kendall"].pvalue == pytest.approx(kt.pvalue, rel=1e-6, abs=1e-12)


def test_mape_zero_target_rules() -> None:
    y, p = np.array([0.0, 2.0, 4.0]), np.array([1.0, 1.0, 5.0])
    assert R.mape(y, p, zero_target="skip") == pytest.approx((0.5 + 0.25) / 2)
    assert math.isnan(R.mape(y, p, zero_target="nan"))
    assert R.mape(y, p, zero_target="eps") == float(sk.mean_absolute_percentage_error(y, p))
    assert math.isnan(R.mape([0.0, 0.0], [1.0, 1.0], zero_target="skip"))
