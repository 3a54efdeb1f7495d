"""Ratings for inter-rater agreement: units x raters matrices with missing values."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from assay.metrics import MetricSpec


@st.composite
def ratings(draw: Any, spec: MetricSpec, options: dict[str, Any]) -> tuple[Any, ...]:
    """A units x raters matrix of values 0..4 with missing values (the first unit complete, two
    distinct values at least), as a count table when ``counts=True``."""
    units, raters = draw(st.integers(1, 12)), draw(st.integers(2, 5))
    cells = st.integers(0, 4).map(float) | st.just(math.nan)
    x = np.array(draw(st.lists(cells, min_size=units * raters, max_size=units * raters)))
    x = x.reshape(units, raters)
    x[0] = np.where(np.isnan(x[0]), 0.0, x[0])
    x[0, 0], x[0, 1] = 0.0, 1.0
    if options.get("counts"):
        return (np.stack([np.equal(x, v).sum(axis=1) for v in range(5)], axis=1),)
    return (x,)


def random_ratings(rng: np.random.Generator, units: int, raters: int, k: int) -> np.ndarray:
    """Values 1..k from correlated raters (so alpha is not ~0), a fifth of them missing."""
    x = rng.integers(1, k + 1, size=(units, raters)).astype(float)
    # Correlated raters so alpha is not ~0.
    x = np.where(rng.random((units, raters)) < 0.5, x[:, :1], x)
    x[rng.random((units, raters)) < 0.2] = np.nan
    return x
