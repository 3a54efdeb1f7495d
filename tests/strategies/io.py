"""What the readers and writers must survive: awkward ids, any finite double."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

#: Ids of TREC text files: separators' neighbours, '#' (not first), non-ASCII, NBSP.
trec_ids = st.text(alphabet="abcXYZ019-_.:#/é\u00a0", min_size=1, max_size=6).filter(
    lambda s: not s.startswith("#")
)
#: Any finite double (written with repr, read back bit for bit).
trec_scores = st.floats(allow_nan=False, allow_infinity=False, width=64)


def hard_doubles(n: int, seed: int = 0) -> np.ndarray:
    """About n random finite doubles drawn bit by bit, and the classic hard cases."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**63, n, dtype=np.uint64) | (
        rng.integers(0, 2, n, dtype=np.uint64) << np.uint64(63)
    )
    x = bits.view(np.float64)
    x = x[np.isfinite(x)]
    special = [
        0.0,
        -0.0,
        5e-324,
        -5e-324,
        2.2250738585072014e-308,
        1.7976931348623157e308,
        0.1,
        0.1 + 0.2,
        1 / 3,
        1e22,
        2.0**53 + 2,
        123456789.123456789,
        -1e-300,
    ]
    return np.concatenate([x, special])
