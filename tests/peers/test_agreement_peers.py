"""Inter-rater reliability against the krippendorff package, scikit-learn's cohen_kappa_score
and statsmodels' fleiss_kappa."""

from __future__ import annotations

import numpy as np
import pytest

from assay import agreement as ag
from strategies.agreement import random_ratings


@pytest.mark.parametrize("level", ag.LEVELS)
@pytest.mark.parametrize("seed", range(4))
def test_against_krippendorff_package(level: str, seed: int) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(seed)
    x = random_ratings(rng, int(rng.integers(5, 200)), int(rng.integers(2, 7)), 6)
    if level == "ratio":
        x = x - 1.0  # include zero
    want = krippendorff.alpha(reliability_data=x.T, level_of_measurement=level)
    assert float(ag.krippendorff_alpha(x, level=level)) == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_many_values_sparse_path_against_package() -> None:
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(7)
    base = 2 * rng.normal(size=(1000, 1))
    x = np.round(base + 0.3 * rng.normal(size=(1000, 3)), 1)
    x[rng.random(x.shape) < 0.1] = np.nan
    for level in ("interval", "nominal"):
        want = krippendorff.alpha(reliability_data=x.T, level_of_measurement=level)
        assert float(ag.krippendorff_alpha(x, level=level)) == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
@pytest.mark.parametrize("seed", range(5))
def test_cohen_against_sklearn(weights: str | None, seed: int) -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 5, 100)
    b = np.where(rng.random(100) < 0.6, a, rng.integers(0, 5, 100))
    want = metrics.cohen_kappa_score(a, b, weights=weights)
    assert float(ag.cohen_kappa(a, b, weights=weights)) == pytest.approx(want)
    labels = [4, 3, 2, 1, 0, 7]
    want = metrics.cohen_kappa_score(a, b, weights=weights, labels=labels)
    assert float(ag.cohen_kappa(a, b, weights=weights, labels=labels)) == pytest.approx(want)


@pytest.mark.parametrize("seed", range(5))
def test_fleiss_randolph_against_statsmodels(seed: int) -> None:
    irr = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, size=(60, 6))
    x = np.where(rng.random(x.shape) < 0.5, x[:, :1], x)
    table, _ = irr.aggregate_raters(x)
    assert float(ag.fleiss_kappa(x)) == pytest.approx(irr.fleiss_kappa(table, method="fleiss"))
    assert float(ag.fleiss_kappa(table, counts=True)) == pytest.approx(
        irr.fleiss_kappa(table, method="fleiss")
    )
    assert float(ag.randolph_kappa(x)) == pytest.approx(irr.fleiss_kappa(table, method="randolph"))
