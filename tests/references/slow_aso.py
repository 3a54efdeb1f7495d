"""Almost Stochastic Order written out literally, one bootstrap iteration and one grid point
at a time: the empirical quantile function F⁻¹(t) = the ⌈n·t⌉-th smallest score (del Barrio
et al. 2018), the violation ratio on the grid t = dt, 2·dt, … < 1 with the numerator
skipping t = dt (deepsig 1.2.8's reading), the bootstrap of Dror et al. (2019) drawing from
the quantile functions with the legacy Mersenne Twister seeded ``seed + i`` at iteration i,
and ε_min = clip(ratio − σ̂·Φ⁻¹(1 − γ)/√(n_a·n_b/(n_a+n_b)), 0, 1), γ Bonferroni-adjusted
to 1 − (1 − γ)/m for m comparisons."""

from __future__ import annotations

import math
import statistics

import numpy as np


def quantile(sorted_scores: list[float], t: float) -> float:
    n = len(sorted_scores)
    k = math.ceil(n * t)  # the k-th smallest, 1-based; t = 0 gives the smallest
    return sorted_scores[min(max(k, 1), n) - 1]


def violation_ratio(a: list[float], b: list[float], dt: float) -> float:
    sa, sb = sorted(a), sorted(b)
    grid = np.arange(dt, 1, dt).tolist()
    total = 0.0
    violated = 0.0
    for j, t in enumerate(grid):
        f, g = quantile(sa, t), quantile(sb, t)
        total += (g - f) ** 2 * dt
        if f < g and j > 0:
            violated += (g - f) ** 2 * dt
    return 0.5 if total == 0 else violated / total


def slow_aso(
    a: list[float],
    b: list[float],
    *,
    confidence_level: float = 0.95,
    num_comparisons: int = 1,
    iterations: int = 1000,
    dt: float = 0.005,
    seed: int = 0,
) -> float:
    # Bonferroni: each of the m comparisons at the error rate (1 - γ) / m
    confidence_level = 1 - (1 - confidence_level) / num_comparisons
    ratio = violation_ratio(a, b, dt)
    sa, sb = sorted(a), sorted(b)
    const = math.sqrt(len(a) * len(b) / (len(a) + len(b)))
    centred = []
    for i in range(1, iterations + 1):
        rng = np.random.RandomState(seed + i)
        ua = rng.uniform(0, 1, len(a)).tolist()
        ub = rng.uniform(0, 1, len(b)).tolist()
        ra = [quantile(sa, u) for u in ua]
        rb = [quantile(sb, u) for u in ub]
        centred.append(const * (violation_ratio(ra, rb, dt) - ratio))
    sigma = statistics.pstdev(centred)
    z = statistics.NormalDist().inv_cdf(1 - confidence_level)
    return min(1.0, max(0.0, ratio - sigma * z / const))
