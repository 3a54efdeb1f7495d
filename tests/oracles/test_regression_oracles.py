"""assay.regression against the NIST Norris certified values and the upstream scikit-learn and
scipy test values in ../shared/data/regression."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import assay.regression as R
from assay.errors import InputError
from assay.metrics import load_families
from conftest import shared_file

load_families()


def _norris() -> tuple[np.ndarray, np.ndarray]:
    lines = shared_file("regression", "Norris.dat").read_text(encoding="utf-8").splitlines()
    start = max(i for i, line in enumerate(lines) if line.strip().startswith("Data:"))
    rows = [tuple(map(float, line.split())) for line in lines[start + 1 :] if line.strip()]
    data = np.array(rows)
    assert data.shape == (36, 2)
    return data[:, 0], data[:, 1]


def test_norris_certified_values() -> None:
    expected = json.loads(shared_file("regression", "expected_norris.json").read_text("utf-8"))
    cert = expected["certified"]
    y, x = _norris()
    fit = cert["B0"] + cert["B1"] * x
    assert R.r2(y, fit) == pytest.approx(cert["r_squared"], abs=1e-12)
    assert R.mse(y, fit) * 36 == pytest.approx(cert["ss_residual"], rel=1e-9)
    for name, value in expected["y_pred_from_certified_coefficients"]["metrics"].items():
        ours = {
            "mean_squared_error": R.mse,
            "root_mean_squared_error": R.rmse,
            "mean_absolute_error": R.mae,
            "median_absolute_error": R.median_absolute_error,
            "max_error": R.max_error,
            "r2_score": R.r2,
            "explained_variance_score": R.explained_variance,
            "mean_absolute_percentage_error": R.mape,
        }[name](y, fit)
        assert ours == pytest.approx(value, rel=1e-12), name
    corr = expected["y_pred_from_certified_coefficients"]["corr"]
    rep = R.regression_report(y, fit, n_resamples=200)
    assert rep["pearson"] == pytest.approx(corr["pearson_r"], rel=1e-13)
    assert rep.correlations["pearson"].ci == pytest.approx(corr["pearson_ci95_fisher_z"], rel=1e-12)
    assert rep["spearman"] == pytest.approx(corr["spearman_rho"], rel=1e-13)
    assert rep.correlations["spearman"].pvalue == pytest.approx(
        corr["spearman_p_two_sided"], rel=1e-9
    )
    assert rep["kendall"] == pytest.approx(corr["kendall_tau_b"], rel=1e-13)
    assert rep.correlations["kendall"].pvalue == pytest.approx(corr["kendall_tau_b_p"], rel=1e-9)


def test_upstream_sklearn_cases() -> None:
    fixtures = json.loads(
        shared_file("regression", "upstream_test_fixtures.json").read_text("utf-8")
    )
    cases = {c["test"]: c for c in fixtures["sklearn"]["cases"]}
    y = np.arange(50.0)
    p = y + 1
    exp = cases["test_regression_metrics"]["expected"]
    assert R.mse(y, p) == exp["mean_squared_error"] and R.mae(y, p) == exp["mean_absolute_error"]
    assert R.median_absolute_error(y, p) == exp["median_absolute_error"]
    assert R.max_error(y, p) == exp["max_error"]
    assert round(R.r2(y, p), 3) == exp["r2_score_2dp"]
    assert R.explained_variance(y, p) == exp["explained_variance_score"]
    assert R.mape(y, p, zero_target="eps") > 1e6  # y_true holds 0: scikit-learn's epsilon rule
    with pytest.raises(InputError, match=r"y_true\[0\] is 0"):
        R.mape(y, p)
    # multi-output case: assay is single-output; the uniform average over the columns
    multi = cases["test_multioutput_regression"]
    yt, yp = np.array(multi["y_true"], float), np.array(multi["y_pred"], float)
    cols = range(yt.shape[1])
    mexp = multi["expected"]
    assert np.mean([R.mse(yt[:, j], yp[:, j]) for j in cols]) == pytest.approx(
        mexp["mean_squared_error"]
    )
    assert (
        np.mean([R.median_absolute_error(yt[:, j], yp[:, j]) for j in cols])
        == mexp["median_absolute_error"]
    )
    assert np.mean([R.r2(yt[:, j], yp[:, j]) for j in cols]) == pytest.approx(
        mexp["r2_score_uniform_average (force_finite=True)"]
    )
    assert math.isnan(np.mean([R.r2(yt[:, j], yp[:, j], constant_target="nan") for j in cols]))
    # constant targets and limits
    assert R.r2([5.0, 5.0], [5.0, 5.0]) == 1.0 and R.r2([5.0, 5.0], [5.0, 5.1]) == 0.0
    assert (
        R.r2([0.0, 0.0], [1.0, -1.0]) == 0.0
        and R.explained_variance([0.0, 0.0], [1.0, -1.0]) == 0.0
    )
    assert R.explained_variance([0.0], [0.0]) == 1.0
    for f in (R.mse, R.mae, R.median_absolute_error, R.max_error):
        assert f([0.0], [0.0]) == 0.0
    assert math.isnan(R.mape([0.0], [0.0], zero_target="nan"))
    assert R.mape([0.0], [0.0], zero_target="eps") == 0.0


def test_upstream_scipy_correlation_case() -> None:
    fixtures = json.loads(
        shared_file("regression", "upstream_test_fixtures.json").read_text("utf-8")
    )
    case = fixtures["scipy"]["cases"][0]
    rep = R.regression_report(case["x"], case["y"], n_resamples=100)
    two = case["by_alternative"]["two-sided"]
    assert rep["pearson"] == pytest.approx(case["statistic"], rel=1e-12)
    assert rep.correlations["pearson"].pvalue == pytest.approx(two["p"], rel=1e-6)
    assert rep.correlations["pearson"].ci == pytest.approx(two["ci"], rel=1e-6)
