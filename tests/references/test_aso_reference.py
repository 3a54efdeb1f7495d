"""assay.stats.aso against the literal ASO of references/slow_aso.py (one iteration and one
grid point at a time), on random score samples of every kind."""

from __future__ import annotations

import numpy as np
import pytest

from assay.stats import aso
from references.slow_aso import slow_aso, violation_ratio


def _sample(rng: np.random.Generator, case: int) -> tuple[np.ndarray, np.ndarray]:
    na, nb = (int(v) for v in rng.integers(1, 25, 2))
    kind = case % 5
    if kind == 0:  # close normal distributions
        return rng.normal(0.5, 0.1, na), rng.normal(0.52, 0.1, nb)
    if kind == 1:  # ties: scores on a coarse grid
        return rng.integers(0, 5, na) / 4, rng.integers(0, 5, nb) / 4
    if kind == 2:  # A dominates
        return rng.uniform(0.6, 0.9, na), rng.uniform(0.1, 0.5, nb)
    if kind == 3:  # identical samples
        a = rng.uniform(size=na)
        return a, a.copy()
    return rng.beta(2, 5, na), rng.beta(5, 2, nb)  # B dominates mostly


@pytest.mark.parametrize("case", range(25))
def test_aso_equals_the_literal_procedure(case: int) -> None:
    rng = np.random.default_rng(case)
    a, b = _sample(rng, case)
    level = float(rng.choice([0.9, 0.95, 0.99]))
    m = int(rng.integers(1, 5))
    seed = int(rng.integers(0, 1000))
    dt = float(rng.choice([0.005, 0.01, 0.05]))
    res = aso(
        a,
        b,
        confidence_level=level,
        num_comparisons=m,
        num_bootstrap_iterations=60,
        dt=dt,
        seed=seed,
    )
    expected = slow_aso(
        a.tolist(),
        b.tolist(),
        confidence_level=level,
        num_comparisons=m,
        iterations=60,
        dt=dt,
        seed=seed,
    )
    assert res.statistic == pytest.approx(expected, abs=1e-9)
    ratio = violation_ratio(a.tolist(), b.tolist(), dt)
    assert res.details["violation_ratio"] == pytest.approx(ratio, abs=1e-12)


def test_blocks_of_iterations_do_not_change_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.stats import stochastic_order

    rng = np.random.default_rng(5)
    a, b = rng.normal(0, 1, 40), rng.normal(0.2, 1, 30)
    whole = aso(a, b, num_bootstrap_iterations=50, seed=3)
    monkeypatch.setattr(stochastic_order, "_BLOCK_VALUES", 70 * 7)  # 7 iterations a block
    blocked = aso(a, b, num_bootstrap_iterations=50, seed=3)
    # the same draws; only the summation order of numpy's row sums may differ (last bits)
    assert blocked.statistic == pytest.approx(whole.statistic, rel=1e-12, abs=1e-15)
    assert blocked.details["sigma_hat"] == pytest.approx(whole.details["sigma_hat"], rel=1e-12)
    expected = slow_aso(a.tolist(), b.tolist(), iterations=50, seed=3)
    assert blocked.statistic == pytest.approx(expected, abs=1e-9)
