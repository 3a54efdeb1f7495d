"""Bootstrap intervals against scipy.stats.bootstrap: the same resample stream for the same seed
(equal to rounding), independent streams within Monte Carlo error."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as st

from assay import stats as S


def _scipy_bootstrap(data, statistic, seed, method, n_resamples, paired=False):
    res = st.bootstrap(
        data,
        statistic,
        n_resamples=n_resamples,
        method=method,
        paired=paired,
        rng=np.random.default_rng(seed),
    )
    return res.confidence_interval.low, res.confidence_interval.high


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_bootstrap_reproduces_scipy_stream(method: str) -> None:
    """Same seed, same resample indices as scipy.stats.bootstrap: equal to rounding."""
    rng = np.random.default_rng(21)
    x = rng.gamma(2.0, 1.0, size=40)
    y = 0.5 * x + rng.normal(size=40)
    pearson = lambda u, v, axis=-1: st.pearsonr(u, v, axis=axis)[0]  # noqa: E731
    cases = [
        ((x,), np.mean, x, np.mean),
        ((x,), np.median, x, np.median),
        ((x,), np.std, x, lambda v: float(np.std(v))),  # the row-by-row path
        ((x, y), pearson, (x, y), pearson),
    ]
    for data, ref_stat, ours, our_stat in cases:
        ref = _scipy_bootstrap(data, ref_stat, 5, method, 4000, paired=len(data) == 2)
        res = S.bootstrap_ci(ours, our_stat, n_resamples=4000, seed=5, ci_method=method)
        assert res.ci == pytest.approx(ref, rel=1e-12, abs=1e-14), (ref_stat, method)
        assert math.isnan(res.pvalue)
        assert res.details["ci_method"] == method


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("seed", range(3))
def test_bootstrap_within_monte_carlo_error_of_scipy(method: str, seed: int) -> None:
    """Independent streams (seed vs seed + 1000) with 20000 resamples: endpoints within 5% of
    the interval width (about 7 standard errors of the difference of two estimates)."""
    rng = np.random.default_rng(seed)
    x = rng.exponential(size=60)
    ref = _scipy_bootstrap((x,), np.mean, seed + 1000, method, 20000)
    res = S.bootstrap_ci(x, n_resamples=20000, seed=seed, ci_method=method)
    width = ref[1] - ref[0]
    assert abs(res.ci[0] - ref[0]) < 0.05 * width
    assert abs(res.ci[1] - ref[1]) < 0.05 * width
