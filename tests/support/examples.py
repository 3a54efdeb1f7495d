"""Published worked examples used by more than one test file (oracles, CLI, unit tests)."""

from __future__ import annotations

import math

import numpy as np

nan = math.nan

# Manning, Raghavan & Schütze, Introduction to Information Retrieval (2008), §16.3, Figure
# 16.4: three clusters of 17 points, {5x, 1o}, {1x, 4o, 1◇}, {2x, 3◇}.
MRS_GOLD = ["x"] * 5 + ["o"] + ["x"] + ["o"] * 4 + ["d"] + ["x"] * 2 + ["d"] * 3
MRS_PRED = [1] * 6 + [2] * 6 + [3] * 5

# Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011), section C: 4 observers
# (A-D) x 12 units, values 1-5, "." missing. Stored here as units x observers.
KRIPP_2011 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],  # A
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],  # B
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],  # C
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],  # D
    ]
).T


def long_triples(matrix: np.ndarray) -> list[tuple[int, str, float]]:
    """A units x raters matrix as (unit, rater, value) triples, missing values left out."""
    return [
        (u, f"r{j}", float(matrix[u, j]))
        for u in range(matrix.shape[0])
        for j in range(matrix.shape[1])
        if not math.isnan(matrix[u, j])
    ]
