"""assay.regression as an API: the registered family, bad input, the report's records and
provenance, model comparisons through the paired tests."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import assay.regression as R
from assay import stats
from assay._result import ResultLike
from assay.errors import EmptyInputError, InputError
from assay.metrics import FAMILIES, REGISTRY, load_families

load_families()


def test_regression_is_a_registered_family() -> None:
    assert "regression" in FAMILIES
    names = {s.name for s in REGISTRY.specs("regression")}
    assert names == {
        "mse",
        "rmse",
        "mae",
        "median_absolute_error",
        "max_error",
        "mape",
        "r2",
        "explained_variance",
    }
    assert REGISTRY.lookup("r2_score", "regression").name == "r2"
    assert REGISTRY.lookup("mean_absolute_error", "regression").name == "mae"


def test_bad_input_is_one_clear_error() -> None:
    with pytest.raises(EmptyInputError):
        R.mse([], [])
    with pytest.raises(InputError, match="y_true has 2 values but y_pred has 3"):
        R.mae([1, 2], [1, 2, 3])
    with pytest.raises(InputError, match="real numbers"):
        R.mse(["1", "2"], [1, 2])
    with pytest.raises(InputError, match="one-dimensional"):
        R.r2([[1, 2]], [[1, 2]])


def test_report_records_items_and_provenance() -> None:
    rng = np.random.default_rng(0)
    y = rng.normal(size=30) + 5
    p = y + rng.normal(size=30) * 0.3
    p[3] = y[3]
    y[7] = 0.0
    rep = R.regression_report(y, p, n_resamples=500, seed=3, zero_target="nan")
    assert math.isnan(rep["mape"]) and rep.n_zero_targets == 1
    names = [r["measure"] for r in rep.records()]
    assert names[:8] == [
        "mse",
        "rmse",
        "mae",
        "median_absolute_error",
        "max_error",
        "mape",
        "r2",
        "explained_variance",
    ] and names[8:] == ["pearson", "spearman", "kendall"]
    mae = next(r for r in rep.records() if r["measure"] == "mae")
    low, high = stats.bootstrap_ci(np.abs(p - y), n_resamples=500, seed=3).ci  # type: ignore[misc]
    assert (mae["ci_low"], mae["ci_high"]) == pytest.approx((low, high), rel=1e-12)
    rmse_row = next(r for r in rep.records() if r["measure"] == "rmse")
    mse_row = next(r for r in rep.records() if r["measure"] == "mse")
    assert rmse_row["ci_low"] == pytest.approx(math.sqrt(mse_row["ci_low"]))
    items = rep.item_records()
    assert len(items) == 30 and items[3]["abs_error"] == 0.0
    assert items[0]["residual"] == pytest.approx(p[0] - y[0])
    assert math.isnan(items[7]["percentage_error"])
    assert rep.provenance["seed"] == 3 and rep.provenance["zero_target"] == "nan"
    assert isinstance(rep, ResultLike) and len(rep.to_pandas()) == 11
    with pytest.raises(dataclasses.FrozenInstanceError):
        rep.n = 2  # type: ignore[misc]


def test_report_small_samples() -> None:
    rep = R.regression_report([1.0, 2.0], [1.5, 2.5])
    assert (
        math.isnan(rep["pearson"]) and "at least 3" in rep.correlations["pearson"].details["reason"]
    )
    rep4 = R.regression_report([1.0, 2.0, 4.0, 3.0], [1.5, 2.5, 3.0, 3.5])
    assert rep4.correlations["pearson"].ci is not None and rep4.correlations["kendall"].ci is None
    one = R.regression_report([1.0], [2.0])
    assert math.isnan(one.intervals["mae"][0]) and one["mae"] == 1.0


@pytest.mark.parametrize("test", ["randomization", "t", "wilcoxon", "sign", "bootstrap"])
@pytest.mark.parametrize("loss", ["squared", "absolute"])
def test_compare_models_uses_the_paired_tests(test: str, loss: str) -> None:
    rng = np.random.default_rng(1)
    y = rng.normal(size=40)
    preds = {
        "a": y + rng.normal(size=40),
        "b": y + 0.6 * rng.normal(size=40),
        "c": y + 1.1 * rng.normal(size=40),
    }
    cmp = R.compare_models(y, preds, loss=loss, test=test, n_resamples=999, seed=4)  # type: ignore[arg-type]
    lossf = (lambda v: (v - y) ** 2) if loss == "squared" else (lambda v: np.abs(v - y))
    diffs = np.vstack([lossf(preds[m]) - lossf(preds["a"]) for m in ("b", "c")])
    raw = stats.paired_pvalues(diffs, test=test, n_resamples=999, seed=4)
    adjusted = stats.correct(raw, correction="holm")
    assert [p.p_value for p in cmp.pairs] == raw.tolist()
    assert [p.p_adjusted for p in cmp.pairs] == adjusted.tolist()
    for p, d in zip(cmp.pairs, diffs, strict=True):
        assert p.diff == pytest.approx(d.mean())
        assert (p.wins, p.losses, p.ties) == (
            int((d < 0).sum()),
            int((d > 0).sum()),
            int((d == 0).sum()),
        )
        assert p.significant == (p.p_adjusted < 0.05)
    expected_measure = R.mse if loss == "squared" else R.mae
    assert cmp.mean_loss["b"] == pytest.approx(expected_measure(y, preds["b"]))
    assert len(cmp.records()) == 5
    assert isinstance(cmp, ResultLike) and cmp.provenance["test"] == test


def test_compare_models_baseline_and_errors() -> None:
    y = [1.0, 2.0, 3.0, 4.0]
    preds = {"a": [1.1, 2.0, 2.9, 4.2], "b": [1.0, 2.0, 3.0, 4.0]}
    cmp = R.compare_models(y, preds, baseline="b")
    assert cmp.baseline == "b" and cmp.pair("a").system == "a"
    assert R.compare_models(y, [preds["a"], preds["b"]]).models == ["model1", "model2"]
    with pytest.raises(InputError, match="baseline 'z'"):
        R.compare_models(y, preds, baseline="z")
    with pytest.raises(InputError, match="at least two models"):
        R.compare_models(y, {"a": preds["a"]})
    with pytest.raises(InputError, match="model 'b' has 3"):
        R.compare_models(y, {"a": preds["a"], "b": [1.0, 2.0, 3.0]})
    with pytest.raises(InputError, match=r"predictions\['b'\]\[1\] is nan"):
        R.compare_models(y, {"a": preds["a"], "b": [1.0, math.nan, 3.0, 4.0]})
