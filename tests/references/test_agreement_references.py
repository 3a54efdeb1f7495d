"""Krippendorff's alpha bootstrap against a naive unit bootstrap written here."""

from __future__ import annotations

import numpy as np
import pytest

from assay import agreement as ag
from strategies.agreement import random_ratings


@pytest.mark.parametrize("level", ag.LEVELS)
def test_bootstrap_matches_naive_unit_bootstrap(level: str) -> None:
    rng = np.random.default_rng(3)
    x = random_ratings(rng, 80, 4, 5)
    bs = ag.alpha_bootstrap(x, level=level, n_resamples=1500, seed=1)
    assert float(bs) == pytest.approx(float(ag.krippendorff_alpha(x, level=level)))
    pairable = x[(~np.isnan(x)).sum(axis=1) >= 2]
    naive = []
    g = np.random.default_rng(99)
    for _ in range(600):
        sample = pairable[g.integers(0, len(pairable), len(pairable))]
        naive.append(float(ag.krippendorff_alpha(sample, level=level)))
    assert np.nanmedian(bs.samples) == pytest.approx(np.median(naive), abs=0.02)
    assert np.nanstd(bs.samples) == pytest.approx(np.std(naive), rel=0.15)
    lo, hi = bs.ci
    assert lo < float(bs) < hi
    assert set(bs.probabilities) == {0.667, 0.8}
