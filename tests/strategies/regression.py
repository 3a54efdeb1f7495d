"""Targets and predictions for regression: constant targets, exact and shifted predictions."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

values = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@st.composite
def pairs(draw: Any, min_n: int = 1, max_n: int = 25) -> tuple[np.ndarray, np.ndarray]:
    """(y_true, y_pred) of n values; y sometimes constant, predictions sometimes exact or a
    constant shift of y."""
    n = draw(st.integers(min_n, max_n))
    constant = draw(st.booleans())
    if constant:
        y = np.full(n, draw(values))
    else:
        y = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    # predictions: sometimes exact, sometimes a constant shift, else random
    kind = draw(st.sampled_from(["random", "exact", "shift"]))
    if kind == "exact":
        p = y.copy()
    elif kind == "shift":
        p = y + draw(st.floats(-10, 10))
    else:
        p = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    return y, p
