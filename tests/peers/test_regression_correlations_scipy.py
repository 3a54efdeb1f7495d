"""The correlations of assay.regression's report against scipy where tests/test_regression.py
does not reach: constant targets or predictions (every coefficient and p-value NaN, as
scipy's) and Spearman's p-value, on random inputs."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import assay.regression as R

scipy_stats = pytest.importorskip("scipy.stats")

values = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


@st.composite
def samples(draw: Any, constant: str) -> tuple[np.ndarray, np.ndarray]:
    n = draw(st.integers(5, 25))
    y = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    p = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    c = draw(values)
    if constant in ("y", "both"):
        y = np.full(n, c)
    if constant in ("p", "both"):
        p = np.full(n, c)
    return y, p


@settings(max_examples=30, deadline=None)
@given(data=st.data(), constant=st.sampled_from(["y", "p", "both"]))
def test_constant_input_correlations_are_nan_like_scipy(data: Any, constant: str) -> None:
    y, p = data.draw(samples(constant))
    rep = R.regression_report(y, p, n_resamples=20, zero_target="nan")  # y may hold 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about constant input
        theirs = {
            "pearson": scipy_stats.pearsonr(y, p),
            "spearman": scipy_stats.spearmanr(y, p),
            "kendall": scipy_stats.kendalltau(y, p),
        }
    for name, res in theirs.items():
        assert math.isnan(res.statistic) and math.isnan(res.pvalue)
        ours = rep.correlations[name]
        assert math.isnan(ours.statistic) and math.isnan(ours.pvalue), name
        assert ours.provenance["constant_input"] is True
    # the error measures stay defined, as scikit-learn's
    assert rep["mae"] == pytest.approx(float(np.mean(np.abs(y - p))))


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_spearman_pvalue_equals_scipy(data: Any) -> None:
    y, p = data.draw(samples("none"))
    assume(not np.all(y == y[0]) and not np.all(p == p[0]))
    ours = R.regression_report(y, p, n_resamples=20, zero_target="nan").correlations["spearman"]
    theirs = scipy_stats.spearmanr(y, p)
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-9, abs=1e-12)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-6, abs=1e-12)
