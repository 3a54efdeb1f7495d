"""Comparing arrays of values."""

from __future__ import annotations

from typing import Any

import numpy as np

TOL = 1e-12


def close(a: Any, b: Any) -> None:
    """Equal to 1e-10 relative, 1e-12 absolute, NaN where the other is NaN."""
    np.testing.assert_allclose(
        np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-10, atol=TOL, equal_nan=True
    )
