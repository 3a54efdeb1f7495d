"""assay.stats.aso against deepsig 1.2.8's ``aso`` and ``multi_aso`` (Ulmer et al. 2022) on
random score samples: different sizes and distributions, ties, identical inputs, one
sample dominating the other, constant scores, several confidence levels and numbers of
comparisons, with the same seed and iterations.

Tolerance: deepsig's own tests allow ε_min to move by 0.12 between two seeded runs that split
the iterations differently (``test_aso.py``, ``delta=0.12``) and the extreme cases to sit
within 0.001-0.01 of 0 and 1. assay draws the same uniforms as deepsig (the legacy Mersenne
Twister reseeded with seed + i at iteration i, A's draws then B's) and computes the same
quantities in the same order, so the agreement asked here is far tighter: 1e-12 (the rest is
the order of floating-point sums).

One deliberate difference, tested below: with m > 2 comparisons deepsig's level is
γ + (1 − γ)/m, assay's Bonferroni's 1 − (1 − γ)/m (equal for m = 2); deepsig's value is
assay's with ``confidence_level=γ + (1 − γ)/m`` and one comparison.
"""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

from assay.stats import aso

deepsig = pytest.importorskip("deepsig")

#: deepsig's module (``deepsig.aso`` is the function: the package re-exports it by that name).
DEEPSIG_ASO = importlib.import_module("deepsig.aso")

TOL = 1e-12


def _theirs(a: np.ndarray, b: np.ndarray, **kwargs: object) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # division by zero, confidence below 0.95
        return float(deepsig.aso(a, b, show_progress=False, num_jobs=1, **kwargs))


def _case(rng: np.random.Generator, case: int) -> tuple[np.ndarray, np.ndarray]:
    na, nb = (int(v) for v in rng.integers(1, 40, 2))
    kind = case % 8
    if kind == 0:
        return rng.normal(0.5, 0.1, na), rng.normal(0.5, 0.15, nb)
    if kind == 1:  # heavy ties
        return rng.integers(0, 4, na) / 3, rng.integers(0, 4, nb) / 3
    if kind == 2:  # A far above B: stochastic dominance
        return rng.uniform(5, 6, na), rng.uniform(0, 1, nb)
    if kind == 3:  # B far above A
        return rng.uniform(0, 1, na), rng.uniform(5, 6, nb)
    if kind == 4:  # identical samples
        a = rng.normal(size=na)
        return a, a.copy()
    if kind == 5:  # constant scores
        return np.full(na, 0.3), np.full(nb, 0.3 if case % 16 == 5 else 0.4)
    if kind == 6:  # skewed, rounded like reported metrics
        return rng.beta(2, 5, na).round(3), rng.beta(3, 5, nb).round(3)
    return rng.exponential(1.0, na), rng.normal(1.0, 0.5, nb)


@pytest.mark.parametrize("case", range(48))
def test_aso_matches_deepsig(case: int) -> None:
    rng = np.random.default_rng(1000 + case)
    a, b = _case(rng, case)
    settings = {
        "confidence_level": float(rng.choice([0.9, 0.95, 0.99])),
        "num_comparisons": int(rng.integers(1, 6)),
        "num_bootstrap_iterations": int(rng.integers(10, 60)),
        "seed": int(rng.integers(0, 10_000)),
    }
    ours = aso(a, b, **settings)
    m = settings["num_comparisons"]
    # the same level on both sides: Bonferroni's, given to deepsig as one comparison
    theirs = {
        **settings,
        "num_comparisons": 1,
        "confidence_level": ours.details["confidence_level"],
    }
    assert ours.statistic == pytest.approx(_theirs(a, b, **theirs), abs=TOL)
    if m <= 2:  # there deepsig's adjustment is Bonferroni's
        assert ours.statistic == pytest.approx(_theirs(a, b, **settings), abs=TOL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ratio = DEEPSIG_ASO.compute_violation_ratio(a, b, dt=0.005)
    assert ours.details["violation_ratio"] == pytest.approx(ratio, abs=TOL)


@pytest.mark.parametrize("dt", [0.001, 0.01, 0.05])
def test_aso_matches_deepsig_on_other_grids(dt: float) -> None:
    rng = np.random.default_rng(7)
    a, b = rng.normal(0.0, 1.0, 25), rng.normal(0.3, 1.0, 18)
    ours = aso(a, b, num_bootstrap_iterations=50, dt=dt, seed=11)
    assert ours.statistic == pytest.approx(
        _theirs(a, b, num_bootstrap_iterations=50, dt=dt, seed=11), abs=TOL
    )


@pytest.mark.slow  # deepsig takes ~10 s for its default 1,000 iterations
def test_aso_matches_deepsig_at_its_default_iterations() -> None:
    rng = np.random.default_rng(3)
    a, b = rng.normal(0.70, 0.02, 10), rng.normal(0.69, 0.03, 10)
    assert aso(a, b, seed=0).statistic == pytest.approx(_theirs(a, b, seed=0), abs=TOL)


def test_deepsig_adjustment_differs_from_bonferroni_beyond_two_comparisons() -> None:
    rng = np.random.default_rng(9)
    a, b = rng.normal(0.5, 0.1, 20), rng.normal(0.5, 0.1, 20)
    level = 0.95 + 0.05 / 5  # deepsig's level for m = 5
    theirs = _theirs(a, b, num_comparisons=5, num_bootstrap_iterations=40, seed=2)
    same = aso(a, b, confidence_level=level, num_bootstrap_iterations=40, seed=2)
    assert same.statistic == pytest.approx(theirs, abs=TOL)
    ours = aso(a, b, num_comparisons=5, num_bootstrap_iterations=40, seed=2)
    assert ours.details["confidence_level"] == pytest.approx(0.99)
    assert ours.statistic > theirs  # Bonferroni's level is higher: a larger upper bound


def test_multi_aso_upper_triangle_is_aso_at_its_level() -> None:
    rng = np.random.default_rng(4)
    scores = {
        "a": rng.normal(0.5, 0.1, 12),
        "b": rng.normal(0.55, 0.1, 9),
        "c": rng.normal(0.6, 0.05, 15),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        matrix = deepsig.multi_aso(
            scores, num_bootstrap_iterations=60, seed=5, show_progress=False, num_jobs=1
        )
    names = list(scores)
    for i, first in enumerate(names):
        for j in range(i + 1, len(names)):
            ours = aso(
                scores[first],
                scores[names[j]],
                confidence_level=0.95 + 0.05 / 3,  # multi_aso's level for its 3 pairs
                num_bootstrap_iterations=60,
                seed=5,
            )
            assert ours.statistic == pytest.approx(matrix[i, j], abs=TOL)


def test_deepsig_extreme_cases() -> None:
    # deepsig's own oracle cases: A against A + 1e-8 violates order almost totally
    # (ε_min ≈ 1 within 0.001), and A far above B is stochastic order (ε_min ≈ 0 within 0.01).
    rng = np.random.default_rng(8)
    a, b = rng.normal(size=200), rng.normal(size=200)
    assert aso(a, a + 1e-8, num_bootstrap_iterations=200).statistic == pytest.approx(1, abs=1e-3)
    far = rng.normal(5, 0.1, 200)
    assert aso(far, b, num_bootstrap_iterations=200).statistic == pytest.approx(0, abs=1e-2)
