"""Krippendorff's alpha on ratings without variation: NaN with ``defined=False``, never 1.

Regression (issue 11): at the ordinal and interval levels the moment form of D_e left a
rounding residue (~1e-31) when every rating was the same, so alpha = 1 - 0 / 1e-31 came out
as 1.0 ("reliable"), e.g. for a 15 x 4 matrix of 3.0.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay import agreement as A

LEVELS = ("nominal", "ordinal", "interval", "ratio")


@pytest.mark.parametrize("level", LEVELS)
def test_issue_example_15_by_4_of_3(level: str) -> None:
    res = A.krippendorff_alpha(np.full((15, 4), 3.0), level=level)
    assert res.defined is False
    assert math.isnan(float(res))
    assert res.expected == 0.0
    assert res.band == "undefined"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    units=st.integers(1, 25),
    raters=st.integers(2, 6),
    value=st.floats(0.0, 1e6, allow_nan=False, allow_subnormal=False),
    level=st.sampled_from(LEVELS),
    holes=st.lists(st.tuples(st.integers(0, 24), st.integers(0, 5)), max_size=30),
)
def test_constant_ratings_are_undefined(
    units: int, raters: int, value: float, level: str, holes: list[tuple[int, int]]
) -> None:
    """Every constant matrix, with or without missing values, as long as one unit stays
    pairable."""
    m = np.full((units, raters), value)
    for u, r in holes:
        if u < units and r < raters:
            m[u, r] = np.nan
    if not ((~np.isnan(m)).sum(axis=1) >= 2).any():
        m[0, :2] = value  # keep one pairable unit
    res = A.krippendorff_alpha(m, level=level)
    assert res.defined is False, (m, level, float(res))
    assert math.isnan(float(res))


@pytest.mark.parametrize("level", ["ordinal", "interval"])
def test_bootstrap_of_constant_ratings_has_no_defined_resample(level: str) -> None:
    boot = A.alpha_bootstrap(np.full((15, 4), 3.0), level=level, n_resamples=50, seed=0)
    assert np.isnan(boot.samples).all()
    assert all(math.isnan(v) for v in boot.ci)


@pytest.mark.parametrize("level", ["ordinal", "interval"])
def test_variation_in_one_rating_is_defined(level: str) -> None:
    """The other side of the rule: one differing rating makes alpha defined (and < 1)."""
    m = np.full((15, 4), 3.0)
    m[7, 2] = 4.0
    res = A.krippendorff_alpha(m, level=level)
    assert res.defined is True
    assert float(res) < 1.0
