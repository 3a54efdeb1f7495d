"""Discriminative power against Sakai's procedure written pair by pair (sakai_bootstrap.py),
with the same resample indices; the Tukey column against assay.stats.tukey_hsd."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from sakai_bootstrap import sakai_pair

from assay.meta import discriminative_power
from assay.stats import tukey_hsd
from strategies.meta import score_matrices


@settings(max_examples=40, deadline=None)
@given(x=score_matrices())
def test_bootstrap_asl_and_difference_equal_sakais_procedure(x):
    b, seed, alpha = 200, 7, 0.05
    res = discriminative_power({"m": x}, test="bootstrap", n_resamples=b, seed=seed, alpha=alpha)
    idx = np.random.default_rng(seed).integers(0, x.shape[0], (b, x.shape[0]))
    i, j = np.triu_indices(x.shape[1], 1)
    expect = [sakai_pair(x[:, a], x[:, c], idx, alpha) for a, c in zip(i, j, strict=True)]
    asl = res.asl[("bootstrap", "m")]
    assert asl == pytest.approx([e[0] for e in expect])
    deltas = [e[1] for e in expect if not math.isnan(e[1])]
    need = res.diff_required[("bootstrap", "m")]
    if deltas:
        assert need == pytest.approx(max(deltas))
    assert res.power[("bootstrap", "m")] == pytest.approx(np.mean(asl < alpha))


def test_tukey_column_is_assay_stats_tukey_hsd():
    rng = np.random.default_rng(3)
    x = rng.random((25, 4)) + np.array([0.0, 0.05, 0.2, 0.4])
    res = discriminative_power({"m": x}, test="tukey", n_resamples=500, seed=11)
    hsd = tukey_hsd(x, n_resamples=500, seed=11)
    i, j = np.triu_indices(4, 1)
    assert res.asl[("tukey", "m")] == pytest.approx(hsd.pvalues[i, j])
    sig = hsd.pvalues[i, j] < 0.05
    diffs = np.abs(x.mean(0)[i] - x.mean(0)[j])
    assert res.diff_required[("tukey", "m")] == pytest.approx(diffs[sig].min())
    assert res.diff_not_significant[("tukey", "m")] == pytest.approx(diffs[~sig].max())


def test_one_resample_matrix_is_shared_by_metrics_and_pairs():
    rng = np.random.default_rng(0)
    x = rng.random((30, 3))
    both = discriminative_power({"a": x, "b": x * 2}, test="bootstrap", n_resamples=300, seed=5)
    # t is scale-free: a metric scaled by 2 has the same ASLs under the shared resamples
    assert both.asl[("bootstrap", "a")] == pytest.approx(both.asl[("bootstrap", "b")])
    assert both.diff_required[("bootstrap", "b")] == pytest.approx(
        2 * both.diff_required[("bootstrap", "a")]
    )
